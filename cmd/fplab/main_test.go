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
	"github.com/fastpathlab/fplab/internal/golden"
	"github.com/fastpathlab/fplab/ladder"
	"github.com/fastpathlab/fplab/results"
	"github.com/fastpathlab/fplab/results/resultstest"
)

// TestMain lets the tests run the CLI as a real process: with FPLAB_MAIN=1
// the test binary is fplab.
func TestMain(m *testing.M) {
	clusterstest.BrokerMain()
	if os.Getenv("FPLAB_MAIN") == "1" {
		os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
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

// inProcess runs the CLI in this process and returns its exit code and
// both streams.
func inProcess(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var o, e bytes.Buffer
	code = run(args, &o, &e)
	return code, o.String(), e.String()
}

// TestBadFlagPrintsOnce runs every command with an unknown flag: its error
// is one line with the command's prefix, like any other error of it.
func TestBadFlagPrintsOnce(t *testing.T) {
	for name := range commands {
		if name == "history" {
			continue // forwarded to fplab-history, whose tests hold its flags
		}
		t.Run(name, func(t *testing.T) {
			code, stdout, stderr := inProcess(t, name, "--no-such-flag")
			if code == 0 {
				t.Errorf("exit 0")
			}
			if n := strings.Count(stderr, "flag provided but not defined: -no-such-flag"); n != 1 {
				t.Errorf("the error appears %d times on stderr, want once:\n%s", n, stderr)
			}
			if !strings.HasPrefix(stderr, "fplab "+name+": ") {
				t.Errorf("stderr %q lacks the prefix %q", stderr, "fplab "+name+": ")
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

// The cells of the profiled fixture run.
const (
	fastCell  = "path=fast/format=json/batch=8192"
	franzCell = "path=franz/format=json/batch=8192"
)

// writeRuns writes the fixture run directories the golden cases name,
// under runs/ in the working directory, and copies the spec files of
// testdata to specs/.
func writeRuns(t *testing.T, pkgDir string) {
	t.Helper()
	m := resultstest.Manifest()
	old, new := resultstest.CompareRows()
	failed := make([]results.Row, len(new))
	for i, r := range new {
		failed[i] = results.Row{Cell: r.Cell, Rep: r.Rep, Reason: "exit status 1: fplab rung: boom"}
	}
	var lacks []results.Row // old's cells, one of them failed on every repetition
	for _, r := range old {
		if r.Cell == "path=shallow/batch=1024" {
			r = results.Row{Cell: r.Cell, Rep: r.Rep, Reason: "exit status 1: fplab rung: boom"}
		}
		lacks = append(lacks, r)
	}
	x86 := m
	x86.Host.Arch, x86.Host.CPUModel, x86.Emulated = "amd64", "AMD EPYC", false
	resultstest.WriteRun(t, "runs/old", m, old)
	resultstest.WriteRun(t, "runs/new", m, new)
	resultstest.WriteRun(t, "runs/new-failed", m, failed)
	resultstest.WriteRun(t, "runs/new-lacks", m, lacks)
	resultstest.WriteRun(t, "runs/x86", x86, old)
	resultstest.WriteRun(t, "runs/gap", m, resultstest.GapRows())
	headed := m
	headed.Spec = []byte(`{"name":"fixture","path":["rowwise","fast"],"batch":[1024,8192],"alloc":["go","mimalloc2"],"repetitions":6,` +
		`"headline":["fast/rowwise by batch","mimalloc2/go on fast"]}`)
	resultstest.WriteRun(t, "runs/headed", headed, resultstest.TableRows())

	// A run profiled as `fplab ladder --profile` leaves it: a CPU and an
	// allocs profile of the fast cell, a CPU profile of the franz cell.
	prof := resultstest.WriteRun(t, "runs/prof", m, []results.Row{
		resultstest.OK(fastCell, 0, resultstest.Metric("rec/s", 2e6)),
		resultstest.OK(franzCell, 0, resultstest.Metric("rec/s", 1e6)),
	})
	cpu, mem := ladder.ProfilePaths(prof, fastCell, 0)
	resultstest.WriteProfile(t, cpu, resultstest.CPUProfile(t))
	resultstest.WriteProfile(t, mem, resultstest.AllocsProfile(t))
	cpu, _ = ladder.ProfilePaths(prof, franzCell, 0)
	resultstest.WriteProfile(t, cpu, resultstest.FranzCPUProfile(t))

	specs, err := filepath.Glob(filepath.Join(pkgDir, "testdata", "*.yaml"))
	if err != nil || len(specs) == 0 {
		t.Fatalf("no spec files in testdata (%v)", err)
	}
	if err := os.Mkdir("specs", 0o755); err != nil {
		t.Fatal(err)
	}
	for _, p := range specs {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join("specs", filepath.Base(p)), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestGolden runs fplab in this process, as benchstat's tests run
// benchstat, and compares its stdout and stderr with
// testdata/<name>.stdout and testdata/<name>.stderr (go test -update
// rewrites them). The fixture runs are in a temporary working directory,
// so the paths in the output are the relative ones the cases give. None of
// the cases reaches Kafka or starts a child.
func TestGolden(t *testing.T) {
	pkgDir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(t.TempDir())
	writeRuns(t, pkgDir)
	cases := []struct {
		name string
		code int
		args []string
	}{
		// Usage (exit 2) and a bad flag.
		{"no-args", 2, nil},
		{"help", 2, []string{"help"}},
		{"unknown-command", 2, []string{"frobnicate"}},
		{"compare-help", 2, []string{"compare", "-h"}},
		{"bad-flag", 1, []string{"compare", "--no-such-flag", "runs/old", "runs/new"}},

		// compare: the verdict is the exit status; the table is printed
		// either way.
		{"compare-same", 0, []string{"compare", "runs/old", "runs/old"}},
		{"compare-regression", 1, []string{"compare", "runs/old", "runs/new"}},
		{"compare-threshold", 1, []string{"compare", "--threshold", "0.5", "runs/old", "runs/new"}},
		{"compare-units", 1, []string{"compare", "--units", "ns/rec", "runs/old", "runs/new"}},
		{"compare-units-bad", 1, []string{"compare", "--units", "window-ms", "runs/old", "runs/new"}},
		{"compare-new-failed", 1, []string{"compare", "runs/old", "runs/new-failed"}},
		{"compare-new-lacks", 1, []string{"compare", "runs/old", "runs/new-lacks"}},
		{"compare-other-host", 1, []string{"compare", "runs/old", "runs/x86"}},
		{"compare-force", 0, []string{"compare", "--force", "runs/old", "runs/x86"}},
		{"compare-bad-threshold", 1, []string{"compare", "--threshold", "-1", "runs/old", "runs/new"}},
		{"compare-one-run", 1, []string{"compare", "runs/old"}},
		{"compare-missing-run", 1, []string{"compare", "runs/old", "runs/nope"}},

		// report and profile read a run directory.
		{"report", 0, []string{"report", "runs/gap"}},
		{"report-no-run", 1, []string{"report"}},
		{"report-missing-run", 1, []string{"report", "runs/nope"}},
		{"report-bad-budget", 1, []string{"report", "--budget-ms", "-5", "runs/gap"}},
		{"report-bad-latency-budget", 1, []string{"report", "--latency-budget-ms", "-5", "runs/gap"}},
		{"report-headline", 0, []string{"report", "--headline", "runs/headed"}},
		{"compare-headline-same", 0, []string{"compare", "--headline", "runs/headed", "runs/headed"}},
		{"compare-headline-none", 1, []string{"compare", "--headline", "runs/old", "runs/new"}},
		{"report-headline-none", 1, []string{"report", "--headline", "runs/gap"}},
		{"report-headline-two-runs", 1, []string{"report", "--headline", "runs/headed", "runs/gap"}},
		{"report-merge-by-bad", 1, []string{"report", "--merge-by", "size", "runs/old", "runs/new"}},
		{"report-merge-by-one-run", 1, []string{"report", "--merge-by", "records", "runs/old"}},
		{"report-merge-by-no-records", 1, []string{"report", "--merge-by", "records", "--out", "runs/merged", "runs/old", "runs/new"}},
		{"ladder-bad-budget", 1, []string{"ladder", "--budget-ms", "nan", "--spec", "nope.yaml"}},
		{"profile-top", 0, []string{"profile", "top", "runs/prof", fastCell}},
		{"profile-top-allocs", 0, []string{"profile", "--kind", "allocs", "top", "runs/prof", fastCell}},
		{"profile-diff", 0, []string{"profile", "diff", "runs/prof", fastCell, franzCell}},
		{"profile-bad-kind", 1, []string{"profile", "--kind", "heap", "top", "runs/prof", fastCell}},
		{"profile-missing", 1, []string{"profile", "--kind", "allocs", "top", "runs/prof", franzCell}},
		{"profile-usage", 1, []string{"profile", "top", "runs/prof"}},

		// Commands refused before they start anything.
		{"ladder-bad-spec", 1, []string{"ladder", "--spec", "specs/bad-batch.yaml", "--root", "runs"}},
		{"ladder-missing-spec", 1, []string{"ladder", "--spec", "specs/nope.yaml", "--root", "runs"}},
		{"ladder-argument", 1, []string{"ladder", "extra"}},
		{"ladder-resume-spec", 1, []string{"ladder", "--resume", "runs/old", "--spec", "specs/bad-batch.yaml"}},
		{"ladder-secrets-no-resume", 1, []string{"ladder", "--secrets", "-", "--spec", "specs/bad-batch.yaml"}},
		{"micro-unknown-bench", 1, []string{"micro", "--bench", "nope"}},
		{"micro-bad-size", 1, []string{"micro", "--bench", "crc32c", "--size", "0"}},
		{"micro-bad-lib", 1, []string{"micro", "--bench", "decode", "--format", "avro", "--lib", "simdjson"}},
		{"micro-bad-format", 1, []string{"micro", "--bench", "decode", "--format", "raw", "--lib", "lab"}},
		{"micro-bad-value-size", 1, []string{"micro", "--bench", "decode", "--format", "json", "--value-size", "0"}},
		{"load-bad-bootstrap", 1, []string{"load", "--bootstrap", "nohost"}},
		{"broker-argument", 1, []string{"broker", "extra"}},
		{"rung-bad-crc", 1, []string{"rung", "--crc", "maybe"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Logf("fplab %s", strings.Join(tc.args, " "))
			code, stdout, stderr := inProcess(t, tc.args...)
			golden.Check(t, tc.name+".stdout", []byte(stdout))
			golden.Check(t, tc.name+".stderr", []byte(stderr))
			if code != tc.code {
				t.Errorf("exit %d, want %d", code, tc.code)
			}
			// An error is one line on stderr, never a panic
			// (docs/exit-codes.md).
			if code == 1 && strings.Count(stderr, "\n") != 1 {
				t.Errorf("exit 1 with %d lines on stderr, want one", strings.Count(stderr, "\n"))
			}
			if strings.Contains(stderr, "goroutine ") || strings.Contains(stderr, "panic") {
				t.Errorf("panic trace on stderr:\n%s", stderr)
			}
		})
	}
	// Nothing was made for the refused ladder: runs/ holds the fixtures only.
	ents, err := os.ReadDir("runs")
	if err != nil {
		t.Fatal(err)
	}
	if len(ents) != 8 {
		var names []string
		for _, e := range ents {
			names = append(names, e.Name())
		}
		t.Errorf("runs/ holds %v, want the 8 fixture runs only", names)
	}
}
