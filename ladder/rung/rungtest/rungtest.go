// Package rungtest is the one way the rung's tests and the JVM
// references' run a cell: rung.Run with a fixed Build, and what it printed
// parsed as the child's result (results.ParseBench), as the ladder reads
// it. It is test infrastructure, in the shape of clusters/clusterstest:
// helpers take a testing.TB, call t.Helper, and fail the test themselves
// only when the output cannot be read at all; every assertion about the
// cell stays with the test.
package rungtest

import (
	"bytes"
	"context"
	"testing"

	"github.com/fastpathlab/fplab/ladder/rung"
	"github.com/fastpathlab/fplab/ladder/rungargs"
	"github.com/fastpathlab/fplab/results"
)

// Build is the build every test cell runs as: its commit is the result's
// commit line.
var Build = rung.Build{Commit: "test"}

// Result is what one cell printed: its output and, when Run succeeded, that
// output parsed (the cell name, iterations, figures and file-config lines
// of its one result line).
type Result struct {
	Out string // everything Run wrote
	results.Bench
}

// Units maps every unit of the result line to its value.
func (r Result) Units() map[string]float64 {
	m := make(map[string]float64, len(r.Metrics))
	for _, x := range r.Metrics {
		m[x.Unit] = x.Value
	}
	return m
}

// Has reports whether the result line has a figure in unit.
func (r Result) Has(unit string) bool {
	_, ok := r.Units()[unit]
	return ok
}

// Run runs c with Build and returns what it printed and Run's error. A cell
// that passed but whose output is not a result line fails the test (with
// the output); a failed cell's Result holds only Out, which a refused cell
// must leave empty.
func Run(t testing.TB, c rungargs.Cell) (Result, error) {
	t.Helper()
	var out bytes.Buffer
	err := rung.Run(context.Background(), c, Build, &out)
	r := Result{Out: out.String()}
	if err != nil {
		return r, err
	}
	if r.Bench, err = results.ParseBench(out.Bytes()); err != nil {
		t.Fatalf("%s: %v\n%s", c.Name(), err, r.Out)
	}
	return r, nil
}

// MustRun is Run for a cell that must pass: Run's error fails the test.
func MustRun(t testing.TB, c rungargs.Cell) Result {
	t.Helper()
	r, err := Run(t, c)
	if err != nil {
		t.Fatalf("%s: %v", c.Name(), err)
	}
	return r
}
