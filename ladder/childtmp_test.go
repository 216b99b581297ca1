package ladder

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"
)

// A child's TMPDIR is its own and is gone after the child, whether it
// exited or was killed at its timeout: a killed checkpointing cell leaves
// no store or sink output behind.
func TestChildTempDirRemoved(t *testing.T) {
	parent := t.TempDir()
	t.Setenv("TMPDIR", parent)
	for name, cc := range map[string]childCmd{
		"exits": {Bin: "/bin/sh", Args: []string{"-c", `mkdir "$TMPDIR/ckpt" && echo "$TMPDIR"; exit 3`}, Timeout: time.Minute},
		// The kill comes at the timeout whether or not the shell got to
		// its mkdir; either way nothing may remain.
		"killed": {Bin: "/bin/sh", Args: []string{"-c", `mkdir "$TMPDIR/ckpt"; exec sleep 60`}, Timeout: 200 * time.Millisecond, Grace: 100 * time.Millisecond},
	} {
		res := runChild(context.Background(), cc)
		if res.StartErr != nil {
			t.Fatalf("%s: %v", name, res.StartErr)
		}
		if name == "exits" {
			dir := strings.TrimSpace(string(res.Stdout))
			if res.Exit != 3 || !strings.HasPrefix(dir, parent+string(os.PathSeparator)) {
				t.Errorf("%s: exit %d, child's TMPDIR %q, want 3 and a directory under %s", name, res.Exit, dir, parent)
			}
		} else if !res.TimedOut {
			t.Errorf("%s: not timed out: %+v", name, res)
		}
		if ents, err := os.ReadDir(parent); err != nil || len(ents) != 0 {
			t.Errorf("%s: %d entries left in TMPDIR (%v)", name, len(ents), err)
		}
	}
}
