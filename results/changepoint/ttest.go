package changepoint

import (
	"math"

	"gonum.org/v1/gonum/stat/distuv"
)

// Stats compares the two sides of a change.
type Stats struct {
	// MeanBefore, MeanAfter and their standard deviations (population, as
	// Otava computes them) describe the two sides.
	MeanBefore, MeanAfter float64
	StdBefore, StdAfter   float64
	// P is the two-sided p-value of Student's t-test (pooled variance)
	// that both sides have one mean; NaN when it has no answer (two
	// constant sides of one value).
	P float64
}

// Forward is the relative change from before to after (0.1: 10% higher).
func (s Stats) Forward() float64 { return rel(s.MeanAfter, s.MeanBefore) }

// Magnitude is the larger of the relative changes either way, so a drop
// to half and a doubling weigh the same (1.0).
func (s Stats) Magnitude() float64 {
	return math.Max(math.Abs(rel(s.MeanAfter, s.MeanBefore)), math.Abs(rel(s.MeanBefore, s.MeanAfter)))
}

func rel(to, from float64) float64 {
	if from == 0 {
		return 0
	}
	return to/from - 1
}

// compare tests left against right. Otava passes population standard
// deviations to scipy's ttest_ind_from_stats, which takes them as sample
// ones; the pooled variance here does the same, so p-values agree.
func compare(left, right []float64) Stats {
	ml, sl := meanStd(left)
	mr, sr := meanStd(right)
	s := Stats{MeanBefore: ml, MeanAfter: mr, StdBefore: sl, StdAfter: sr, P: 1}
	n1, n2 := float64(len(left)), float64(len(right))
	if n1+n2 <= 2 {
		return s
	}
	df := n1 + n2 - 2
	pooled := ((n1-1)*sl*sl + (n2-1)*sr*sr) / df
	t := (ml - mr) / math.Sqrt(pooled*(1/n1+1/n2))
	switch {
	case math.IsNaN(t):
		s.P = math.NaN()
	case math.IsInf(t, 0):
		s.P = 0
	default:
		s.P = 2 * distuv.StudentsT{Mu: 0, Sigma: 1, Nu: df}.Survival(math.Abs(t))
	}
	return s
}

func meanStd(xs []float64) (mean, std float64) {
	for _, x := range xs {
		mean += x
	}
	mean /= float64(len(xs))
	if len(xs) < 2 {
		return mean, 0
	}
	var ss float64
	for _, x := range xs {
		ss += (x - mean) * (x - mean)
	}
	return mean, math.Sqrt(ss / float64(len(xs)))
}
