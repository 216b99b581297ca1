package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fastpathlab/fplab/clusters/clusterstest"
	"github.com/fastpathlab/fplab/results"
)

// TestMain lets the tests run the CLI as a real process: with FPLAB_MAIN=1
// the test binary is fplab.
func TestMain(m *testing.M) {
	clusterstest.BrokerMain()
	if os.Getenv("FPLAB_MAIN") == "1" {
		os.Exit(mainErr(os.Args[1:]))
	}
	os.Exit(m.Run())
}

// fplab runs the CLI in a child process and returns its exit code and
// output streams.
func fplab(t *testing.T, args ...string) (code int, stdout, stderr string, took time.Duration) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, exe, args...)
	cmd.Env = append(os.Environ(), "FPLAB_MAIN=1")
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	start := time.Now()
	err = cmd.Run()
	took = time.Since(start)
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode(), o.String(), e.String(), took
	} else if err != nil {
		t.Fatal(err)
	}
	return 0, o.String(), e.String(), took
}

func TestBadInputIsOneLine(t *testing.T) {
	broker := clusterstest.StartSelfT(t, 1, 2)
	bs := strings.Join(broker.Bootstrap(), ",")
	base := []string{"rung", "--topic", "t", "--records", "10", "--bootstrap", bs}
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"unknown command", []string{"frobnicate"}, `unknown command "frobnicate"`},
		{"unknown format", append(base, "--format", "xml"), `unknown format "xml"`},
		{"unknown path", append(base, "--path", "slow"), `unknown path "slow"`},
		{"batch zero", append(base, "--batch", "0"), "batch must be > 0, got 0"},
		{"negative batch", append(base, "--batch", "-1"), "batch must be > 0, got -1"},
		{"unreachable bootstrap", []string{"rung", "--topic", "t", "--records", "10", "--bootstrap", "127.0.0.1:1"}, "cannot reach bootstrap 127.0.0.1:1"},
		{"missing topic", append(base, "--brokers", "1", "--topic", "no-such-topic"), `topic "no-such-topic" does not exist`},
		{"bad flag", append(base, "--no-such-flag"), "flag provided but not defined"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr, took := fplab(t, tc.args...)
			if code == 0 {
				t.Fatalf("exit 0; stdout %q", stdout)
			}
			lines := strings.Split(strings.TrimSpace(stderr), "\n")
			last := lines[len(lines)-1]
			if !strings.Contains(last, tc.want) {
				t.Errorf("last stderr line %q, want it to contain %q", last, tc.want)
			}
			if strings.Contains(stderr, "goroutine ") || strings.Contains(stderr, "panic") {
				t.Errorf("panic trace on stderr:\n%s", stderr)
			}
			if stdout != "" {
				t.Errorf("stdout %q, want nothing", stdout)
			}
			if took > 30*time.Second {
				t.Errorf("took %v, want < 30s", took)
			}
		})
	}
}

// inProcess runs the CLI in this process with stdout and stderr sent to
// files, and returns its exit code and both streams.
func inProcess(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	dir := t.TempDir()
	outF, err := os.Create(filepath.Join(dir, "stdout"))
	if err != nil {
		t.Fatal(err)
	}
	errF, err := os.Create(filepath.Join(dir, "stderr"))
	if err != nil {
		t.Fatal(err)
	}
	saved := [2]*os.File{os.Stdout, os.Stderr}
	os.Stdout, os.Stderr = outF, errF
	code = mainErr(args)
	os.Stdout, os.Stderr = saved[0], saved[1]
	outF.Close()
	errF.Close()
	o, _ := os.ReadFile(outF.Name())
	e, _ := os.ReadFile(errF.Name())
	return code, string(o), string(e)
}

// TestBadFlagPrintsOnce runs every command with an unknown flag.
func TestBadFlagPrintsOnce(t *testing.T) {
	for name := range commands {
		t.Run(name, func(t *testing.T) {
			code, stdout, stderr := inProcess(t, name, "--no-such-flag")
			if code == 0 {
				t.Errorf("exit 0")
			}
			if n := strings.Count(stderr, "flag provided but not defined: -no-such-flag"); n != 1 {
				t.Errorf("the error appears %d times on stderr, want once:\n%s", n, stderr)
			}
			if lines := strings.Split(strings.TrimSpace(stderr), "\n"); len(lines) != 1 {
				t.Errorf("stderr has %d lines, want 1:\n%s", len(lines), stderr)
			}
			if stdout != "" {
				t.Errorf("stdout %q, want nothing", stdout)
			}
		})
	}
}

func TestHelpPrintsFlags(t *testing.T) {
	for _, name := range []string{"compare", "rung"} {
		code, _, stderr := inProcess(t, name, "-h")
		if code != 2 || !strings.Contains(stderr, "usage: fplab "+name) || !strings.Contains(stderr, "-threshold") && !strings.Contains(stderr, "-path") {
			t.Errorf("%s -h: exit %d, stderr:\n%s", name, code, stderr)
		}
	}
}

// writeRun makes a run directory holding rows.
func writeRun(t *testing.T, root string, rows []results.Row) string {
	t.Helper()
	dir, err := results.NewRunDir(root, "h", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	host := results.Fingerprint{Hostname: "h", CPUModel: "cpu", Cores: 2, Arch: "amd64", Kernel: "6.1"}
	if err := results.WriteManifest(dir, results.Manifest{Host: host}); err != nil {
		t.Fatal(err)
	}
	jr, err := results.OpenJournal(filepath.Join(dir, results.JournalFile))
	if err != nil {
		t.Fatal(err)
	}
	defer jr.Close()
	for _, r := range rows {
		if err := jr.Append(r); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// cellRows makes reps rows per cell, measured (ok) or failed.
func cellRows(ok bool, reps int, cells ...string) []results.Row {
	var rows []results.Row
	for _, c := range cells {
		for rep := 0; rep < reps; rep++ {
			r := results.Row{Cell: c, Rep: rep, OK: ok}
			if ok {
				r.Metrics = []results.Metric{{Unit: "rec/s", Value: 1e6 + float64(rep)}}
			} else {
				r.Reason = "exit status 1: source: boom"
			}
			rows = append(rows, r)
		}
	}
	return rows
}

func TestCompareExitCodes(t *testing.T) {
	root := t.TempDir()
	a, b := "path=fast/batch=8", "path=rowwise/batch=8"
	old := writeRun(t, root, cellRows(true, 5, a, b))
	cases := []struct {
		name     string
		new      []results.Row
		code     int
		lastLine string
	}{
		{"same cells", cellRows(true, 5, a, b), 0, ""},
		{"every new cell failed", cellRows(false, 5, a, b), 1,
			"results: compare: comparison incomplete: new measured nothing (10 journal rows, none OK)"},
		{"new lacks a cell", append(cellRows(true, 5, a), cellRows(false, 5, b)...), 1,
			"results: compare: comparison incomplete: new lacks 1 cell(s) old measured: " + b},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := inProcess(t, "compare", old, writeRun(t, root, tc.new))
			if code != tc.code || strings.TrimSpace(stderr) != tc.lastLine {
				t.Errorf("exit %d, stderr %q; want exit %d, stderr %q\nstdout:\n%s", code, stderr, tc.code, tc.lastLine, stdout)
			}
		})
	}
}
