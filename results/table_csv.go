package results

import (
	"fmt"
	"io"
	"math"
	"strconv"

	"github.com/fastpathlab/fplab/results/texttab"
)

// WriteCSV renders t as CSV with one header row and full-precision values:
// the row label, then per column "<axis=value> <unit>" (median), "CI",
// "CV" (a fraction), "noisy" and "n", and after the first column "vs base"
// (benchstat's delta text) and "p".
func (t Table) WriteCSV(w io.Writer) error {
	tab := texttab.New()
	tab.Row().Cell(labelHeader(t))
	for j := range t.Cols {
		l := t.ColLabel(j)
		tab.Cells(l+" "+t.Unit, l+" CI", l+" CV", l+" noisy", l+" n")
		if j > 0 {
			tab.Cells(l+" vs base", l+" p")
		}
	}
	hasNote := false
	for _, r := range t.Rows {
		hasNote = hasNote || r.Note != ""
	}
	if hasNote {
		tab.Cell("note")
	}
	for _, r := range t.Rows {
		tab.Row().Cell(r.Label)
		for j, st := range r.Cells {
			switch {
			case st == nil && j == 0:
				tab.Cells("", "", "", "", "")
			case st == nil:
				tab.Cells("", "", "", "", "", "", "")
			default:
				tab.Cells(fmtFloat(st.Center), st.CI, fmtFrac(st.CV), strconv.FormatBool(st.Noisy), strconv.Itoa(st.N))
			}
			if st != nil && j > 0 {
				if d := st.Delta; d != nil {
					tab.Cells(d.Text, strconv.FormatFloat(d.P, 'g', 4, 64))
				} else {
					tab.Cells("", "")
				}
			}
		}
		if hasNote {
			tab.Cell(r.Note)
		}
	}
	if err := tab.WriteCSV(w); err != nil {
		return fmt.Errorf("table %s: %w", t.Title(), err)
	}
	return nil
}

func fmtFloat(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

func fmtFrac(v float64) string {
	if math.IsNaN(v) {
		return ""
	}
	return strconv.FormatFloat(v, 'g', 4, 64)
}
