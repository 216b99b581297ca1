package results

import (
	"fmt"
	"io"
	"math"
	"strings"

	"golang.org/x/perf/benchunit"
)

// rowScaler picks one SI scale for the centers of a row, as benchstat does.
func rowScaler(cells []*Stat) benchunit.Scaler {
	var vals []float64
	for _, c := range cells {
		if c != nil {
			vals = append(vals, c.Center)
		}
	}
	// Decimal for every unit: the units are the children's own (MB/s,
	// peak-RSS-MB), already scaled, so binary prefixes would mislead.
	return benchunit.CommonScale(vals, benchunit.Decimal)
}

// fmtCV renders a coefficient of variation as a percentage.
func fmtCV(v float64) string {
	if math.IsNaN(v) {
		return "-"
	}
	return fmt.Sprintf("%.1f%%", 100*v)
}

func noisyMark(s *Stat) string {
	if s.Noisy {
		return "!"
	}
	return ""
}

// noisyLegend explains the "!" mark.
func noisyLegend(cv float64) string {
	return fmt.Sprintf("! noisy: CV (standard deviation / mean of the reps) > %s", strings.TrimSuffix(fmtCV(cv), ".0%")+"%")
}

// WriteText renders t aligned for a fixed-width font, in benchstat's
// layout: per column the median ± its 95% confidence interval and the CV
// (with "!" above the noise threshold); after the first column the delta
// against it ("~" when not significant) and the U test's p-value. Warnings
// (too few reps, ...) become numbered footnotes.
func (t Table) WriteText(w io.Writer) error {
	var fn footnotes
	anyNoisy := false
	subs := []sub{
		{right: true},                // center
		{right: true, margin: " ± "}, // ci
		{right: true, margin: "  "},  // cv
		{right: false, margin: " "},  // noisy mark
		{right: false, margin: " "},  // footnotes
		{right: true, margin: "   "}, // delta
		{right: false, margin: " "},  // (p=... n=...)
		{right: false, margin: " "},  // footnotes
	}
	const cvSub, deltaSub = 2, 5
	scalers := make([]benchunit.Scaler, len(t.Rows))
	for i, r := range t.Rows {
		scalers[i] = rowScaler(r.Cells)
	}
	groups := make([][]string, len(t.Cols))
	offs := make([][]int, len(t.Cols))
	widths := make([]int, len(t.Cols))
	for j := range t.Cols {
		cells := make([][]string, 0, len(t.Rows)+1)
		// A header row sized like the labels keeps the block wide enough
		// for the second header line.
		cells = append(cells, []string{"", "", "", "", "", "", "", ""})
		for i, r := range t.Rows {
			c := make([]string, len(subs))
			if st := r.Cells[j]; st != nil {
				anyNoisy = anyNoisy || st.Noisy
				c[0] = scalers[i].Format(st.Center)
				c[1] = st.CI
				c[2] = fmtCV(st.CV)
				c[3] = noisyMark(st)
				c[4] = fn.mark(st.Warnings)
				if d := st.Delta; d != nil {
					c[5] = d.Text
					c[6] = "(" + d.Note + ")"
					c[7] = fn.mark(d.Warnings)
				}
			}
			cells = append(cells, c)
		}
		lines, off, width := block(cells, subs)
		head2 := []string{t.Unit, "CV"}
		at := []int{0, off[cvSub]}
		if j > 0 {
			head2 = append(head2, "vs base")
			at = append(at, off[deltaSub])
		}
		width = max(width, textWidth(t.ColLabel(j)), at[len(at)-1]+textWidth(head2[len(head2)-1]))
		lines[0] = place(width, at, head2)
		groups[j], offs[j], widths[j] = lines, off, width
	}

	labelHead := labelHeader(t)
	labelW := textWidth(labelHead)
	for _, r := range t.Rows {
		labelW = max(labelW, textWidth(r.Label))
	}
	var out []string
	out = append(out, t.Title())
	h1 := pad("", labelW, false)
	h2 := pad(labelHead, labelW, false)
	for j := range t.Cols {
		h1 += " │ " + pad(t.ColLabel(j), widths[j], false)
		h2 += " │ " + pad(groups[j][0], widths[j], false)
	}
	out = append(out, h1+" │", h2+" │")
	for i, r := range t.Rows {
		line := pad(r.Label, labelW, false)
		for j := range t.Cols {
			line += "   " + pad(groups[j][i+1], widths[j], false)
		}
		if r.Note != "" {
			line += "  " + r.Note
		}
		out = append(out, strings.TrimRight(line, " "))
	}
	if anyNoisy {
		out = append(out, noisyLegend(t.NoisyCV))
	}
	out = append(out, fn.lines()...)
	for _, l := range out {
		if _, err := io.WriteString(w, l+"\n"); err != nil {
			return fmt.Errorf("results: write table: %v", err)
		}
	}
	return nil
}
