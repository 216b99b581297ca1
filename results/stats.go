package results

import (
	"math"
	"slices"

	"golang.org/x/perf/benchmath"
)

// Confidence is the confidence level of every interval this package prints.
const Confidence = 0.95

// DefaultNoisyCV is the coefficient of variation above which a cell is
// flagged as noisy.
const DefaultNoisyCV = 0.05

// Stat summarises the repetitions of one cell for one unit as benchstat
// does: the median and its distribution-free confidence interval.
type Stat struct {
	Cell string
	// Values are the measurements, ascending.
	Values []float64
	N      int
	// Center is the median; Lo and Hi bound its confidence interval
	// (±Inf when there are too few reps).
	Center, Lo, Hi float64
	// CI is the interval as benchstat prints it after "±": "3%", "∞" or "?".
	CI string
	// CV is the coefficient of variation (sample standard deviation over
	// mean); NaN with fewer than two values or a zero mean.
	CV float64
	// Noisy is set when CV exceeds the noise threshold in use.
	Noisy    bool
	Warnings []string
	// Delta compares this Stat with a baseline (the first column of a
	// table, or the old run); nil when there is none.
	Delta *Delta
}

// Delta is the comparison of a Stat with its baseline, as benchstat's
// "vs base" column: a Mann-Whitney U test (benchmath.AssumeNothing).
type Delta struct {
	// Ratio is Center / baseline Center (NaN when the baseline is 0).
	Ratio float64
	// Text is "~" when not significant, else the percent change ("+2.71%").
	Text string
	// P is the U test's p-value; Alpha the level it is judged at.
	P, Alpha    float64
	N1, N2      int
	Significant bool
	// Note is "p=0.002 n=10" as benchstat prints it.
	Note     string
	Warnings []string
}

// Summarize summarises values as the tables do (median and its interval at
// Confidence); values is left untouched. Figures use it, so an error bar
// and a table's "± x%" are one computation.
func Summarize(values []float64) *Stat {
	return newStat("", slices.Clone(values), DefaultNoisyCV)
}

// newStat summarises values (which it sorts in place).
func newStat(cell string, values []float64, noisyCV float64) *Stat {
	s := benchmath.NewSample(values, &benchmath.DefaultThresholds)
	sum := benchmath.AssumeNothing.Summary(s, Confidence)
	st := &Stat{
		Cell:   cell,
		Values: s.Values,
		N:      len(s.Values),
		Center: sum.Center,
		Lo:     sum.Lo,
		Hi:     sum.Hi,
		CI:     sum.PctRangeString(),
		CV:     cv(s.Values),
	}
	st.Noisy = !math.IsNaN(st.CV) && st.CV > noisyCV
	st.Warnings = errStrings(s.Warnings, sum.Warnings)
	return st
}

// compareStats fills cur.Delta against base.
func compareStats(base, cur *Stat) {
	sb := benchmath.NewSample(slices.Clone(base.Values), &benchmath.DefaultThresholds)
	sc := benchmath.NewSample(slices.Clone(cur.Values), &benchmath.DefaultThresholds)
	c := benchmath.AssumeNothing.Compare(sb, sc)
	d := &Delta{
		Ratio:       math.NaN(),
		Text:        c.FormatDelta(base.Center, cur.Center),
		P:           c.P,
		Alpha:       c.Alpha,
		N1:          c.N1,
		N2:          c.N2,
		Significant: c.P <= c.Alpha,
		Note:        c.String(),
		Warnings:    errStrings(c.Warnings),
	}
	if base.Center != 0 {
		d.Ratio = cur.Center / base.Center
	}
	cur.Delta = d
}

func cv(xs []float64) float64 {
	if len(xs) < 2 {
		return math.NaN()
	}
	var sum float64
	for _, x := range xs {
		sum += x
	}
	mean := sum / float64(len(xs))
	if mean == 0 {
		return math.NaN()
	}
	var ss float64
	for _, x := range xs {
		ss += (x - mean) * (x - mean)
	}
	return math.Sqrt(ss/float64(len(xs)-1)) / math.Abs(mean)
}

func errStrings(lists ...[]error) []string {
	var out []string
	for _, l := range lists {
		for _, e := range l {
			out = append(out, e.Error())
		}
	}
	return out
}

// Versus compares cur's values with base's as the tables' "vs base"
// column does (a Mann-Whitney U test): what a bisection asks of each
// commit it measures against the two ends.
func Versus(base, cur []float64) *Delta {
	b, c := Summarize(base), Summarize(cur)
	compareStats(b, c)
	return c.Delta
}
