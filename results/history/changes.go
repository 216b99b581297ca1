package history

import (
	"context"
	"fmt"

	"github.com/fastpathlab/fplab/results"
	"github.com/fastpathlab/fplab/results/changepoint"
)

// Change is a change point of one (cell, unit, host) series: the figure
// moved between the runs Before and After (the commit range
// Before.Run.Commit..After.Run.Commit).
type Change struct {
	Cell, Unit    string
	Before, After Point
	changepoint.Stats
	// Threshold is what the change had to exceed: the larger A/A floor of
	// the runs either side.
	Threshold float64
}

// Worse reports whether the change made the figure worse, by the unit's
// direction (results.Better); a unit without one is never worse.
func (c Change) Worse() bool {
	switch results.Better(c.Unit) {
	case results.HigherIsBetter:
		return c.MeanAfter < c.MeanBefore
	case results.LowerIsBetter:
		return c.MeanAfter > c.MeanBefore
	}
	return false
}

// Changes finds the change points of one series (Store.Series), each
// point the median of its run's repetitions and each change held to the
// A/A floors of the runs either side of it (changepoint.Detect).
func (s *Store) Changes(ctx context.Context, cell, unit, hostKey string, opt changepoint.Options) ([]Change, error) {
	ps, err := s.Series(ctx, cell, unit, hostKey)
	if err != nil {
		return nil, err
	}
	return SeriesChanges(Series{Cell: cell, Unit: unit, Points: ps}, opt)
}

// SeriesChanges finds the change points of one series read already.
func SeriesChanges(sr Series, opt changepoint.Options) ([]Change, error) {
	cell, unit, ps := sr.Cell, sr.Unit, sr.Points
	xs := make([]float64, len(ps))
	opt.Floors = make([]float64, len(ps))
	for i, p := range ps {
		xs[i] = results.Summarize(p.Values).Center
		opt.Floors[i] = p.Floor.Detectable // 0 for a run without an A/A pair on unit
	}
	cps, err := changepoint.Detect(xs, opt)
	if err != nil {
		return nil, fmt.Errorf("%s on %s: %w", cell, unit, err)
	}
	out := make([]Change, len(cps))
	for i, c := range cps {
		out[i] = Change{Cell: cell, Unit: unit, Before: ps[c.Index-1], After: ps[c.Index], Stats: c.Stats, Threshold: c.Threshold}
	}
	return out, nil
}

// AllChanges is Changes over every (cell, unit) measured on the host, in
// cell and unit order: what an index of the latest changes is made of.
func (s *Store) AllChanges(ctx context.Context, hostKey string, opt changepoint.Options) ([]Change, error) {
	all, err := s.AllSeries(ctx, hostKey)
	if err != nil {
		return nil, err
	}
	var out []Change
	for _, sr := range all {
		cs, err := SeriesChanges(sr, opt)
		if err != nil {
			return nil, err
		}
		out = append(out, cs...)
	}
	return out, nil
}
