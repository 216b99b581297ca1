package report

import (
	"os"
	"path/filepath"
	"runtime/pprof"
	"strings"
	"testing"
)

func TestWriteProfiles(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	writeProfiles(&b, dir)
	if b.Len() != 0 {
		t.Fatalf("a run without profiles got a section:\n%s", b.String())
	}
	pd := filepath.Join(dir, "profiles")
	if err := os.MkdirAll(pd, 0o755); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(filepath.Join(pd, "path_fast.r0.cpu.pprof"))
	if err != nil {
		t.Fatal(err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		t.Fatal(err)
	}
	x := 0
	for i := 0; i < 50_000_000; i++ {
		x += i ^ (x >> 3)
	}
	pprof.StopCPUProfile()
	f.Close()
	if err := os.WriteFile(filepath.Join(pd, "path_bad.r0.cpu.pprof"), []byte("not a profile"), 0o644); err != nil {
		t.Fatal(err)
	}
	writeProfiles(&b, dir)
	out := b.String()
	for _, want := range []string{"## Profiles", "| `path_fast.r0` |", "| `path_bad.r0` | —: read profile ", "librdkafka/cgo"} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in\n%s", want, out)
		}
	}
	if x == 42 {
		t.Log(x)
	}
}
