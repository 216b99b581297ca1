package results

import (
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/fastpathlab/fplab/results/texttab"
	"golang.org/x/perf/benchunit"
)

// fmtCV renders a coefficient of variation as a percentage ("-" for NaN
// in text; the Markdown renderer hands NaN to Notes.Gap instead).
func fmtCV(v float64) string {
	if math.IsNaN(v) {
		return "-"
	}
	return fmt.Sprintf("%.1f%%", 100*v)
}

// noisyLegend explains the "!" mark.
func noisyLegend(cv float64) string {
	return fmt.Sprintf("! noisy: CV (standard deviation / mean of the reps) > %s", strings.TrimSuffix(fmtCV(cv), ".0%")+"%")
}

// anyNoisy reports whether a cell of t is marked noisy.
func (t Table) anyNoisy() bool {
	for _, r := range t.Rows {
		for _, st := range r.Cells {
			if st != nil && st.Noisy {
				return true
			}
		}
	}
	return false
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

// The sub-columns of one column of a text table, after the row label:
// the figure and its interval, the CV, its noisy mark and footnotes, and
// after the first column the delta, its test and footnotes. filler takes
// the room a long column label or "vs base" needs.
const (
	subCenter = iota
	subCI
	subCV
	subNoisy
	subMarks
	subDelta
	subTest
	subDeltaMarks
	subFiller
	nSub
)

// WriteText renders t aligned for a fixed-width font, in benchstat's
// layout: per column the median ± its 95% confidence interval and the CV
// (with "!" above the noise threshold); after the first column the delta
// against it ("~" when not significant) and the U test's p-value. Warnings
// (too few reps, ...) become numbered footnotes. A row's figures share one
// scale (texttab.Scale).
func (t Table) WriteText(w io.Writer) error {
	var fn texttab.Footnotes
	tab := texttab.New(texttab.AlignLeft)
	trailer := 1 + nSub*len(t.Cols)
	for j := range t.Cols {
		base := 1 + j*nSub
		for sub, m := range [nSub]string{"   ", " ± ", "  ", " ", " ", "   ", " ", " ", ""} {
			tab.SetMargin(base+sub, m)
		}
		for _, sub := range []int{subCenter, subCI, subCV, subDelta} {
			tab.SetAlign(base+sub, texttab.AlignRight)
		}
	}
	tab.SetMargin(trailer, "  ")

	head, left := texttab.WithMargin(" │ "), texttab.Aligned(texttab.AlignLeft)
	tab.Row()
	for j := range t.Cols {
		tab.Col(1+j*nSub).Span(nSub, t.ColLabel(j), head, left)
	}
	tab.Col(trailer).Cell("", texttab.WithMargin(" │"))
	tab.Row().Cell(labelHeader(t))
	for j := range t.Cols {
		base := 1 + j*nSub
		tab.Col(base).Span(2, t.Unit, head, left)
		tab.Col(base+subCV).Span(3, "CV", left)
		if j > 0 {
			tab.Col(base+subDelta).Span(4, "vs base", left)
		}
	}
	tab.Col(trailer).Cell("", texttab.WithMargin(" │"))

	// Footnotes are numbered column by column, as the columns are read.
	marks := make([][][2]string, len(t.Rows))
	for i := range t.Rows {
		marks[i] = make([][2]string, len(t.Cols))
	}
	for j := range t.Cols {
		for i, r := range t.Rows {
			if st := r.Cells[j]; st != nil {
				marks[i][j][0] = fn.Refs(" ", st.Warnings...)
				if st.Delta != nil {
					marks[i][j][1] = fn.Refs(" ", st.Delta.Warnings...)
				}
			}
		}
	}
	for i, r := range t.Rows {
		tab.Row().Cell(r.Label)
		sc := rowScale(r.Cells)
		for j, st := range r.Cells {
			if st == nil {
				continue
			}
			tab.Col(1 + j*nSub)
			tab.Cells(sc.Format(st.Center), st.CI, fmtCV(st.CV), noisyMark(st), marks[i][j][0])
			if d := st.Delta; d != nil {
				tab.Cells(d.Text, "("+d.Note+")", marks[i][j][1])
			}
		}
		if r.Note != "" {
			tab.Col(trailer).Cell(r.Note)
		}
	}

	var b strings.Builder
	b.WriteString(t.Title() + "\n")
	if err := tab.WriteText(&b); err != nil {
		return fmt.Errorf("table %s: %w", t.Title(), err)
	}
	if t.anyNoisy() {
		b.WriteString(noisyLegend(t.NoisyCV) + "\n")
	}
	for _, l := range fn.Lines() {
		b.WriteString(l + "\n")
	}
	if _, err := io.WriteString(w, b.String()); err != nil {
		return fmt.Errorf("write table: %w", err)
	}
	return nil
}

func noisyMark(s *Stat) string {
	if s.Noisy {
		return "!"
	}
	return ""
}

// rowScale is the one scale of a row's figures, as benchstat scales a row.
func rowScale(cells []*Stat) benchunit.Scaler {
	var vals []float64
	for _, c := range cells {
		if c != nil {
			vals = append(vals, c.Center)
		}
	}
	return texttab.Scale(vals...)
}
