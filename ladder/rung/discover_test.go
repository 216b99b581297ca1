package rung_test

import (
	"testing"
	"time"

	"github.com/fastpathlab/fplab/cell"
	"github.com/fastpathlab/fplab/ladder/rung/rungtest"
	"github.com/fastpathlab/fplab/results"
)

// TestDiscoverCellPerPath: on every path that reads live, a discover cell
// doubles its topic's partitions mid-read; the reader joins them, every
// record written to them is handed over and verified from offset 0, the
// producer's records still all arrive, and the added partitions' figures
// are reported in order (first p50 <= max).
func TestDiscoverCellPerPath(t *testing.T) {
	for _, p := range []string{cell.PathShallow, cell.PathFast, cell.PathFranz} {
		t.Run(p, func(t *testing.T) {
			c := liveCell(t, p)
			c.Discover = 50 * time.Millisecond
			r := rungtest.MustRun(t, c)
			got := r.Units()
			if got[results.UnitDiscoverAdded] != float64(c.Partitions) {
				t.Errorf("added %v partitions, want %d", got[results.UnitDiscoverAdded], c.Partitions)
			}
			p50, mx := got[results.UnitDiscoverFirstP50], got[results.UnitDiscoverFirstMax]
			if _, ok := got[results.UnitDiscoverWriteMs]; !ok || p50 <= 0 || p50 > mx {
				t.Errorf("discover figures %v", got)
			}
		})
	}
}
