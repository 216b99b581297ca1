package report

import (
	"sort"
	"strings"

	"github.com/fastpathlab/fplab/results"
)

// aaKey is the cell-name part that marks the A/A calibration pair.
const aaKey = "aa"

// isAA reports whether cell is one side of an A/A calibration pair.
func isAA(cell string) bool {
	for _, p := range strings.Split(cell, "/") {
		if k, _, _ := strings.Cut(p, "="); k == aaKey {
			return true
		}
	}
	return false
}

// splitAA separates the swept cells' rows from the A/A calibration rows:
// the tables, figures and knee describe the sweep, the noise floor the pair.
func splitAA(rows []results.Row) (main, aa []results.Row) {
	for _, r := range rows {
		if isAA(r.Cell) {
			aa = append(aa, r)
		} else {
			main = append(main, r)
		}
	}
	return main, aa
}

// rowCounts summarises the journal for the run table.
type rowCounts struct {
	cells, reps, failed, aa int
}

func countRows(main, aa []results.Row) rowCounts {
	c := rowCounts{reps: len(main), aa: len(aa)}
	seen := make(map[string]bool)
	for _, r := range main {
		if !seen[r.Cell] {
			seen[r.Cell] = true
			c.cells++
		}
		if !r.OK {
			c.failed++
		}
	}
	return c
}

func sortStrings(s []string) { sort.Strings(s) }
