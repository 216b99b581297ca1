package ladder

import (
	"fmt"
	"slices"
	"strconv"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/fastpathlab/fplab/cell"
	"github.com/fastpathlab/fplab/clusters"
	"github.com/fastpathlab/fplab/ladder/rungargs"
)

// A live cell (mode: live) has no corpus: its child makes a topic of its
// own, starts a producer that writes it at the cell's rate for live_warmup
// + duration, reads it while it is written, and deletes it. What a spec
// says about live cells is checked here, before anything starts, like every
// other limit (limits.go); the child's own checks are rungargs'
// validateLive, which every cell the ladder builds passes.
const (
	// maxRate is the fastest rate the lab's paced producer accepts
	// (clusters.ProducePaced); past it the producer refuses to start.
	maxRate = clusters.MaxPacedRate
	// maxLiveSpan is the longest the paced producer may plan to run
	// (clusters.MaxPacedSpan): live_warmup + duration is its span.
	maxLiveSpan = clusters.MaxPacedSpan
	// minLinger and maxLinger bound a live cell's linger. source refuses a
	// linger above 10s (source's limits.maxLinger: past it a linger is a
	// batch interval). Below a millisecond the librdkafka paths cannot
	// keep it: they wait for records in whole milliseconds, so a 500µs
	// linger would run as 0 or 1 ms; a linger must also be a whole number
	// of milliseconds for the same reason.
	minLinger = time.Millisecond
	maxLinger = 10 * time.Second
	// defaultLinger is the linger of a live spec that names none.
	// docs/results-log.md's batch x linger sweep (live.yaml) chose it: within
	// 1-2% of the cheapest CPU per record, p50 about 6 ms.
	defaultLinger = 10 * time.Millisecond
	// defaultLiveWarmup is the producer's warm-up of a live spec that names
	// none: the reader joins, the client's buffers and the broker's
	// partitions fill, and the first seconds' latencies stay out of the
	// window.
	defaultLiveWarmup = 2 * time.Second
	// liveStartMargin is what a live cell's child spends besides its
	// producer's span: making the topic, starting the producer process
	// and the reader, verifying and deleting the topic. The spec's timeout
	// must leave it.
	liveStartMargin = 10 * time.Second
)

// hasLive reports whether the spec makes mode=live cells (mode lists
// live): only they take the spec's rates.
func (s *Spec) hasLive() bool { return slices.Contains(s.Axis(cell.Mode), cell.ModeLive) }

// readsLive reports whether the spec makes cells that read a topic a
// producer writes (cell.Cell.Live): mode lists live or maxrate. Linger,
// duration and live_warmup are theirs.
func (s *Spec) readsLive() bool { return s.hasLive() || s.hasMaxRate() }

// hasBounded reports whether the spec makes bounded cells (mode absent or
// listing bounded): only they read a corpus.
func (s *Spec) hasBounded() bool { return slices.Contains(s.Axis(cell.Mode), cell.ModeBounded) }

// liveRecords is how many records a live cell of s at rate writes.
func (s *Spec) liveRecords(rate int) int {
	return rungargs.LiveRecords(rate, s.LiveWarmup+s.Duration)
}

// topRate is the fastest rate live cell c's producer writes at: a live
// cell's rate, a maxrate cell's max_rate.to (its largest trial). What c
// holds in memory and on disk while it runs is counted at this rate.
func (s *Spec) topRate(c cell.Cell) int {
	if c.MaxRate() && s.MaxRate != nil {
		return s.MaxRate.To
	}
	return c.Rate
}

// topRecords is how many records live cell c's largest producer run
// writes: the records its child is given (rungargs.Cell.Records).
func (s *Spec) topRecords(c cell.Cell) int { return s.liveRecords(s.topRate(c)) }

// liveOnlyFields are the spec fields that only live (and maxrate) cells
// use.
var liveOnlyFields = []string{cell.Rate, cell.Linger, "duration", "live_warmup"}

// notLive is the complaint about a live field in a spec without live cells.
func notLive(field string) *SpecError {
	if field == cell.Rate || field == cell.Linger {
		return fieldErrorf(field, "rate and linger are for live cells; add live to mode")
	}
	return fieldErrorf(field, "duration and live_warmup are a live cell's window; add live to mode")
}

