package ladder

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"
)

// TestSweepScratch: a scratch directory whose ladder is gone (its lock can
// be taken) is removed; a live ladder's, and one with no lock file yet,
// are left alone.
func TestSweepScratch(t *testing.T) {
	tmp := t.TempDir()
	live, err := newScratch(tmp)
	if err != nil {
		t.Fatal(err)
	}
	defer live.remove()
	dead := filepath.Join(tmp, scratchPrefix+"999999-dead")
	if err := os.MkdirAll(filepath.Join(dead, "fplab-child-1"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dead, scratchLock), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	unlocked := filepath.Join(tmp, scratchPrefix+"1-new")
	if err := os.Mkdir(unlocked, 0o755); err != nil {
		t.Fatal(err)
	}
	removed := sweepScratch(tmp)
	if len(removed) != 1 || removed[0] != dead {
		t.Errorf("swept %v, want only %s", removed, dead)
	}
	for _, d := range []string{live.dir, unlocked} {
		if _, err := os.Stat(d); err != nil {
			t.Errorf("%s was removed: %v", d, err)
		}
	}
	live.remove()
	if _, err := os.Stat(live.dir); !os.IsNotExist(err) {
		t.Errorf("remove left %s (%v)", live.dir, err)
	}
}

// TestRunLeavesNoTemporaries: a run removes its scratch directory and
// every child's TMPDIR, and removes what a dead ladder left.
func TestRunLeavesNoTemporaries(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	dead := filepath.Join(tmp, scratchPrefix+"999999-dead")
	if err := os.MkdirAll(filepath.Join(dead, "fplab-child-1"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dead, scratchLock), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	var prog bytes.Buffer
	if _, err := Run(context.Background(), Options{Spec: mustSpec(t, runnerSpec), BinDir: fakeBinDir(t, "go", "mimalloc2"),
		Root: t.TempDir(), Progress: &prog, Infra: &fakeInfra{}, ChildEnv: fakeEnv("")}); err != nil {
		t.Fatal(err)
	}
	ents, err := os.ReadDir(tmp)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		t.Errorf("left in TMPDIR: %s", e.Name())
	}
	if !bytes.Contains(prog.Bytes(), []byte("removed "+dead+", left by a ladder that died")) {
		t.Errorf("progress does not say the dead ladder's scratch was removed:\n%s", prog.String())
	}
}
