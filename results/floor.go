package results

import "math"

// Floor is a run's A/A noise floor for one unit: the most two names of
// one cell differed by in it (Noise.Detectable), so the least a
// difference must exceed to be told from the harness's noise. The
// headline holds its ratios against it, and Compare a cell's move.
type Floor struct {
	Unit string
	// Detectable is the largest Detectable of the A/A pairs with an
	// interval on Unit; 0 when Pairs is 0.
	Detectable float64
	// Pairs counts the A/A pairs with an interval on Unit; Short those
	// that report Unit with too few repetitions (or no finite ratio) for
	// one.
	Pairs, Short int
	// Biased is set when an A/A pair's interval excludes 1: the two names
	// of one cell measured differently (Noise.Biased).
	Biased bool
}

// Known reports whether the run has a floor for the unit.
func (f Floor) Known() bool { return f.Pairs > 0 }

// FloorOf is the floor of unit over a run's A/A pairs (Analysis.Noise).
func FloorOf(pairs []NoisePair, unit string) Floor {
	f := Floor{Unit: unit}
	for _, p := range pairs {
		for _, u := range p.Units {
			switch {
			case u.Unit != unit || u.Err != nil:
			case math.IsInf(u.Noise.Detectable, 0) || math.IsNaN(u.Noise.Detectable):
				f.Short++
			default:
				f.Pairs++
				f.Detectable = math.Max(f.Detectable, u.Noise.Detectable)
				f.Biased = f.Biased || u.Noise.Biased
			}
		}
	}
	return f
}

// Floors is the floor of every unit x's A/A pairs report, in the order
// the units were first printed: what a run's history entry keeps beside
// its rows (results/history), so a later change is measured against the
// noise of the runs it spans.
func (x *Index) Floors() []Floor {
	pairs := noisePairs(x)
	var out []Floor
	for _, u := range x.Units() {
		if f := FloorOf(pairs, u); f.Known() || f.Short > 0 {
			out = append(out, f)
		}
	}
	return out
}
