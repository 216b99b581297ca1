package changepoint

import "math"

// candidate is an interval's best split: the first point of its second
// part, and the statistic there.
type candidate struct {
	index int
	qhat  float64
}

// bestSplit is the split of xs[a:b] (b-a >= 2) that maximises
//
//	q̂(X, Y) = 2/(n+m) Σ|x-y| - 2m/((n+m)(n-1)) Σ_{i<k}|x_i-x_k| - 2n/((n+m)(m-1)) Σ_{j<k}|y_j-y_k|
//
// over X = xs[a:τ] (n points) and Y = xs[τ:κ] (m points), for every
// a < τ < κ <= b; a within-sum over a single point counts 0. Ties go to
// the smallest τ, then the smallest κ. Each τ grows κ one point at a time,
// keeping the cross and within sums running, so an interval costs
// O((b-a)^3) distance additions.
func bestSplit(xs []float64, a, b int) candidate {
	best := candidate{index: -1, qhat: math.Inf(-1)}
	for tau := a + 1; tau < b; tau++ {
		n := float64(tau - a)
		var withinX float64
		for i := a; i < tau; i++ {
			for k := i + 1; k < tau; k++ {
				withinX += math.Abs(xs[i] - xs[k])
			}
		}
		var cross, withinY float64
		for kappa := tau + 1; kappa <= b; kappa++ {
			y := xs[kappa-1]
			for i := a; i < tau; i++ {
				cross += math.Abs(xs[i] - y)
			}
			for j := tau; j < kappa-1; j++ {
				withinY += math.Abs(xs[j] - y)
			}
			m := float64(kappa - tau)
			q := 2 / (n + m) * cross
			if n > 1 {
				q -= 2 * m / ((n + m) * (n - 1)) * withinX
			}
			if m > 1 {
				q -= 2 * n / ((n + m) * (m - 1)) * withinY
			}
			if q > best.qhat {
				best = candidate{index: tau, qhat: q}
			}
		}
	}
	return best
}
