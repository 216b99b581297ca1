package rung

import (
	"context"
	"fmt"
	"io"
	"slices"

	"github.com/fastpathlab/fplab/cell"
	"github.com/fastpathlab/fplab/ladder/rungargs"
)

// Runner measures one cell of its path and writes the cell's result to w
// (WriteResult), or returns an error and writes nothing. Run calls it once
// the claims every cell makes hold: a valid cell, an optimised build, the
// allocator the cell names in force; ctx ends at the cell's timeout.
type Runner func(ctx context.Context, c *rungargs.Cell, b Build, w io.Writer) error

// runners is the table Run looks a cell's path up in. Each path's file
// registers its Runner from init, the way franz-go's kfake registers one
// file per API (regKey in 12_heartbeat.go): a new path is one new file,
// not an edit to a dispatch switch. The Go paths register in gopaths.go,
// the ceiling in ceiling.go, the JVM references in package
// ladder/rung/jvmref, which a binary links for its side effect.
var runners = registry{}

// registry maps a cell.Path value to the Runner of its cells.
type registry map[string]Runner

// add registers run for path, refusing an unknown path, a nil Runner and
// a second registration of a path.
func (r registry) add(path string, run Runner) error {
	switch {
	case !slices.Contains(cell.Paths(), path):
		return fmt.Errorf("path %q is not a cell path (want one of %v)", path, cell.Paths())
	case run == nil:
		return fmt.Errorf("path=%s: nil Runner", path)
	case r[path] != nil:
		return fmt.Errorf("path=%s registered twice", path)
	}
	r[path] = run
	return nil
}

// lookup is the Runner of path's cells, or a one-line error when no file of
// this binary registered one.
func (r registry) lookup(path string) (Runner, error) {
	if run := r[path]; run != nil {
		return run, nil
	}
	return nil, fmt.Errorf("path=%s has no runner in this binary (the JVM references register from a blank import of ladder/rung/jvmref)", path)
}

// Register makes Run measure the cells of path (a cell.Path value) with
// run. It is meant for init functions, one per path's file; registering a
// path twice, a path cell does not know or a nil Runner panics, as a
// program that does so is wrong before it measures anything.
func Register(path string, run Runner) {
	if err := runners.add(path, run); err != nil {
		panic("rung.Register: " + err.Error())
	}
}

// Registered reports whether this binary has a Runner for path, so a
// binary's own test can prove it links every path it may be asked for.
func Registered(path string) bool { return runners[path] != nil }
