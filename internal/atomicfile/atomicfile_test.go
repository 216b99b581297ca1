package atomicfile

import (
	"errors"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
)

func TestWriteReplaces(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "f.json")
	for _, data := range []string{"first", "second, longer"} {
		if err := Write(name, []byte(data)); err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(name)
		if err != nil || string(got) != data {
			t.Fatalf("read %q, %v; want %q", got, err, data)
		}
	}
	assertNoTemp(t, dir)
	if err := Write(filepath.Join(dir, "missing", "f"), nil); err == nil {
		t.Error("Write into a missing directory succeeded")
	}
}

// TestConcurrentWriters: writers racing on one name never leave a file
// that is not one of theirs whole (a shared temporary name would).
func TestConcurrentWriters(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "f")
	payloads := map[string]bool{}
	var wg sync.WaitGroup
	for i := range 8 {
		p := string(rune('a'+i)) + string(make([]byte, 1<<16))
		payloads[p] = true
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 20 {
				if err := Write(name, []byte(p)); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	got, err := os.ReadFile(name)
	if err != nil || !payloads[string(got)] {
		t.Fatalf("final file is no writer's whole payload (%d bytes, %v)", len(got), err)
	}
	assertNoTemp(t, dir)
}

type failRename struct{ OS }

func (failRename) Rename(string, string) error { return syscall.ENOSPC }

func TestFailureLeavesTheOldFile(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "f")
	if err := Write(name, []byte("old")); err != nil {
		t.Fatal(err)
	}
	if err := WriteFS(failRename{}, name, []byte("new")); !errors.Is(err, syscall.ENOSPC) {
		t.Fatalf("WriteFS = %v, want ENOSPC", err)
	}
	if got, _ := os.ReadFile(name); string(got) != "old" {
		t.Errorf("after a failed write the file holds %q", got)
	}
	assertNoTemp(t, dir)
}

func TestTarget(t *testing.T) {
	tmp := tempName("/s/ckpt-7.json")
	if got, ok := Target(tmp); !ok || got != "/s/ckpt-7.json" {
		t.Errorf("Target(%q) = %q, %v", tmp, got, ok)
	}
	for _, n := range []string{"/s/ckpt-7.json", "/s/x.tmp", "/s/x.1.tmp", "/s/x.a-1.tmp"} {
		if _, ok := Target(n); ok {
			t.Errorf("Target(%q) took it for a temporary file", n)
		}
	}
}

func assertNoTemp(t *testing.T, dir string) {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if _, ok := Target(e.Name()); ok {
			t.Errorf("temporary file %s left behind", e.Name())
		}
	}
}
