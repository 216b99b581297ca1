package headline

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/fastpathlab/fplab/cell"
	"github.com/fastpathlab/fplab/results"
)

// Alpha is the significance level a row's U test must pass: p < Alpha.
// It is benchstat's default (and benchmath's), so a headline resolves no
// difference a table of the same run would call "~".
const Alpha = 0.05

// Verdict is what a row's figures support.
type Verdict int

const (
	// Resolved: p < Alpha, the interval excludes 1 and lies outside
	// 1 ± the A/A floor (or, without a floor, the first two).
	Resolved Verdict = iota
	// NotSignificant ("~"): p >= Alpha or the interval includes 1.
	NotSignificant
	// WithinFloor ("~"): significant, but the interval reaches into
	// 1 ± the A/A floor, where the harness's own noise lies.
	WithinFloor
	// TooFewReps ("~"): too few repetitions for an interval at
	// results.Confidence.
	TooFewReps
	// Missing: the run has no pair to compare; Row.Why says what it lacks.
	Missing
)

// Row is one comparison in one group: a pair of cells, its ratio and its
// verdict.
type Row struct {
	Comparison Comparison
	// Label places the row within its comparison: its by values, then the
	// parts on which its comparison's pairs in that group differ (batch=
	// 1024), in name order; empty for the one row of a comparison without
	// either.
	Label []cell.Part
	// Num and Den name the cells set against each other. In a Missing row
	// one or both are "" (a side the run lacks, or one with several cells).
	Num, Den string
	// Ratio is results.Index.CompareRatio(Den, Num, Unit): Ratio.Ratio is
	// median(Num) / median(Den), Lo and Hi its interval, P the U test's;
	// NB counts Num's repetitions and NA Den's. Zero in a Missing row.
	Ratio results.RatioCI
	// Floor is the run's A/A noise floor for the unit.
	Floor   Floor
	Verdict Verdict
	// Why says what a verdict other than Resolved rests on: what the run
	// lacks, or why the row stays "~".
	Why string

	// twin is set when B changes one axis of A's cells (Sentences says
	// "its decoder=none twin").
	twin bool
}

// Floor is a run's A/A noise floor for one unit (results.Floor).
type Floor = results.Floor

// Compute makes the rows of comps over a: for each comparison, its by
// groups in value order and each group's pairs (see the package
// documentation), among the swept cells (a.Sweep: no A/A cell is a
// point of a headline), held against the A/A floor of a.Noise. What the
// run lacks is a Missing row. A comparison whose bare values name no axis
// of the run, or several, has no rows: err joins one line for each, and
// the rows of the others are returned all the same.
func Compute(a *results.Analysis, comps []Comparison) ([]Row, error) {
	axes := RunAxes(a.Sweep)
	floors := map[string]Floor{}
	var rows []Row
	var errs []error
	for _, c := range comps {
		r, err := resolve(c, axes, false)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		f, ok := floors[c.Unit]
		if !ok {
			f = results.FloorOf(a.Noise, c.Unit)
			floors[c.Unit] = f
		}
		for _, p := range r.pairs(a.Sweep.Cells()) {
			rows = append(rows, r.judge(a.Sweep, p, f))
		}
	}
	return rows, errors.Join(errs...)
}

// judge compares one pair and words its verdict.
func (r resolved) judge(x *results.Index, p pair, f Floor) Row {
	row := Row{Comparison: r.Comparison, Label: p.label, Floor: f, twin: r.twin()}
	if p.num != nil {
		row.Num = p.num.Name
	}
	if p.den != nil {
		row.Den = p.den.Name
	}
	if why := r.lack(p); why != "" {
		row.Verdict, row.Why = Missing, why
		return row
	}
	ci, err := x.CompareRatio(p.den.Name, p.num.Name, r.Unit)
	if err != nil {
		row.Verdict, row.Why = Missing, "no ratio: "+err.Error()
		return row
	}
	row.Ratio = ci
	row.Verdict, row.Why = verdict(ci, f)
	return row
}

// verdict holds a ratio against Alpha and the floor.
func verdict(ci results.RatioCI, f Floor) (Verdict, string) {
	switch {
	case !ci.HasInterval():
		return TooFewReps, fmt.Sprintf("n=%d+%d is too few for a %.0f%% interval", ci.NB, ci.NA, 100*results.Confidence)
	case ci.P >= Alpha:
		return NotSignificant, fmt.Sprintf("%s is not below %g", formatP(ci.P), Alpha)
	case ci.Lo <= 1 && ci.Hi >= 1:
		return NotSignificant, "the interval includes 1"
	case f.Known() && ci.Lo <= 1+f.Detectable && ci.Hi >= 1-f.Detectable:
		return WithinFloor, fmt.Sprintf("the interval reaches into the %s A/A floor", formatPct(f.Detectable))
	}
	return Resolved, ""
}

// lack says what a pair lacks for a ratio: a side of its group, a partner
// for its numerator cell, or a side's OK repetitions with the unit; ""
// when it has both.
func (r resolved) lack(p pair) string {
	with := r.with(p.label)
	switch {
	case p.nNum == 0 && p.nDen == 0:
		return fmt.Sprintf("no %s or %s cell%s", r.numSide(), r.denSide(), with)
	case p.nNum == 0:
		return fmt.Sprintf("no %s cell%s", r.numSide(), with)
	case p.nDen == 0:
		return fmt.Sprintf("no %s cell%s", r.denSide(), with)
	case p.den == nil:
		parts := slices.Clone(p.label)
		for _, w := range p.want {
			if !slices.ContainsFunc(parts, func(q cell.Part) bool { return q.Key == w.Key }) {
				parts = append(parts, w)
			}
		}
		return fmt.Sprintf("no %s cell%s but one with %s", r.denSide(), r.with(parts), joinParts(p.have, ", "))
	}
	for _, side := range []struct {
		name string
		c    *results.CellSamples
	}{{r.numSide(), p.num}, {r.denSide(), p.den}} {
		c := side.c
		switch {
		case c.OK == 0:
			reason := ""
			for _, row := range c.Rows {
				if row.Reason != "" {
					reason = ": " + row.Reason
					break
				}
			}
			return fmt.Sprintf("%s%s failed every rep%s", side.name, with, reason)
		case len(c.Samples[r.Unit]) == 0:
			return fmt.Sprintf("%s%s reports no %s", side.name, with, r.Unit)
		}
	}
	return ""
}

// numSide and denSide name the cells of each side: path=fast and
// path=flink, or path=fast and path=fast/decoder=none for a twin.
func (r resolved) numSide() string { return partString(r.a) }

func (r resolved) denSide() string {
	if r.twin() {
		return partString(r.a) + "/" + partString(r.b)
	}
	return partString(r.b)
}

// with is " with " and the on filters and label parts, or "".
func (r resolved) with(label []cell.Part) string {
	parts := append(slices.Clone(r.on), label...)
	if len(parts) == 0 {
		return ""
	}
	return " with " + joinParts(parts, ", ")
}

func joinParts(ps []cell.Part, sep string) string {
	s := make([]string, len(ps))
	for i, p := range ps {
		s[i] = partString(p)
	}
	return strings.Join(s, sep)
}
