package changepoint

import (
	"fmt"
	"math"
	"slices"
)

// Change is one change point: the series changed level between points
// Index-1 and Index.
type Change struct {
	Index int
	Stats
	// Threshold is the magnitude it had to exceed: the larger of
	// MinMagnitude and the floors of points Index-1 and Index.
	Threshold float64
}

// Detect finds the change points of series (see the package doc), in
// index order.
func Detect(series []float64, opt Options) ([]Change, error) {
	opt = opt.withDefaults()
	if err := opt.validate(series); err != nil {
		return nil, fmt.Errorf("changepoint: %w", err)
	}
	weak := split(series, opt.Window, firstPassP(opt.MaxP))
	return merge(series, weak, opt, true), nil
}

// firstPassP is the relaxed p-value of the split step, as Otava takes it.
func firstPassP(p float64) float64 {
	switch {
	case p < 0.05:
		return p * 10
	case p < 0.5:
		return p * 2
	}
	return p
}

// intervals are the parts of [0, n) that the sorted points cut it into.
func intervals(points []int, n int) [][2]int {
	var out [][2]int
	start := 0
	for _, p := range points {
		if p != start {
			out = append(out, [2]int{start, p})
		}
		start = p
	}
	if start != n {
		out = append(out, [2]int{start, n})
	}
	return out
}

// test is the t-test of point p against the parts around it: within the
// interval that holds it (a new point), or the two intervals it ends and
// starts (a point already taken).
func test(xs []float64, p int, parts [][2]int) Stats {
	for i, iv := range parts {
		if iv[1] == p && i+1 < len(parts) {
			return compare(xs[iv[0]:p], xs[p:parts[i+1][1]])
		}
		if iv[0] < p && p < iv[1] {
			return compare(xs[iv[0]:p], xs[p:iv[1]])
		}
	}
	panic(fmt.Sprintf("changepoint: point %d in none of %v", p, parts))
}

// divide is E-Divisive within xs: take the best candidate over every
// interval while it is significant at maxP.
func divide(xs []float64, maxP float64) []int {
	var points []int
	for {
		parts := intervals(points, len(xs))
		best := candidate{index: -1, qhat: math.Inf(-1)}
		for _, iv := range parts {
			if iv[1]-iv[0] < 2 {
				continue
			}
			if c := bestSplit(xs, iv[0], iv[1]); c.qhat > best.qhat {
				best = c
			}
		}
		if best.index < 0 {
			return points
		}
		if s := test(xs, best.index, parts); !(s.P <= maxP) {
			return points
		}
		points = append(points, best.index)
		slices.Sort(points)
	}
}

// split runs divide over windows half a window apart and returns the
// union of their points, sorted.
func split(xs []float64, window int, maxP float64) []int {
	step := window / 2
	var points []int
	for start := 0; start < len(xs); {
		end := min(start+window, len(xs))
		found := divide(xs[start:end], maxP)
		last := 0
		for _, p := range found {
			p += start
			if !slices.Contains(points, p) {
				points = append(points, p)
			}
			last = p
		}
		start = max(last, start+step)
	}
	slices.Sort(points)
	return points
}

// merge removes the weakest point until every one left is significant at
// opt.MaxP and larger than its threshold, in two passes. The first is
// Otava's, point for point: after a removal it tests again the point
// right of the removed one and the one after that, and leaves the left
// neighbour's statistics as they were, though its right side grew. The
// second tests every point left over the intervals as they now stand and
// goes on removing, testing both neighbours of each removal: what it
// reports about a change (its p-value, its magnitude against the floor)
// always compares the two sides the change separates.
//
// settle false stops after the first pass: Otava's answer, which the
// tests hold against Otava's own.
func merge(xs []float64, points []int, opt Options, settle bool) []Change {
	threshold := func(p int) float64 {
		t := opt.MinMagnitude
		if opt.Floors != nil {
			t = max(t, opt.Floors[p-1], opt.Floors[p])
		}
		return t
	}
	cs := make([]Change, len(points))
	for i, p := range points {
		cs[i] = Change{Index: p, Threshold: threshold(p)}
	}
	retest(xs, cs, nil)
	cs = removeWeakest(xs, cs, opt.MaxP, func(w int) []int { return []int{w, w + 1} })
	if !settle {
		return cs
	}
	retest(xs, cs, nil)
	return removeWeakest(xs, cs, opt.MaxP, func(w int) []int { return []int{w - 1, w} })
}

// retest computes the statistics of cs[i] for each i of which (all when
// which is nil) over the intervals cs cut the series into.
func retest(xs []float64, cs []Change, which []int) {
	at := make([]int, len(cs))
	for i, c := range cs {
		at[i] = c.Index
	}
	parts := intervals(at, len(xs))
	if which == nil {
		for i := range cs {
			which = append(which, i)
		}
	}
	for _, i := range which {
		if i >= 0 && i < len(cs) {
			cs[i].Stats = test(xs, cs[i].Index, parts)
		}
	}
}

// removeWeakest is the merge loop: while a point is not significant, or
// the smallest one passes no threshold, remove the weakest and retest the
// points neighbours names (by their index after the removal).
func removeWeakest(xs []float64, cs []Change, maxP float64, neighbours func(removed int) []int) []Change {
	for len(cs) > 0 {
		weakest := 0
		for i, c := range cs {
			if pGreater(c.P, cs[weakest].P) {
				weakest = i
			}
		}
		if cs[weakest].P < maxP {
			weakest = 0
			for i, c := range cs {
				if c.Magnitude()-c.Threshold < cs[weakest].Magnitude()-cs[weakest].Threshold {
					weakest = i
				}
			}
			if cs[weakest].Magnitude() > cs[weakest].Threshold {
				return cs
			}
		}
		cs = slices.Delete(cs, weakest, weakest+1)
		retest(xs, cs, neighbours(weakest))
	}
	return cs
}

// pGreater orders p-values for the merge: NaN (no answer) above any
// number, as the weakest.
func pGreater(a, b float64) bool {
	if math.IsNaN(b) {
		return false
	}
	return math.IsNaN(a) || a > b
}
