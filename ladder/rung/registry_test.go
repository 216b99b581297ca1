package rung

import (
	"context"
	"io"
	"strings"
	"testing"

	"github.com/fastpathlab/fplab/cell"
	"github.com/fastpathlab/fplab/ladder/rungargs"
)

// TestEveryPathHasARunner: in a binary that links the JVM references (this
// test binary: jvmref_link_test.go), every path a cell can name has a
// runner registered.
func TestEveryPathHasARunner(t *testing.T) {
	for _, p := range cell.Paths() {
		if _, err := runners.lookup(p); err != nil {
			t.Error(err)
		}
	}
}

func TestRegistry(t *testing.T) {
	nop := func(context.Context, *rungargs.Cell, Build, io.Writer) error { return nil }
	r := registry{}
	if err := r.add(cell.PathJava, nop); err != nil {
		t.Fatal(err)
	}
	if _, err := r.lookup(cell.PathJava); err != nil {
		t.Errorf("a registered path: %v", err)
	}
	for name, tc := range map[string]struct {
		path string
		run  Runner
		want string
	}{
		"duplicate":    {cell.PathJava, nop, "path=java registered twice"},
		"unknown path": {"jvm", nop, `path "jvm" is not a cell path`},
		"nil runner":   {cell.PathFlink, nil, "path=flink: nil Runner"},
	} {
		if err := r.add(tc.path, tc.run); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", name, err, tc.want)
		}
	}
	// A path with no entry fails with one line that names it.
	_, err := r.lookup(cell.PathFlink)
	if err == nil || !strings.HasPrefix(err.Error(), "path=flink has no runner") || strings.Contains(err.Error(), "\n") {
		t.Errorf("unregistered path: %v", err)
	}
	// Register refuses a second registration of a path by panicking.
	defer func() {
		if p := recover(); p == nil || !strings.Contains(p.(string), "path=fast registered twice") {
			t.Errorf("Register of a registered path: panic %v", p)
		}
	}()
	Register(cell.PathFast, nop)
}
