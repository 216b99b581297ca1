package rung_test

import (
	"testing"
	"time"

	"github.com/fastpathlab/fplab/cell"
	"github.com/fastpathlab/fplab/ladder/rung/rungtest"
	"github.com/fastpathlab/fplab/results"
	"github.com/fastpathlab/fplab/source/consume"
)

// TestRescaledCheckpointedCell: a checkpoint taken with From subtasks is
// restored into To on every Go path, twice (two kills), and the committed
// output is exactly the corpus. As in TestCheckpointedCellWithFailure,
// the interval is an hour: every reader takes its checkpoint at its
// planned failure, so the kills land whatever the host's speed.
func TestRescaledCheckpointedCell(t *testing.T) {
	for _, p := range consume.Paths() {
		for _, rs := range []cell.Rescale{{From: 3, To: 2}, {From: 1, To: 3}} {
			t.Run("path="+string(p)+"/rescale="+rs.String(), func(t *testing.T) {
				c := testCell(t)
				c.Path, c.Batch, c.Ckpt, c.Failures, c.CkptDir = string(p), 64, time.Hour, 2, t.TempDir()
				c.Rescale = rs
				got := rungtest.MustRun(t, c).Units()
				if got[results.UnitLostRec] != 0 || got[results.UnitDupRec] != 0 || got["failures"] != 2 {
					t.Errorf("figures %v", got)
				}
				if _, ok := got[results.UnitReplayRec]; !ok {
					t.Errorf("no replay figure in %v", got)
				}
			})
		}
	}
}
