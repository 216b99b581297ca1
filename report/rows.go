package report

import (
	"sort"

	"github.com/fastpathlab/fplab/results"
)

// rowCounts summarises the journal for the run table, counted as
// results.Index counts rows: a repetition resumed after a failure is one
// repetition, and its last row says whether it failed.
type rowCounts struct {
	cells, reps, failed, aa int
}

func countRows(a *results.Analysis) rowCounts {
	c := rowCounts{cells: len(a.Sweep.Cells()), reps: len(a.Sweep.Rows()), aa: len(a.AA.Rows())}
	for _, cs := range a.Sweep.Cells() {
		c.failed += cs.Failed
	}
	return c
}

func sortStrings(s []string) { sort.Strings(s) }
