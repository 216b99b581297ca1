package plots

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/fastpathlab/fplab/cell"
	"github.com/fastpathlab/fplab/results"
	"github.com/fastpathlab/fplab/results/headline"
)

// HeadlineFigureName is the file stem of the headline figure.
const HeadlineFigureName = "headline"

const headlineTitle = "Headline: each comparison's ratio with its 95% interval"

// logRatioSpan is the span (largest shown value over smallest) above
// which the headline figure's ratio axis is drawn on a log scale.
const logRatioSpan = 4

// HeadlineFigure draws a spec's headline rows (headline.Compute) as a
// forest plot: one row per comparison and group, top to bottom in the
// rows' order, labelled "comparison · group"; a dot at the ratio of
// medians and a bar over its interval, a line at 1 and, behind the rows
// of a unit with an A/A floor, the band 1 ± that floor. Resolved rows are
// filled, "~" rows hollow and grey, a row with too few repetitions for an
// interval a hollow dot without a bar; Missing rows are not drawn but
// named in the caption. All rows share one ratio axis (a ratio has no
// unit; each row's band is its own unit's floor), on a log scale when the
// values shown span more than logRatioSpan. Like Plan it computes nothing
// the rows hold; the figure is skipped when no row has a ratio.
func HeadlineFigure(rows []headline.Row, opt Options) Figure {
	fig := Figure{Name: HeadlineFigureName, Title: opt.title(headlineTitle)}
	if len(rows) == 0 {
		fig.Skip = "no headline rows (the spec names no comparison)"
		return fig
	}
	var (
		drawn   []RatioRow
		missing []string
		units   []headline.Floor // one per unit, in row order
		seen    = map[headline.Verdict]bool{}
	)
	for _, r := range rows {
		label := headlineLabel(r)
		if r.Verdict == headline.Missing || !(r.Ratio.Ratio > 0) || math.IsInf(r.Ratio.Ratio, 0) {
			why := r.Why
			if why == "" {
				why = "no ratio"
			}
			missing = append(missing, fmt.Sprintf("%s (%s)", label, why))
			continue
		}
		rr := RatioRow{Label: label, Ratio: r.Ratio.Ratio, Resolved: r.Verdict == headline.Resolved}
		if r.Verdict != headline.TooFewReps && r.Ratio.HasInterval() {
			rr.Lo, rr.Hi = r.Ratio.Lo, r.Ratio.Hi
		}
		if r.Floor.Known() {
			rr.Floor = r.Floor.Detectable
		}
		if !hasUnit(units, r.Floor.Unit) {
			units = append(units, r.Floor)
		}
		seen[r.Verdict] = true
		drawn = append(drawn, rr)
	}
	if len(drawn) == 0 {
		fig.Skip = "no comparison has a ratio: " + strings.Join(missing, "; ")
		return fig
	}
	logX := ratioSpan(drawn) > logRatioSpan
	xl := "ratio, numerator over denominator"
	if logX {
		xl += " (log scale)"
	}
	fig.Panels = []Panel{{Kind: RatioPanel, XLabel: xl, LogX: logX, Ratios: drawn}}
	fig.Legend = headlineLegend(seen, units)
	fig.Caption = headlineCaption(seen, units, missing)
	return fig
}

// headlineLabel is a row's label: its comparison as the spec writes it,
// then " · " and its group's parts when it has any.
func headlineLabel(r headline.Row) string {
	if len(r.Label) == 0 {
		return r.Comparison.Text
	}
	parts := make([]string, len(r.Label))
	for i, p := range r.Label {
		parts[i] = partText(p)
	}
	return r.Comparison.Text + " · " + strings.Join(parts, " ")
}

// partText is key=value, or the bare value of a part without a key.
func partText(p cell.Part) string {
	if p.Key == "" {
		return p.Value
	}
	return p.Key + "=" + p.Value
}

func hasUnit(fs []headline.Floor, unit string) bool {
	for _, f := range fs {
		if f.Unit == unit {
			return true
		}
	}
	return false
}

// headlineLegend has an entry for each kind of row drawn and, when some
// unit has a floor, for the band.
func headlineLegend(seen map[headline.Verdict]bool, units []headline.Floor) []LegendEntry {
	var l []LegendEntry
	if seen[headline.Resolved] {
		l = append(l, LegendEntry{Label: "resolved", Kind: LegendRatio})
	}
	if seen[headline.NotSignificant] || seen[headline.WithinFloor] {
		l = append(l, LegendEntry{Label: "~ (not resolved)", Kind: LegendRatioOpen})
	}
	if seen[headline.TooFewReps] {
		l = append(l, LegendEntry{Label: "~ (too few reps for an interval)", Kind: LegendNoInterval, Style: 6})
	}
	for _, f := range units {
		if f.Known() && f.Detectable > 0 {
			return append(l, LegendEntry{Label: "1 ± A/A floor", Kind: LegendFloor})
		}
	}
	return l
}

// headlineCaption says what a row's dot, bar and band are, what each
// style of row means (for the kinds drawn), each unit's floor, and which
// rows are missing.
func headlineCaption(seen map[headline.Verdict]bool, units []headline.Floor, missing []string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "A row per comparison and group, as in the table. Dot: ratio of medians, numerator over denominator (rec/s unless the comparison says \"in UNIT\"); bar: its %.0f%% interval (Moses). Line: 1, no difference",
		100*results.Confidence)
	var known, none []string
	biased := ""
	for _, f := range units {
		if f.Known() {
			known = append(known, fmt.Sprintf("%s %s", f.Unit, pct(f.Detectable)))
		} else {
			none = append(none, f.Unit)
		}
		if f.Biased && biased == "" {
			biased = f.Unit
		}
	}
	if len(known) > 0 {
		fmt.Fprintf(&b, "; band: 1 ± the A/A floor of the row's unit (%s)", strings.Join(known, ", "))
	}
	b.WriteString(".")
	if len(none) > 0 {
		fmt.Fprintf(&b, " No band for %s: no A/A pair reports it, so its rows resolve on p and the interval alone.", strings.Join(none, ", "))
	}
	if biased != "" {
		fmt.Fprintf(&b, " An A/A pair's interval for %s excludes 1: the harness is biased; find why before believing a small ratio.", biased)
	}
	if seen[headline.Resolved] {
		clear := "1"
		if len(known) > 0 {
			clear = "1 and of the band"
		}
		fmt.Fprintf(&b, " Filled: resolved (p < %g, the interval clear of %s).", headline.Alpha, clear)
	}
	var open []string
	if seen[headline.NotSignificant] {
		open = append(open, "not significant")
	}
	if seen[headline.WithinFloor] {
		open = append(open, "within the floor")
	}
	if len(open) > 0 {
		fmt.Fprintf(&b, " Hollow grey: \"~\", %s.", strings.Join(open, " or "))
	}
	if seen[headline.TooFewReps] {
		b.WriteString(" No bar: too few repetitions for an interval.")
	}
	if len(missing) > 0 {
		fmt.Fprintf(&b, " Not drawn: %s.", strings.Join(missing, "; "))
	}
	return b.String()
}

// pct prints a fraction as a percent with at most one decimal, as the
// headline's tables do: 0.061 "6.1%", 0.06 "6%".
func pct(f float64) string {
	s := strconv.FormatFloat(100*f, 'f', 1, 64)
	return strings.TrimSuffix(s, ".0") + "%"
}
