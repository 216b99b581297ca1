package checkpointcost

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// A reader killed after checkpoint 2 became durable but before its
// transactions were committed: Restore commits them (once, however often it
// runs) and the next reader finishes exactly once.
func TestCrashBetweenCompleteAndCommit(t *testing.T) {
	dir := t.TempDir()
	cfg := childConfig{
		Store: filepath.Join(dir, "store"), Output: filepath.Join(dir, "out"),
		Start: []int64{0, 0, 0}, Stop: []int64{4000, 3000, 5000},
		Batch: 100, EveryBatches: 5,
		CrashAfterComplete: 2,
	}
	err := runChild(t, cfg)
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
		t.Fatalf("first reader: %v, want death by SIGKILL", err)
	}
	s, err := latestSnapshot(cfg.Store)
	if err != nil || s == nil || s.ID != 2 || len(s.Pending) == 0 {
		t.Fatalf("store after the crash: %+v, %v; want checkpoint 2 with pending transactions", s, err)
	}
	for _, tx := range s.Pending {
		if _, err := os.Stat(txnFile(cfg.Output, committedDir, tx.ID)); err == nil {
			t.Fatalf("transaction %d committed before the crash; the hook ran too late", tx.ID)
		}
	}

	r, err := Restore(cfg.Store, cfg.Output, cfg.Start)
	if err != nil || r.ID != 2 || r.Committed != len(s.Pending) {
		t.Fatalf("Restore = %+v, %v; want checkpoint 2 committing %d transactions", r, err, len(s.Pending))
	}
	if v, err := Verify(cfg.Output, cfg.Start, s.Split, nil); err != nil || !v.OK() {
		t.Fatalf("after Restore, committed output vs checkpoint 2's split: %+v, %v", v, err)
	}
	if r2, err := Restore(cfg.Store, cfg.Output, cfg.Start); err != nil || r2.Committed != 0 || r2.ID != 2 {
		t.Fatalf("second Restore = %+v, %v; want no new commit", r2, err)
	}

	cfg.CrashAfterComplete = 0
	if err := runChild(t, cfg); err != nil {
		t.Fatalf("second reader: %v", err)
	}
	v, err := Verify(cfg.Output, cfg.Start, cfg.Stop, nil)
	if err != nil || !v.OK() {
		t.Errorf("final output %+v, %v", v, err)
	}
}

// runChild runs one reader process to its end, events discarded.
func runChild(t *testing.T, cfg childConfig) error {
	t.Helper()
	argv := childArgv(cfg)
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stdin = strings.NewReader("{}\n") // no planned failure
	cmd.Stderr = os.Stderr
	return cmd.Run()
}

func TestRestoreEmptyStore(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	// A reader that died before its first checkpoint left staged data.
	stale := txnFile(out, stagingDir, 1)
	if err := os.MkdirAll(filepath.Dir(stale), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(stale, make([]byte, runSize), 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := Restore(filepath.Join(dir, "store"), out, []int64{3, 4})
	if err != nil || r.ID != 0 || len(r.Start) != 2 || r.Start[0] != 3 || r.Start[1] != 4 {
		t.Fatalf("Restore = %+v, %v; want no checkpoint and the given start", r, err)
	}
	if _, err := os.Stat(stale); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("staged data without a checkpoint was not aborted: %v", err)
	}
}
