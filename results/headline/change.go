package headline

import (
	"fmt"
	"io"
	"strings"

	"github.com/fastpathlab/fplab/results/texttab"
)

// Change is one headline row in two runs: the same comparison and group
// computed over an old and a new run (`fplab compare --headline`). Old or
// New is nil when only one run has the row.
type Change struct {
	Old, New *Row
	// Moved is set when both rows have an interval and the two intervals
	// do not overlap: the runs disagree on the ratio by more than either
	// run's own uncertainty. Overlapping intervals are "~", as a
	// difference the two runs cannot tell apart; this is conservative
	// (two ratios can differ significantly with overlapping 95% intervals).
	Moved bool
}

// key identifies a row across runs: its comparison as written and its
// group's label.
func key(r Row) string { return r.Comparison.Text + "\x00" + joinParts(r.Label, " ") }

// Changes sets the rows of two runs' headlines side by side, in new's
// order, then old's rows new lacks.
func Changes(old, new []Row) []Change {
	byKey := map[string]*Row{}
	for i := range old {
		byKey[key(old[i])] = &old[i]
	}
	seen := map[string]bool{}
	var out []Change
	for i := range new {
		k := key(new[i])
		seen[k] = true
		c := Change{Old: byKey[k], New: &new[i]}
		c.Moved = c.Old != nil && hasInterval(*c.Old) && hasInterval(*c.New) &&
			(c.New.Ratio.Lo > c.Old.Ratio.Hi || c.New.Ratio.Hi < c.Old.Ratio.Lo)
		out = append(out, c)
	}
	for i := range old {
		if !seen[key(old[i])] {
			out = append(out, Change{Old: &old[i]})
		}
	}
	return out
}

// hasInterval reports whether r has a ratio with an interval.
func hasInterval(r Row) bool {
	return r.Verdict != Missing && r.Verdict != TooFewReps && r.Ratio.HasInterval()
}

// WriteChanges writes changes as an aligned terminal table: each run's
// ratio with its interval and verdict, and whether the ratio moved.
//
//	headline              group        old                  new                  change
//	fast/flink by format  format=json  3.42× [3.10, 3.80]   4.10× [3.90, 4.30]   moved +20%
func WriteChanges(w io.Writer, changes []Change) error {
	if len(changes) == 0 {
		return nil
	}
	t := texttab.New(texttab.AlignLeft, texttab.AlignLeft, texttab.AlignLeft, texttab.AlignLeft, texttab.AlignLeft)
	for col := 1; col < 5; col++ {
		t.SetMargin(col, "  ")
	}
	t.Row().Cells("headline", "group", "old", "new", "change")
	prev := ""
	for _, c := range changes {
		r := c.New
		if r == nil {
			r = c.Old
		}
		text := r.Comparison.Text
		if text == prev {
			text = ""
		} else {
			prev = r.Comparison.Text
		}
		t.Row().Cells(text, joinParts(r.Label, " "), side(c.Old), side(c.New), changeText(c))
	}
	if err := t.WriteText(w); err != nil {
		return err
	}
	_, err := io.WriteString(w, "moved: both runs have an interval and the two do not overlap; ~: they overlap (or a side has none)\n")
	return err
}

// side is one run's ratio, interval and verdict, or a gap.
func side(r *Row) string {
	if r == nil {
		return texttab.Gap + " (not in this run)"
	}
	if r.Verdict == Missing {
		return texttab.Gap + " (missing)"
	}
	ratio, interval, _, _ := figures(*r)
	v := "resolved"
	if r.Verdict != Resolved {
		v = "~"
	}
	return strings.Join([]string{ratio, interval, v}, " ")
}

// changeText is "moved +20%" (the new ratio over the old), "~", or what a
// side lacks.
func changeText(c Change) string {
	switch {
	case c.Old == nil:
		return "new only"
	case c.New == nil:
		return "old only"
	case c.Old.Verdict == Missing || c.New.Verdict == Missing:
		return texttab.Gap
	case c.Moved:
		return fmt.Sprintf("moved %+.0f%%", 100*(c.New.Ratio.Ratio/c.Old.Ratio.Ratio-1))
	}
	return "~"
}
