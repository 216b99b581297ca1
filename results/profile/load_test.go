package profile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fastpathlab/fplab/results/resultstest"
)

func TestLoadErrors(t *testing.T) {
	dir := t.TempDir()
	text := filepath.Join(dir, "notes.txt")
	empty := filepath.Join(dir, "empty.pprof")
	if err := os.WriteFile(text, []byte("BenchmarkLadder/path=fast 1 2 ns/rec\nsecond line\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		path, want string
	}{
		{filepath.Join(dir, "missing.pprof"), "read profile " + filepath.Join(dir, "missing.pprof") + ": no such file"},
		{text, "read profile " + text + ": parsing profile: "},
		{empty, "read profile " + empty + ": parsing profile: "},
		{dir, "read profile " + dir + ": "},
	} {
		_, err := Load(c.path)
		if err == nil || !strings.HasPrefix(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("Load(%s): %v, want one line starting %q", c.path, err, c.want)
		}
		if testing.Verbose() {
			t.Log(err)
		}
	}
}

func TestLoadRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "allocs.pprof")
	resultstest.WriteProfile(t, path, resultstest.AllocsProfile(t))
	p, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Buckets(p)
	if err != nil {
		t.Fatal(err)
	}
	if b.Kind != KindAllocs || b.Bucket(BucketArrow).Value[0] != 48<<20 {
		t.Errorf("round trip: kind %v arrow %v", b.Kind, b.Bucket(BucketArrow).Value)
	}
}
