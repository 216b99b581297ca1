package golden

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// testing.T and testing.B are what the lab's tests pass to Check.
var _, _ TB = (*testing.T)(nil), (*testing.B)(nil)

// fakeT records what Check reports instead of failing the real test.
type fakeT struct{ errs []string }

func (f *fakeT) Helper() {}
func (f *fakeT) Errorf(format string, args ...any) {
	f.errs = append(f.errs, fmt.Sprintf(format, args...))
}

// inTemp points Check at a fresh testdata directory holding files, and
// sets -update to upd, for the rest of the test.
func inTemp(t *testing.T, upd bool, files map[string]string) string {
	t.Helper()
	saved, savedUpdate := dir, *update
	t.Cleanup(func() { dir, *update = saved, savedUpdate })
	dir, *update = filepath.Join(t.TempDir(), "testdata"), upd
	for name, data := range files {
		if err := write(filepath.Join(dir, name), []byte(data)); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func read(t *testing.T, path string) (string, bool) {
	t.Helper()
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return "", false
	}
	if err != nil {
		t.Fatal(err)
	}
	return string(data), true
}

func TestCheckMatch(t *testing.T) {
	d := inTemp(t, false, map[string]string{"a.txt.golden": "one\ntwo\n", "a.txt.golden.got": "stale\n"})
	var ft fakeT
	Check(&ft, "a.txt.golden", []byte("one\ntwo\n"))
	if len(ft.errs) != 0 {
		t.Errorf("a match failed: %q", ft.errs)
	}
	if _, ok := read(t, filepath.Join(d, "a.txt.golden.got")); ok {
		t.Error("a match left the stale .got file")
	}
}

// TestCheckMismatch proves a difference fails the test, names the first
// differing line and the .got file, keeps the output there and leaves the
// golden file alone.
func TestCheckMismatch(t *testing.T) {
	d := inTemp(t, false, map[string]string{"sub/a.txt.golden": "one\ntwo\nthree\n"})
	var ft fakeT
	Check(&ft, "sub/a.txt.golden", []byte("one\nTWO\nthree\n"))
	if len(ft.errs) != 1 {
		t.Fatalf("%d errors, want 1: %q", len(ft.errs), ft.errs)
	}
	for _, want := range []string{"testdata/sub/a.txt.golden: differs at line 2", `got: "TWO\n"`, `want: "two\n"`, "testdata/sub/a.txt.golden.got", "-update"} {
		if !strings.Contains(ft.errs[0], want) {
			t.Errorf("error lacks %q:\n%s", want, ft.errs[0])
		}
	}
	if got, _ := read(t, filepath.Join(d, "sub/a.txt.golden.got")); got != "one\nTWO\nthree\n" {
		t.Errorf(".got holds %q", got)
	}
	if want, _ := read(t, filepath.Join(d, "sub/a.txt.golden")); want != "one\ntwo\nthree\n" {
		t.Errorf("the golden file changed to %q", want)
	}
}

func TestCheckMissing(t *testing.T) {
	d := inTemp(t, false, nil)
	var ft fakeT
	Check(&ft, "new.stdout", []byte("hello\n"))
	if len(ft.errs) != 1 || !strings.Contains(ft.errs[0], "testdata/new.stdout: no golden file") {
		t.Errorf("errors %q, want one saying there is no golden file", ft.errs)
	}
	if got, _ := read(t, filepath.Join(d, "new.stdout.got")); got != "hello\n" {
		t.Errorf(".got holds %q", got)
	}
	if _, ok := read(t, filepath.Join(d, "new.stdout")); ok {
		t.Error("a golden file was created without -update")
	}
}

func TestUpdate(t *testing.T) {
	d := inTemp(t, true, map[string]string{"a.golden": "old\n", "a.golden.got": "old got\n"})
	var ft fakeT
	Check(&ft, "a.golden", []byte("new\n"))
	Check(&ft, "deep/b.stderr", []byte("created\n"))
	if len(ft.errs) != 0 {
		t.Errorf("-update failed: %q", ft.errs)
	}
	for name, want := range map[string]string{"a.golden": "new\n", "deep/b.stderr": "created\n"} {
		if got, _ := read(t, filepath.Join(d, name)); got != want {
			t.Errorf("%s holds %q after -update, want %q", name, got, want)
		}
	}
	if _, ok := read(t, filepath.Join(d, "a.golden.got")); ok {
		t.Error("-update left the .got file")
	}
}

// tolerant treats outputs as the same when they differ in at most one
// byte, like an image compare with a pixel tolerance.
func tolerant(got, want []byte) error {
	n := max(len(got), len(want)) - min(len(got), len(want))
	for i := range min(len(got), len(want)) {
		if got[i] != want[i] {
			n++
		}
	}
	if n > 1 {
		return fmt.Errorf("%d bytes differ", n)
	}
	return nil
}

func TestCheckWith(t *testing.T) {
	d := inTemp(t, false, map[string]string{"img.png": "abcdef"})
	var ft fakeT
	CheckWith(&ft, "img.png", []byte("abcdeX"), tolerant)
	if len(ft.errs) != 0 {
		t.Errorf("within tolerance failed: %q", ft.errs)
	}
	CheckWith(&ft, "img.png", []byte("abXdeX"), tolerant)
	if len(ft.errs) != 1 || !strings.Contains(ft.errs[0], "testdata/img.png: 2 bytes differ") {
		t.Errorf("errors %q, want the compare's error", ft.errs)
	}
	if got, _ := read(t, filepath.Join(d, "img.png.got")); got != "abXdeX" {
		t.Errorf(".got holds %q", got)
	}

	// -update leaves a golden file that matches within the tolerance
	// alone and rewrites one that does not.
	*update = true
	CheckWith(&ft, "img.png", []byte("abcdeY"), tolerant)
	if got, _ := read(t, filepath.Join(d, "img.png")); got != "abcdef" {
		t.Errorf("-update rewrote a golden file within tolerance: %q", got)
	}
	CheckWith(&ft, "img.png", []byte("ZZcdef"), tolerant)
	if got, _ := read(t, filepath.Join(d, "img.png")); got != "ZZcdef" {
		t.Errorf("-update did not rewrite a golden file out of tolerance: %q", got)
	}
}

func TestEqual(t *testing.T) {
	if err := Equal([]byte("a\nb\n"), []byte("a\nb\n")); err != nil {
		t.Errorf("equal: %v", err)
	}
	for _, c := range []struct{ got, want, line string }{
		{"a\nb\n", "a\nc\n", "line 2"},
		{"a\nb\n", "a\nb\nc\n", "line 3"},
		{"a\nb", "a\nb\n", "line 2"},
		{"", "x", "line 1"},
	} {
		err := Equal([]byte(c.got), []byte(c.want))
		if err == nil || !strings.Contains(err.Error(), "differs at "+c.line+" ") {
			t.Errorf("Equal(%q, %q) = %v, want it to name %s", c.got, c.want, err, c.line)
		}
	}
}
