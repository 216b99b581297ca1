package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/fastpathlab/fplab/clusters/clusterstest"
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
