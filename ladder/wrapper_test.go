package ladder

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fastpathlab/fplab/ladder/rungargs"
)

// TestChildWrapper: with FPLAB_CHILD_WRAPPER set, the child runs through
// the wrapper (here a shell script that leaves a mark and execs the rest);
// a missing child binary is still a start error.
func TestChildWrapper(t *testing.T) {
	dir := t.TempDir()
	mark := filepath.Join(dir, "wrapped")
	wrapper := filepath.Join(dir, "wrap.sh")
	// Under qemu-test.sh a wrapper is already in force: the script chains
	// to it so the arm64 child still runs.
	prev := os.Getenv(rungargs.WrapperEnv)
	script := "#!/bin/sh\necho \"$@\" > " + mark + "\nexec " + prev + " \"$@\"\n"
	if err := os.WriteFile(wrapper, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv(rungargs.WrapperEnv, wrapper)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	res := runChild(context.Background(), childCmd{Bin: exe, Args: []string{"rung", "--path", "fast"}, Timeout: 30 * time.Second, Env: fakeEnv("")})
	if res.StartErr != nil || res.Exit != 0 {
		t.Fatalf("wrapped child: start %v exit %d stderr %q", res.StartErr, res.Exit, res.StderrTail)
	}
	got, err := os.ReadFile(mark)
	if err != nil {
		t.Fatalf("the wrapper did not run: %v", err)
	}
	if !strings.HasPrefix(string(got), exe+" rung --path fast") {
		t.Errorf("wrapper saw %q, want the child's argv", got)
	}
	res = runChild(context.Background(), childCmd{Bin: filepath.Join(dir, "none"), Timeout: time.Second})
	if res.StartErr == nil {
		t.Errorf("missing child through the wrapper: no start error (exit %d)", res.Exit)
	}
}
