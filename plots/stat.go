package plots

import (
	"math"
	"sort"

	"github.com/fastpathlab/fplab/results"
)

// Stat summarises one metric of one cell across its successful
// repetitions. Median, Lo and Hi are the summary the tables print
// (benchmath.AssumeNothing at results.Confidence): the median and its
// distribution-free 95% interval, so a figure's error bar and a table's
// "± x%" are the same interval. Lo and Hi are ±Inf when the repetitions are
// too few for an interval (fewer than 6 at 95%). Min and Max are the
// smallest and largest sample. N is the number of samples; N == 0 means
// "no data" and the other fields are zero.
type Stat struct {
	Median, Min, Max float64
	N                int
	Lo, Hi           float64
}

// HasInterval reports whether the repetitions were enough for a 95%
// interval.
func (s Stat) HasInterval() bool {
	return s.N > 0 && !math.IsInf(s.Lo, 0) && !math.IsInf(s.Hi, 0)
}

// summarize summarises vs (N == 0 for none) with results.Summarize, the
// tables' summary; it leaves vs untouched.
func summarize(vs []float64) Stat {
	if len(vs) == 0 {
		return Stat{}
	}
	s := results.Summarize(vs)
	return Stat{Median: s.Center, Min: s.Values[0], Max: s.Values[s.N-1], N: s.N, Lo: s.Lo, Hi: s.Hi}
}

func sortPoints(ps []Point) { sort.Slice(ps, func(i, j int) bool { return ps[i].X < ps[j].X }) }

func sortFloats(xs []float64) { sort.Float64s(xs) }
