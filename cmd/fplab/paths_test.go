package main

import (
	"testing"

	"github.com/fastpathlab/fplab/cell"
	"github.com/fastpathlab/fplab/ladder/rung"
)

// TestEveryPathLinked: the fplab binary has a runner for every path a
// cell can name, the JVM references' included (they register from a
// blank import in rung.go); without it their cells would fail at run time.
func TestEveryPathLinked(t *testing.T) {
	for _, p := range cell.Paths() {
		if !rung.Registered(p) {
			t.Errorf("path=%s has no runner in fplab", p)
		}
	}
}
