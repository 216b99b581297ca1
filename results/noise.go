package results

import (
	"fmt"
	"math"
	"slices"
)

// RatioCI compares one unit between two cells, b against a: the ratio of
// medians and a distribution-free confidence interval for the b/a ratio.
// See doc.go for the definitions.
type RatioCI struct {
	CellA, CellB, Unit string
	NA, NB             int
	// Ratio is median(b) / median(a), what a table's delta would show.
	Ratio float64
	// Shift is the Hodges-Lehmann estimate of the b/a ratio: the exp of
	// the median of all pairwise log(b_j/a_i).
	Shift float64
	// Lo and Hi bound the b/a ratio at Confidence (Moses'
	// distribution-free interval, the one that matches the U test);
	// 0 and +Inf when there are too few reps for any interval.
	Lo, Hi     float64
	Confidence float64
	// P is the U test's p-value for a vs b.
	P float64
	// CVA and CVB are each side's coefficient of variation.
	CVA, CVB float64
	Warnings []string
}

// HasInterval reports whether the reps were enough for an interval.
func (r *RatioCI) HasInterval() bool { return !math.IsInf(r.Hi, 0) }

// Noise is the A/A calibration of one unit: the same cell run under two
// names (a and b).
type Noise struct {
	RatioCI
	// Detectable is the smallest relative difference these reps can tell
	// from noise: max(Hi-1, 1-Lo). +Inf without an interval.
	Detectable float64
	// Biased is set when the interval excludes 1: the two names of one
	// cell measured differently, so the harness (order, warm-up, host)
	// has a bias to find before any delta is believed.
	Biased bool
}

// maxRatioReps bounds the exact U distribution's cost (O(m*n*min(m,n))).
const maxRatioReps = 400

// NoiseFloor is NewIndex(rows).NoiseFloor(a, b, unit).
//
// Deprecated: call Index.NoiseFloor on the run's one Index; kept until
// ladder/tables.go does.
func NoiseFloor(rows []Row, a, b, unit string) (Noise, error) {
	return NewIndex(rows).NoiseFloor(a, b, unit)
}

// NoiseFloor calibrates unit on the OK rows of cells a and b (the same cell
// run under two names, e.g. cell+"/aa=a" and cell+"/aa=b").
func (x *Index) NoiseFloor(a, b, unit string) (Noise, error) {
	r, err := x.CompareRatio(a, b, unit)
	if err != nil {
		return Noise{}, fmt.Errorf("noise floor: %w", err)
	}
	n := Noise{RatioCI: r, Detectable: math.Inf(1)}
	if r.HasInterval() {
		n.Detectable = math.Max(r.Hi-1, 1-r.Lo)
		n.Biased = r.Lo > 1 || r.Hi < 1
	}
	return n, nil
}

// CompareRatio compares unit on the OK rows of cell b against cell a (for
// example a cell with checkpoints against the same cell without).
func (x *Index) CompareRatio(a, b, unit string) (RatioCI, error) {
	va, vb := x.Values(a, unit), x.Values(b, unit)
	for _, c := range []struct {
		cell string
		vals []float64
	}{{a, va}, {b, vb}} {
		if len(c.vals) == 0 {
			return RatioCI{}, fmt.Errorf("cell %s has no OK rep with unit %s", c.cell, unit)
		}
		if len(c.vals) > maxRatioReps {
			return RatioCI{}, fmt.Errorf("cell %s has %d reps, more than %d", c.cell, len(c.vals), maxRatioReps)
		}
		for _, v := range c.vals {
			if !(v > 0) || math.IsInf(v, 0) {
				return RatioCI{}, fmt.Errorf("cell %s unit %s has value %v; ratios need positive values", c.cell, unit, v)
			}
		}
	}
	sa, sb := newStat(a, va, DefaultNoisyCV), newStat(b, vb, DefaultNoisyCV)
	compareStats(sa, sb)
	r := RatioCI{CellA: a, CellB: b, Unit: unit, NA: sa.N, NB: sb.N,
		Ratio: sb.Center / sa.Center, P: sb.Delta.P, CVA: sa.CV, CVB: sb.CV}

	// All pairwise log ratios, sorted.
	diffs := make([]float64, 0, len(va)*len(vb))
	for _, x := range sa.Values {
		for _, y := range sb.Values {
			diffs = append(diffs, math.Log(y/x))
		}
	}
	slices.Sort(diffs)
	r.Shift = math.Exp(median(diffs))
	k, conf := mosesRank(len(va), len(vb), 1-Confidence)
	if k == 0 {
		r.Lo, r.Hi = 0, math.Inf(1)
		r.Warnings = append(r.Warnings, fmt.Sprintf("need more reps for a %.0f%% interval on the ratio (have %d+%d)", 100*Confidence, len(va), len(vb)))
	} else {
		r.Lo, r.Hi = math.Exp(diffs[k-1]), math.Exp(diffs[len(diffs)-k])
		r.Confidence = conf
	}
	return r, nil
}

func median(sorted []float64) float64 {
	n := len(sorted)
	if n%2 == 1 {
		return sorted[n/2]
	}
	return (sorted[n/2-1] + sorted[n/2]) / 2
}

// mosesRank returns the 1-based rank k such that [D(k), D(mn+1-k)] of the
// sorted pairwise differences is a distribution-free interval for a shift
// with confidence conf >= 1-alpha: the largest k with P(U <= k-1) <=
// alpha/2 under the Mann-Whitney null. k is 0 when no interval reaches that
// confidence.
func mosesRank(m, n int, alpha float64) (k int, conf float64) {
	counts := uCounts(m, n)
	var total float64
	for _, c := range counts {
		total += c
	}
	var cum float64
	for u := 0; u < len(counts); u++ {
		if (cum+counts[u])/total > alpha/2 {
			break
		}
		cum += counts[u]
		k = u + 1
	}
	if k == 0 {
		return 0, 0
	}
	return k, 1 - 2*cum/total
}

// uCounts returns, for u = 0..m*n, how many of the C(m+n, m) orderings of
// two samples of sizes m and n give the Mann-Whitney statistic U = u: the
// coefficients of the Gaussian binomial [m+n choose m]_q, built as the
// product over i = 1..m of (1 - q^(n+i)) / (1 - q^i).
func uCounts(m, n int) []float64 {
	if m > n {
		m, n = n, m
	}
	// Room for the intermediate product's degree, i*n + i.
	poly := make([]float64, m*n+m+1)
	poly[0] = 1
	deg := 0
	for i := 1; i <= m; i++ {
		// Multiply by (1 - q^(n+i)).
		for u := deg + n + i; u >= n+i; u-- {
			poly[u] -= poly[u-n-i]
		}
		// Divide by (1 - q^i): a running sum with stride i. The quotient
		// has degree i*n; the power series is exactly zero above it.
		deg = i * n
		for u := i; u <= deg; u++ {
			poly[u] += poly[u-i]
		}
		clear(poly[deg+1:])
	}
	return poly[:m*n+1]
}
