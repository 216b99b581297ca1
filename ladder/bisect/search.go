package bisect

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/fastpathlab/fplab/results"
)

// Sample is one commit's figure: the values of the cell on the unit over
// its runs' repetitions, and the largest A/A floor of those runs (0 when
// none had an A/A pair on the unit).
type Sample struct {
	Values []float64
	Floor  float64
	// Runs are the run directories measured.
	Runs []string
}

func (s *Sample) add(o Sample) {
	s.Values = append(s.Values, o.Values...)
	s.Floor = math.Max(s.Floor, o.Floor)
	s.Runs = append(s.Runs, o.Runs...)
}

// Measure runs commit once more and returns what that run measured.
type Measure func(ctx context.Context, commit string) (Sample, error)

// Options tunes Search.
type Options struct {
	// MinChange is the least relative change that counts where the runs'
	// floors are lower (default 0.01).
	MinChange float64
	// MaxRuns is how many times a commit is run before it is called
	// unresolved (default 3).
	MaxRuns int
	// Log, when set, hears of each measurement.
	Log func(format string, args ...any)
}

// Result is where a search ended.
type Result struct {
	// Resolved is set when First is the first commit like BAD.
	Resolved bool
	// Good is the last commit like GOOD and First the first like BAD; when
	// not resolved they bound the range the search narrowed to.
	Good, First string
	// Change is First's figure against Good's (median ratio - 1).
	Change float64
	// Why says why the search stopped unresolved.
	Why string
	// Samples are the figures measured, by commit.
	Samples map[string]*Sample
}

// ErrNotResolved is returned (wrapped) when a search cannot say which
// commit moved the figure; the Result still holds the narrowed range.
var ErrNotResolved = errors.New("not resolved")

// side is which end a commit's figure is like.
type side int

const (
	neither side = iota
	likeGood
	likeBad
)

// Search bisects commits (commits[0] is GOOD, the last BAD) with measure.
func Search(ctx context.Context, commits []string, measure Measure, opt Options) (Result, error) {
	if opt.MinChange == 0 {
		opt.MinChange = 0.01
	}
	if opt.MaxRuns == 0 {
		opt.MaxRuns = 3
	}
	if len(commits) < 2 {
		return Result{}, fmt.Errorf("want GOOD and BAD, got %d commits", len(commits))
	}
	logf := opt.Log
	if logf == nil {
		logf = func(string, ...any) {}
	}
	res := Result{Samples: map[string]*Sample{}}
	run := func(c string) error {
		s, err := measure(ctx, c)
		if err != nil {
			return fmt.Errorf("commit %s: %w", short(c), err)
		}
		if len(s.Values) == 0 {
			return fmt.Errorf("commit %s: the run measured nothing of the cell on the unit", short(c))
		}
		if res.Samples[c] == nil {
			res.Samples[c] = &Sample{}
		}
		res.Samples[c].add(s)
		logf("%s: %d values, median %s", short(c), len(res.Samples[c].Values), fmtMedian(res.Samples[c].Values))
		return nil
	}
	lo, hi := 0, len(commits)-1
	good, bad := commits[lo], commits[hi]
	res.Good, res.First = good, bad
	// The ends must differ before anything between them can be told apart.
	for n := 1; ; n++ {
		for _, c := range []string{good, bad} {
			if err := run(c); err != nil {
				return res, err
			}
		}
		if differ(res.Samples[good], res.Samples[bad], opt.MinChange) {
			break
		}
		if n == opt.MaxRuns {
			res.Why = fmt.Sprintf("GOOD %s and BAD %s do not differ beyond their floor after %d runs each", short(good), short(bad), n)
			return res, fmt.Errorf("%w: %s", ErrNotResolved, res.Why)
		}
	}
	for hi-lo > 1 {
		mid := lo + (hi-lo)/2
		c := commits[mid]
		s := neither
		for n := 1; s == neither; n++ {
			if err := run(c); err != nil {
				return res, err
			}
			s = classify(res.Samples[c], res.Samples[commits[lo]], res.Samples[commits[hi]], opt.MinChange)
			if s == neither && n == opt.MaxRuns {
				res.Good, res.First = commits[lo], commits[hi]
				res.Why = fmt.Sprintf("commit %s is like neither %s nor %s after %d runs", short(c), short(commits[lo]), short(commits[hi]), n)
				return res, fmt.Errorf("%w: %s", ErrNotResolved, res.Why)
			}
		}
		if s == likeGood {
			lo = mid
		} else {
			hi = mid
		}
		logf("%s is like %s", short(c), map[side]string{likeGood: "GOOD", likeBad: "BAD"}[s])
	}
	res.Resolved, res.Good, res.First = true, commits[lo], commits[hi]
	res.Change = median(res.Samples[res.First].Values)/median(res.Samples[res.Good].Values) - 1
	return res, nil
}

// differ reports whether b's figure differs from a's significantly and by
// more than the floors of both and minChange.
func differ(a, b *Sample, minChange float64) bool {
	d := results.Versus(a.Values, b.Values)
	if !d.Significant || math.IsNaN(d.Ratio) {
		return false
	}
	return math.Abs(d.Ratio-1) > max(a.Floor, b.Floor, minChange)
}

// classify says which end s is like: it differs from the other end and
// not from this one.
func classify(s, good, bad *Sample, minChange float64) side {
	dg, db := differ(good, s, minChange), differ(bad, s, minChange)
	switch {
	case !dg && db:
		return likeGood
	case dg && !db:
		return likeBad
	}
	return neither
}

func median(xs []float64) float64 { return results.Summarize(xs).Center }

func fmtMedian(xs []float64) string { return fmt.Sprintf("%.4g", median(xs)) }

func short(c string) string {
	if len(c) > 12 {
		return c[:12]
	}
	return c
}
