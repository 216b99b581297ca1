package headline

import (
	"fmt"
	"io"
	"strings"

	"github.com/fastpathlab/fplab/results"
	"github.com/fastpathlab/fplab/results/texttab"
)

// WriteText writes rows as an aligned terminal table, a comparison's text
// on its first row only, then one line on what "resolved" means and one
// per unit on its A/A floor:
//
//	headline              group        ratio  interval      p        n      verdict
//	fast/flink by format  format=json  3.42×  [3.10, 3.80]  p=0.008  n=5+5  resolved
func WriteText(w io.Writer, rows []Row) error {
	if len(rows) == 0 {
		return nil
	}
	t := texttab.New(texttab.AlignLeft, texttab.AlignLeft, texttab.AlignRight, texttab.AlignLeft,
		texttab.AlignLeft, texttab.AlignLeft, texttab.AlignLeft)
	for col := 1; col < 7; col++ {
		t.SetMargin(col, "  ")
	}
	t.Row().Cells("headline", "group", "ratio", "interval", "p", "n", "verdict")
	for i, r := range rows {
		ratio, interval, p, n := figures(r)
		t.Row().Cells(firstOf(rows, i), joinParts(r.Label, " "), ratio, interval, p, n, verdictText(r))
	}
	if err := t.WriteText(w); err != nil {
		return err
	}
	_, err := io.WriteString(w, strings.Join(legend(rows), "\n")+"\n")
	return err
}

// WriteMarkdown writes rows as one compact Markdown table of six columns
// (the ratio and its interval share one), then the legend lines.
func WriteMarkdown(w io.Writer, rows []Row) error {
	if len(rows) == 0 {
		return nil
	}
	t := texttab.New(texttab.AlignLeft, texttab.AlignLeft, texttab.AlignRight, texttab.AlignRight,
		texttab.AlignRight, texttab.AlignLeft)
	t.Row().Cells("headline", "group", "ratio [interval]", "p", "n", "verdict")
	for i, r := range rows {
		ratio, interval, p, n := figures(r)
		t.Row().Cells(texttab.Escape(firstOf(rows, i)), texttab.Escape(joinParts(r.Label, " ")),
			strings.TrimSpace(ratio+" "+interval), texttab.Escape(p), n, texttab.Escape(verdictText(r)))
	}
	if err := t.WriteMarkdown(w); err != nil {
		return err
	}
	var b strings.Builder
	b.WriteString("\n")
	for _, l := range legend(rows) {
		b.WriteString(texttab.Escape(l) + "  \n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// figures are a row's printed ratio, interval, p and n ("—" for a
// Missing row's ratio, nothing else).
func figures(r Row) (ratio, interval, p, n string) {
	switch r.Verdict {
	case Missing:
		return texttab.Gap, "", "", ""
	case TooFewReps:
		return formatRatio(r.Ratio.Ratio), texttab.Gap, formatP(r.Ratio.P), formatN(r)
	}
	return formatRatio(r.Ratio.Ratio), formatInterval(r.Ratio.Lo, r.Ratio.Hi), formatP(r.Ratio.P), formatN(r)
}

// firstOf is row i's comparison text if it is the first row of its
// comparison, else "".
func firstOf(rows []Row, i int) string {
	if i > 0 && rows[i-1].Comparison.Text == rows[i].Comparison.Text {
		return ""
	}
	return rows[i].Comparison.Text
}

// legend says what "resolved" means and, per unit, what the floor is.
func legend(rows []Row) []string {
	lines := []string{fmt.Sprintf("resolved: p under %g, and the %.0f%% interval of the ratio (numerator over denominator) excludes 1 and 1 ± the A/A floor",
		Alpha, 100*results.Confidence)}
	seen := map[string]bool{}
	for _, r := range rows {
		if !seen[r.Floor.Unit] {
			seen[r.Floor.Unit] = true
			lines = append(lines, floorText(r.Floor))
		}
	}
	return lines
}
