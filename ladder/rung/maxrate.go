package rung

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/fastpathlab/fplab/cell"
	"github.com/fastpathlab/fplab/clusters"
	"github.com/fastpathlab/fplab/ladder/rungargs"
	"github.com/fastpathlab/fplab/results"
)

// A maxrate cell (mode=maxrate) finds the highest rate its path sustains
// live, as OpenMessaging Benchmark's max-rate workloads do, by a bounded
// search over live trials (runTrial), each a fresh topic, producer and
// reader at one rate for the cell's warm-up and duration:
//
//   - doubling from MaxRateFrom until a trial fails or MaxRateTo passes,
//   - then bisecting between the highest rate that passed and the lowest
//     that failed until the gap is within rungargs.MaxRateResolution (5%)
//     of the passed one.
//
// A rate is sustained when the producer achieves 95% of it (below, the
// host cannot produce it beside the reader: the limit found is the
// producer's, and the cell says so), the reader hands over the last
// record within rungargs.TrialReadBy of T0 (else it fell behind for
// good), the lag stays within the budget MaxRateP99 (lag-max-ms) and so
// does the end-to-end p99. A trial that loses, repeats or corrupts a
// record fails the cell, as any live cell. The rates tried, each with its
// verdict, are in the result's file-config.

// errTooSlow marks a trial whose reader did not hand over its last record
// in time: the rate failed, the cell did not.
var errTooSlow = errors.New("live: the reader fell behind")

// trialOutcome is one trial of a search: its rate and verdict, and the
// trial when it ran to the end.
type trialOutcome struct {
	rate   int
	failed string // "" for a sustained rate; else why not (producer, read-by, lag, p99)
	tr     *liveTrial
}

func (o trialOutcome) String() string {
	if o.failed == "" {
		return fmt.Sprintf("%d ok", o.rate)
	}
	return fmt.Sprintf("%d %s", o.rate, o.failed)
}

// runMaxRate runs the search and reports the highest sustained rate
// (max-rate-rec/s), with the latency and lag of its trial, whose
// histogram and lag series are kept as a live cell's.
func runMaxRate(ctx context.Context, c *rungargs.Cell, b Build, cl clusters.Cluster, w io.Writer) error {
	s := search{c: c, cl: cl}
	best, limit, err := s.run(ctx)
	if err != nil {
		return err
	}
	if err := writeLive(c, best.rate, best.tr.rec); err != nil {
		return err
	}
	// the process's peak over the whole search (rss_linux.go)
	peak, err := processPeak()
	if err != nil {
		return err
	}
	rec := best.tr.rec
	figs := []results.Metric{
		{Value: float64(best.rate), Unit: results.UnitMaxRate},
		{Value: float64(len(s.tried)), Unit: results.UnitMaxRateTrials},
		{Value: results.LatencyMs(rec.hist, 50), Unit: results.UnitE2EP50Ms},
		{Value: results.LatencyMs(rec.hist, 99), Unit: results.UnitE2EP99Ms},
		{Value: results.LatencyMs(rec.hist, 100), Unit: results.UnitE2EMaxMs},
		{Value: rec.lagMs(rec.lagMax), Unit: results.UnitLagMaxMs},
		{Value: float64(best.tr.cpu.Nanoseconds()) / float64(best.tr.stats.Records), Unit: results.UnitCPUNsPerRec},
		{Value: float64(peak) / (1 << 20), Unit: results.UnitPeakRSSMB},
	}
	figs = append(figs, best.tr.mem.metrics()...)
	tried := make([]string, len(s.tried))
	for i, o := range s.tried {
		tried[i] = o.String()
	}
	return WriteResult(w, c, b, best.tr.client, rec.measured, figs,
		[2]string{"maxrate-tried", strings.Join(tried, ", ")},
		[2]string{"maxrate-limit", limit},
		[2]string{"maxrate-budget", fmt.Sprintf("p99 and lag <= %v, producer >= %d%% of the rate, last record by T0+%v", c.MaxRateP99, producerShareNum, rungargs.TrialReadBy(c.Warmup, c.Duration))},
		[2]string{"producer", producerName})
}

// search is one maxrate cell's search.
type search struct {
	c     *rungargs.Cell
	cl    clusters.Cluster
	tried []trialOutcome
	// trial, when set, replaces the live trial (tests): it returns the
	// outcome at a rate, a sustained one with a trial
	trial func(rate int) (trialOutcome, error)
}

// run searches and returns the highest sustained rate's outcome and what
// limits the rate above it ("the search's upper bound" when MaxRateTo
// passed). A search whose lowest rate fails is an error naming why.
func (s *search) run(ctx context.Context) (best trialOutcome, limit string, err error) {
	c := s.c
	var fail trialOutcome
	for r := c.MaxRateFrom; ; r = min(2*r, c.MaxRateTo) {
		o, err := s.try(ctx, r)
		if err != nil {
			return best, "", err
		}
		if o.failed != "" {
			fail = o
			break
		}
		best = o
		if r >= c.MaxRateTo {
			return best, "the search's upper bound", nil
		}
	}
	if best.tr == nil {
		return best, "", fmt.Errorf("maxrate: the search's lowest rate, %d rec/s, is not sustained (%s)", fail.rate, fail.failed)
	}
	for float64(fail.rate-best.rate) > rungargs.MaxRateResolution*float64(best.rate) {
		o, err := s.try(ctx, (best.rate+fail.rate)/2)
		if err != nil {
			return best, "", err
		}
		if o.failed == "" {
			best = o
		} else {
			fail = o
		}
	}
	return best, fmt.Sprintf("%s at %d rec/s", fail.failed, fail.rate), nil
}

// try runs one trial at rate and judges it.
func (s *search) try(ctx context.Context, rate int) (trialOutcome, error) {
	tc := *s.c
	tc.Mode, tc.Rate = cell.ModeLive, rate
	tc.MaxRateFrom, tc.MaxRateTo, tc.MaxRateP99 = 0, 0, 0
	tc.Records = rungargs.LiveRecords(rate, tc.Warmup+tc.Duration)
	tc.HashCache = "" // a trial's corpus is its own; caching each would fill the disk
	o := trialOutcome{rate: rate}
	if s.trial != nil {
		o, err := s.trial(rate)
		if err == nil {
			s.tried = append(s.tried, o)
		}
		return o, err
	}
	t, err := newTarget(ctx, &tc)
	if err != nil {
		return o, err
	}
	defer t.close()
	tr, err := runTrial(ctx, &tc, s.cl, t, rungargs.TrialReadBy(tc.Warmup, tc.Duration))
	switch {
	case errors.Is(err, errTooSlow):
		o.failed = "read-by"
	case err != nil:
		return o, fmt.Errorf("maxrate trial at %d rec/s: %w", rate, err)
	default:
		o.tr = tr
		o.failed = judge(&tc, tr, s.c.MaxRateP99)
	}
	s.tried = append(s.tried, o)
	return o, nil
}

// judge says why a trial that ran to its end did not sustain its rate, or
// "" when it did.
func judge(c *rungargs.Cell, tr *liveTrial, budget time.Duration) string {
	budgetMs := ms(budget)
	switch {
	case checkProducer(c, tr.prod) != nil:
		return "producer"
	case tr.rec.lagMs(tr.rec.lagMax) > budgetMs:
		return "lag"
	case results.LatencyMs(tr.rec.hist, 99) > budgetMs:
		return "p99"
	}
	return ""
}