// liveSettings refuses a live field given in a spec without live or
// maxrate cells (even at zero, live_warmup: 0s) and fills in the defaults
// of a spec with them: linger defaultLinger, live_warmup
// defaultLiveWarmup. rate and duration have no default; checkLiveSpec
// asks for them.
func (p *specParser) liveSettings(s *Spec, seen map[string]*yaml.Node) error {
	if k := seen[cell.Discover]; k != nil && !s.hasLive() {
		return p.errAt(k, cell.Discover, "discover is a live cell's (mode=live adds partitions mid-read); add live to mode")
	}
	if k := seen[cell.Discover]; k != nil {
		for _, d := range s.Discover {
			if d != 0 && (d < rungargs.MinDiscover || d > rungargs.MaxDiscover) {
				return p.errAt(k, cell.Discover, "%v is out of %v..%v (source.Config.Discovery's bounds)", d, rungargs.MinDiscover, rungargs.MaxDiscover)
			}
		}
	}
	if !s.readsLive() {
		for _, f := range liveOnlyFields {
			if k := seen[f]; k != nil {
				return p.errAt(k, f, "%s", notLive(f).Msg)
			}
		}
		return nil
	}
	if seen[cell.Linger] == nil {
		s.Linger = []time.Duration{defaultLinger}
	}
	if seen["live_warmup"] == nil {
		s.LiveWarmup = defaultLiveWarmup
	}
	return nil
}

// checkLinger refuses a linger the paths cannot keep (minLinger,
// maxLinger).
func checkLinger(d time.Duration) error {
	switch {
	case d < minLinger || d%time.Millisecond != 0:
		return fmt.Errorf("%v is not a whole number of milliseconds (the librdkafka paths wait for records in whole ms)", d)
	case d > maxLinger:
		return fmt.Errorf("%v is over the bound of %v (source's maxLinger: past it a linger is a batch interval)", d, maxLinger)
	}
	return nil
}

// checkLiveSpec holds the live settings to their bounds: a spec without
// live or maxrate cells has none of them; a spec with them has lingers in
// bounds and a window of at least its warm-up. Rates are mode=live cells'
// only: a live spec has them in bounds, a record count per rate the
// producer and the broker can hold, and a timeout that leaves the child its
// start-up margin; a spec of maxrate cells only has none (checkMaxRateSpec
// holds its search to its bounds). A spec of live or maxrate cells only
// has no corpus, so it sets neither records nor what applies to bounded
// cells only (checkpoints, reader kills).
func checkLiveSpec(s *Spec) error {
	if !s.readsLive() {
		switch {
		case len(s.Rate) > 0:
			return notLive(cell.Rate)
		case len(s.Linger) > 0:
			return notLive(cell.Linger)
		case s.Duration != 0:
			return notLive("duration")
		case s.LiveWarmup != 0:
			return notLive("live_warmup")
		}
		return nil
	}
	switch {
	case s.hasLive() && len(s.Rate) == 0:
		return fieldErrorf(cell.Rate, "missing (a live spec needs a target rate in records/s; rate has no default)")
	case !s.hasLive() && len(s.Rate) > 0:
		return fieldErrorf(cell.Rate, "rate is a live cell's; a maxrate cell searches for its rate")
	case len(s.Linger) == 0:
		return fieldErrorf(cell.Linger, "missing (a live spec needs a linger, e.g. %v)", defaultLinger)
	}
	for _, r := range s.Rate {
		if r < 1 || r > maxRate {
			return fieldErrorf(cell.Rate, "%d is out of 1..%d (a rate no host could produce, clusters.MaxPacedRate)", r, maxRate)
		}
	}
	for _, d := range s.Linger {
		if err := checkLinger(d); err != nil {
			return fieldErrorf(cell.Linger, "%s", err)
		}
	}
	span := s.LiveWarmup + s.Duration
	switch {
	case s.Duration == 0:
		return fieldErrorf("duration", "missing (a live spec needs its cells' measured window, e.g. 10s)")
	case s.Duration < 0:
		return fieldErrorf("duration", "%v is not positive", s.Duration)
	case s.LiveWarmup < 0:
		return fieldErrorf("live_warmup", "%v is negative", s.LiveWarmup)
	case s.Duration < s.LiveWarmup:
		return fieldErrorf("duration", "%v is a duration shorter than the warm-up (live_warmup: %v)", s.Duration, s.LiveWarmup)
	case span > maxLiveSpan:
		return fieldErrorf("duration", "live_warmup + duration is %v, over the bound of %v (the paced producer's longest run, clusters.MaxPacedSpan)", span, maxLiveSpan)
	}
	for _, r := range s.Rate {
		switch n := s.liveRecords(r); {
		case n < 1:
			return fieldErrorf(cell.Rate, "%d records/s over live_warmup + duration (%v) writes no record", r, span)
		case n > maxRecords:
			return fieldErrorf(cell.Rate, "%d records/s over live_warmup + duration (%v) is %d records, over the bound of %d (the producer and an embedded broker hold them all in memory, ladder/limits.go)", r, span, n, maxRecords)
		}
	}
	if s.hasLive() {
		if err := checkLiveScale(s, slices.Max(s.Rate), "a live cell at rate %d over %v", "rate"); err != nil {
			return err
		}
		if least := span + liveStartMargin; s.Timeout <= least {
			return fieldErrorf("timeout", "%v does not exceed live_warmup + duration (%v) plus %v of start-up margin (the live cell's topic, producer and reader start within it); give more than %v", s.Timeout, span, liveStartMargin, least)
		}
	}
	if s.hasBounded() {
		return nil
	}
	switch {
	case s.Records != 0:
		return fieldErrorf("records", "a spec of live cells only has no corpus (each live cell writes rate x (live_warmup + duration) records); drop records or add bounded to mode")
	case slices.ContainsFunc(s.Checkpoint, func(d time.Duration) bool { return d > 0 }):
		return fieldErrorf("checkpoint", "applies to bounded cells, and this spec has live cells only (a live cell does not checkpoint)")
	case s.Failures > 0:
		return fieldErrorf("failures", "reader kills apply to checkpointing bounded cells, and this spec has live cells only")
	}
	return nil
}

