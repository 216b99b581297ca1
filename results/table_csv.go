package results

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// WriteCSV renders t as CSV with one header row and full-precision values:
// the row label, then per column "<axis=value> <unit>" (median), "CI",
// "CV" (a fraction), "noisy" and "n", and after the first column "vs base"
// (benchstat's delta text) and "p".
func (t Table) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	head := []string{labelHeader(t)}
	for j := range t.Cols {
		l := t.ColLabel(j)
		head = append(head, l+" "+t.Unit, l+" CI", l+" CV", l+" noisy", l+" n")
		if j > 0 {
			head = append(head, l+" vs base", l+" p")
		}
	}
	hasNote := false
	for _, r := range t.Rows {
		hasNote = hasNote || r.Note != ""
	}
	if hasNote {
		head = append(head, "note")
	}
	if err := cw.Write(head); err != nil {
		return fmt.Errorf("results: write csv: %v", err)
	}
	for _, r := range t.Rows {
		rec := []string{r.Label}
		for j, st := range r.Cells {
			if st == nil {
				rec = append(rec, "", "", "", "", "")
				if j > 0 {
					rec = append(rec, "", "")
				}
				continue
			}
			rec = append(rec, fmtFloat(st.Center), st.CI, fmtFrac(st.CV), strconv.FormatBool(st.Noisy), strconv.Itoa(st.N))
			if j > 0 {
				if d := st.Delta; d != nil {
					rec = append(rec, d.Text, strconv.FormatFloat(d.P, 'g', 4, 64))
				} else {
					rec = append(rec, "", "")
				}
			}
		}
		if hasNote {
			rec = append(rec, r.Note)
		}
		if err := cw.Write(rec); err != nil {
			return fmt.Errorf("results: write csv: %v", err)
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return fmt.Errorf("results: write csv: %v", err)
	}
	return nil
}

// labelHeader heads the row-label column: the row axes, "cell" in a
// comparison (Axis ""), "cells" in a single-row table.
func labelHeader(t Table) string {
	if len(t.RowAxes) == 0 {
		if t.Axis == "" {
			return "cell"
		}
		return "cells"
	}
	return strings.Join(t.RowAxes, "/")
}

func fmtFloat(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

func fmtFrac(v float64) string {
	if math.IsNaN(v) {
		return ""
	}
	return strconv.FormatFloat(v, 'g', 4, 64)
}
