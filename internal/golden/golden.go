package golden

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/ from the current output")

// dir is the testdata directory of the package under test.
var dir = func() string {
	wd, err := os.Getwd()
	if err != nil {
		return "testdata"
	}
	return filepath.Join(wd, "testdata")
}()

// TB is the part of testing.TB that Check uses.
type TB interface {
	Helper()
	Errorf(format string, args ...any)
}

// Compare reports how got differs from want, or nil when it matches.
type Compare func(got, want []byte) error

// Check compares got with testdata/<name> byte for byte.
func Check(t TB, name string, got []byte) {
	t.Helper()
	CheckWith(t, name, got, Equal)
}

// CheckWith compares got with testdata/<name> using same. On a mismatch
// (or a missing golden file) it fails t and writes got to
// testdata/<name>.got; on a match it removes a .got left by an earlier
// failure. Under -update it writes got to the golden file, but only when
// same reports a difference, so output that matches within a tolerance
// leaves the golden file as it is.
func CheckWith(t TB, name string, got []byte, same Compare) {
	t.Helper()
	path := filepath.Join(dir, name)
	gotPath := path + ".got"
	shown := filepath.Join("testdata", name) // the path as the package sees it
	want, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("golden: %v", err)
		return
	}
	var diff error
	if err != nil {
		diff = errors.New("no golden file")
	} else {
		diff = same(got, want)
	}
	if diff == nil {
		os.Remove(gotPath)
		return
	}
	if *update {
		if err := write(path, got); err != nil {
			t.Errorf("golden: %v", err)
			return
		}
		os.Remove(gotPath)
		return
	}
	if err := write(gotPath, got); err != nil {
		t.Errorf("%s: %v (and the output could not be kept: %v)", shown, diff, err)
		return
	}
	t.Errorf("%s: %v\nthe output is in %s.got; go test -update rewrites the golden file", shown, diff, shown)
}

// Equal is the Compare of Check: the bytes must be the same. Its error
// names the first line that differs.
func Equal(got, want []byte) error {
	if bytes.Equal(got, want) {
		return nil
	}
	gl, wl := bytes.SplitAfter(got, []byte("\n")), bytes.SplitAfter(want, []byte("\n"))
	for i := 0; ; i++ {
		var g, w []byte
		if i < len(gl) {
			g = gl[i]
		}
		if i < len(wl) {
			w = wl[i]
		}
		if !bytes.Equal(g, w) {
			return fmt.Errorf("differs at line %d (got %d bytes, want %d):\n got: %q\nwant: %q", i+1, len(got), len(want), g, w)
		}
	}
}

func write(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, data, 0o644)
}