// checkLiveScale refuses scaled records (size above 100) that would make
// the largest producer run of a live or maxrate cell, at rate over
// live_warmup + duration, larger than maxSizedBytes; what names that run
// (a format of rate and span) and lower the setting to lower.
func checkLiveScale(s *Spec, rate int, what, lower string) error {
	span := s.LiveWarmup + s.Duration
	most := s.liveRecords(rate)
	for _, v := range s.Size {
		if n, _ := strconv.Atoi(v); v != cell.SizeNatural && int64(n)*int64(most) > maxSizedBytes {
			return fieldErrorf(cell.Size, "%s-byte records x %d records (%s) is over the lab's %d GiB bound on a scaled corpus (lower %s or duration)", v, most, fmt.Sprintf(what, rate, span), maxSizedBytes>>30, lower)
		}
	}
	return nil
}

// checkLiveCells refuses the live and maxrate cells no child can run
// (rungargs' validateLive refuses them too, but only once the cell is
// reached):
//   - a path that cannot read live in the cell's mode (cell.WhyNotLive says
//     why);
//   - transactions, tombstones or a parity case: the live producer writes
//     the clean topic only.
//
// Each refusal names the exclusion that drops the cell, in its own mode.
// A live cell on any cluster is fine, external included: the child makes
// and deletes its own topic there.
func checkLiveCells(cells []cell.Cell) error {
	for _, c := range cells {
		if !c.Live() {
			continue
		}
		const clean = "a live or maxrate cell writes the clean topic (no transactions, tombstones or parity case)"
		switch {
		case cell.WhyNotLive(c.Path, c.Mode) != "":
			return fieldErrorf(cell.Path, "path %s cannot read live (%s), but cell %s does; exclude it (- {path: %s, mode: %s})", c.Path, cell.WhyNotLive(c.Path, c.Mode), c.Name(), c.Path, c.Mode)
		case c.Txn:
			return fieldErrorf(cell.Txn, "%s, but cell %s has txn=%s; exclude it (- {mode: %s, txn: %s})", clean, c.Name(), cell.TxnAborts, c.Mode, cell.TxnAborts)
		case c.Nulls != 0:
			return fieldErrorf(cell.Nulls, "%s, but cell %s has nulls=%s; exclude it (- {mode: %s, nulls: \"!0\"})", clean, c.Name(), c.Value(cell.Nulls), c.Mode)
		case c.Case != "":
			return fieldErrorf(cell.Case, "%s, but cell %s has case=%s; exclude it (- {mode: %s, case: \"!none\"})", clean, c.Name(), c.Case, c.Mode)
		}
	}
	return nil
}
