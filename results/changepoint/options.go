package changepoint

import (
	"fmt"
	"math"
)

// Options tunes Detect. The zero value means Otava's defaults.
type Options struct {
	// Window is the split step's window in points (default 50, at least 2).
	Window int
	// MaxP is the p-value a change must be below to be reported (default
	// 0.001); the split step takes weak points at 10 times it (Otava's
	// first pass).
	MaxP float64
	// MinMagnitude is the least relative change reported (default 0).
	MinMagnitude float64
	// Floors, when set, holds each point's A/A floor (relative, like a
	// magnitude): a change between points i-1 and i must exceed both.
	Floors []float64
}

// limits are the bounds validate holds Options to, and why.
var limits = struct {
	minWindow int
}{
	// A window of one point has no split.
	minWindow: 2,
}

func (o Options) withDefaults() Options {
	if o.Window == 0 {
		o.Window = 50
	}
	if o.MaxP == 0 {
		o.MaxP = 0.001
	}
	return o
}

// validate checks o against series once, before any work.
func (o Options) validate(series []float64) error {
	switch {
	case o.Window < limits.minWindow:
		return fmt.Errorf("Options.Window %d: want at least %d points", o.Window, limits.minWindow)
	case !(o.MaxP > 0 && o.MaxP < 1):
		return fmt.Errorf("Options.MaxP %v: want a p-value in (0, 1)", o.MaxP)
	case !(o.MinMagnitude >= 0) || math.IsInf(o.MinMagnitude, 0):
		return fmt.Errorf("Options.MinMagnitude %v: want a finite relative change >= 0", o.MinMagnitude)
	case o.Floors != nil && len(o.Floors) != len(series):
		return fmt.Errorf("Options.Floors: %d for %d points", len(o.Floors), len(series))
	}
	for i, v := range series {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("point %d is %v: want finite values", i, v)
		}
	}
	for i, f := range o.Floors {
		if !(f >= 0) || math.IsInf(f, 0) {
			return fmt.Errorf("Options.Floors[%d] %v: want a finite floor >= 0", i, f)
		}
	}
	return nil
}
