package report

import (
	"sort"

	"github.com/fastpathlab/fplab/cell"
	"github.com/fastpathlab/fplab/results"
)

// splitAA separates the swept cells' rows from the A/A calibration rows:
// the tables, figures and knee describe the sweep, the noise floor the pair.
func splitAA(rows []results.Row) (main, aa []results.Row) {
	for _, r := range rows {
		if cell.IsAA(r.Cell) {
			aa = append(aa, r)
		} else {
			main = append(main, r)
		}
	}
	return main, aa
}

// rowCounts summarises the journal for the run table, counted as
// results.Index counts rows: a repetition resumed after a failure is one
// repetition, and its last row says whether it failed.
type rowCounts struct {
	cells, reps, failed, aa int
}

func countRows(main, aa []results.Row) rowCounts {
	x := results.NewIndex(main)
	c := rowCounts{cells: len(x.Cells()), reps: len(x.Rows()), aa: len(results.NewIndex(aa).Rows())}
	for _, cs := range x.Cells() {
		c.failed += cs.Failed
	}
	return c
}

func sortStrings(s []string) { sort.Strings(s) }
