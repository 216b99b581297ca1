package headline

import (
	"fmt"
	"strconv"
	"strings"
)

// The one way each figure of a row is printed, shared by the table
// renderers and Sentences.

// formatNum prints a ratio with two decimals (one from 10 on, three
// significant digits below 0.1): 3.42, 0.97, 12.3, 0.0412.
func formatNum(r float64) string {
	switch {
	case r >= 9.995:
		return strconv.FormatFloat(r, 'f', 1, 64)
	case r >= 0.0995:
		return strconv.FormatFloat(r, 'f', 2, 64)
	}
	return strconv.FormatFloat(r, 'g', 3, 64)
}

// formatRatio is "3.42×".
func formatRatio(r float64) string { return formatNum(r) + "×" }

// formatInterval is "[3.10, 3.80]".
func formatInterval(lo, hi float64) string {
	return "[" + formatNum(lo) + ", " + formatNum(hi) + "]"
}

// formatP is "p=0.008", "p=0.31", "p<0.001".
func formatP(p float64) string {
	if p < 0.001 {
		return "p<0.001"
	}
	return "p=" + trimZeros(strconv.FormatFloat(p, 'f', 3, 64))
}

// formatPct prints a fraction as a percent with at most one decimal:
// 0.06 "6%", 0.0612 "6.1%".
func formatPct(f float64) string {
	return trimZeros(strconv.FormatFloat(100*f, 'f', 1, 64)) + "%"
}

// formatN is "n=5+5": the numerator's repetitions, then the denominator's.
func formatN(r Row) string { return fmt.Sprintf("n=%d+%d", r.Ratio.NB, r.Ratio.NA) }

func trimZeros(s string) string {
	if !strings.Contains(s, ".") {
		return s
	}
	return strings.TrimSuffix(strings.TrimRight(s, "0"), ".")
}

// verdictText is a row's verdict as the tables print it.
func verdictText(r Row) string {
	switch r.Verdict {
	case Resolved:
		return "resolved"
	case NotSignificant:
		return "~"
	case WithinFloor:
		return "~ (within the " + formatPct(r.Floor.Detectable) + " A/A floor)"
	case TooFewReps:
		return "~ (n too small)"
	}
	return "missing: " + r.Why
}

// floorText says what a floor is, for the line under a table.
func floorText(f Floor) string {
	var s string
	switch {
	case f.Known():
		s = fmt.Sprintf("A/A floor %s: %s (the widest of %d A/A pair%s)", f.Unit, formatPct(f.Detectable), f.Pairs, plural(f.Pairs))
	case f.Short > 0:
		s = fmt.Sprintf("A/A floor %s: none (%d A/A pair%s with too few reps for an interval); resolved on p and the interval alone", f.Unit, f.Short, plural(f.Short))
	default:
		s = fmt.Sprintf("A/A floor %s: none (no A/A pair reports it); resolved on p and the interval alone", f.Unit)
	}
	if f.Biased {
		s += "; an A/A pair's interval excludes 1: the harness is biased, find why before believing a small ratio"
	}
	return s
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
