package ladder

import (
	"slices"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/fastpathlab/fplab/cell"
	"github.com/fastpathlab/fplab/ladder/rungargs"
)

// A maxrate cell (mode: maxrate) searches for the highest rate its path
// sustains live: its one child runs live trials of live_warmup + duration
// at rising rates, doubling from max_rate.from until a trial fails or
// max_rate.to passes, then bisecting to rungargs.MaxRateResolution
// (ladder/rung's maxrate.go). A trial's rate passes when its producer holds
// it, its reader keeps up, and its lag and end-to-end p99 stay within
// max_rate.p99. The cell is a live cell in every other respect
// (cell.Cell.Live): same paths, clean topic, linger, warm-up and window,
// no checkpoints, no broker kill. What the spec says about the search is
// checked here, before anything starts; rungargs' validateLive is the
// child's own check, which every cell the ladder builds passes.
const (
	// minMaxRateP99 and maxMaxRateP99 bound the search's latency budget
	// (checkMaxRateSpec's refusal spells them 1ms..1h).
	// Below a millisecond no read through a broker keeps its p99 (the
	// librdkafka paths already wait for records in whole milliseconds);
	// past an hour the budget bounds nothing a trial of at most
	// clusters.MaxPacedSpan could show, so it is a typo, not a budget.
	minMaxRateP99 = time.Millisecond
	maxMaxRateP99 = time.Hour
	// maxRateExample is the max_rate a refusal shows as an example.
	maxRateExample = "{p99: 100ms, from: 10000, to: 2000000}"
)

// MaxRateSpec is the search of a spec's maxrate cells (the max_rate
// field): the rates it searches, in records/s, and the latency budget a
// rate must keep to pass. It is stored in the run manifest with the spec.
type MaxRateSpec struct {
	// P99 is the budget of a trial's end-to-end p99 latency and of its
	// largest lag (lag-max-ms).
	P99 time.Duration `json:"p99_ns"`
	// From is the rate the search starts doubling from; a search whose
	// From is not sustained fails the cell.
	From int `json:"from"`
	// To is the highest rate the search tries: its largest trial writes
	// LiveRecords(To, live_warmup + duration) records, which the cell's
	// memory and disk estimates and its child's records count.
	To int `json:"to"`
}

// hasMaxRate reports whether the spec makes maxrate cells (mode lists
// maxrate).
func (s *Spec) hasMaxRate() bool { return slices.Contains(s.Axis(cell.Mode), cell.ModeMaxRate) }

// maxRateKeys are the keys of the max_rate mapping, in the order a
// missing one is reported.
var maxRateKeys = []string{"p99", "from", "to"}

// maxRateSpec parses the max_rate mapping: every key of maxRateKeys, once,
// p99 a positive duration, from and to positive integers. Their bounds are
// checkMaxRateSpec's, which a stored spec meets too; each key's line is
// recorded (field max_rate.<key>) so that its refusal names it.
func (p *specParser) maxRateSpec(f string, v *yaml.Node) (*MaxRateSpec, error) {
	if v.Kind != yaml.MappingNode {
		return nil, p.errAt(v, f, "want a mapping like %s, got %s", maxRateExample, got(v))
	}
	m := &MaxRateSpec{}
	seen := map[string]bool{}
	for i := 0; i+1 < len(v.Content); i += 2 {
		k, val := v.Content[i], v.Content[i+1]
		field := f + "." + k.Value
		p.lines[field] = k.Line
		seen[k.Value] = true
		var err error
		switch k.Value {
		case "p99":
			m.P99, err = p.duration(field, val, false)
		case "from":
			m.From, err = p.positive(field, val)
		case "to":
			m.To, err = p.positive(field, val)
		default:
			err = p.errAt(k, f, "unknown key %q (want p99, from, to)", k.Value)
		}
		if err != nil {
			return nil, err
		}
	}
	for _, k := range maxRateKeys {
		if !seen[k] {
			return nil, p.errAt(v, f+"."+k, "missing (max_rate needs p99, from and to, e.g. %s)", maxRateExample)
		}
	}
	return m, nil
}

// maxRateBudget is the longest a maxrate cell's search may take, which the
// spec's timeout must exceed: rungargs.MaxRateTrials trials, each counted
// as the largest (at max_rate.to): its producer's lead, the time its reader
// may take to hand over the last record (rungargs.TrialReadBy) and
// liveStartMargin for its topic, producer and reader to start and its
// topic to be verified and deleted. It returns the estimate with the
// trial count and one trial's share.
func (s *Spec) maxRateBudget() (total time.Duration, trials int, trial time.Duration) {
	m := s.MaxRate
	trials = rungargs.MaxRateTrials(m.From, m.To)
	trial = rungargs.ProducerLead(s.liveRecords(m.To)) + rungargs.TrialReadBy(s.LiveWarmup, s.Duration) + liveStartMargin
	return time.Duration(trials) * trial, trials, trial
}

// checkMaxRateSpec holds the max_rate setting to its bounds: a spec has it
// exactly when mode lists maxrate; from is at least 1 and writes a record
// over live_warmup + duration, to is above from and at most maxRate, and
// its trial's records fit the producer and the broker (maxRecords, and
// maxSizedBytes for scaled records); p99 is within minMaxRateP99 and
// maxMaxRateP99; and the timeout exceeds the whole search's budget
// (maxRateBudget), since one child runs every trial. It runs after
// checkLiveSpec, which has checked the window.
func checkMaxRateSpec(s *Spec) error {
	m := s.MaxRate
	switch {
	case !s.hasMaxRate() && m != nil:
		return fieldErrorf("max_rate", "max_rate is for maxrate cells; add maxrate to mode")
	case !s.hasMaxRate():
		return nil
	case m == nil:
		return fieldErrorf("max_rate", "missing (a maxrate spec needs max_rate: %s)", maxRateExample)
	case m.From < 1:
		return fieldErrorf("max_rate.from", "%d is not positive", m.From)
	case m.To <= m.From:
		return fieldErrorf("max_rate.to", "%d is not above max_rate.from (%d): the search needs a range to double and bisect in", m.To, m.From)
	case m.To > maxRate:
		return fieldErrorf("max_rate.to", "%d is over the bound of %d (a rate no host could produce, clusters.MaxPacedRate)", m.To, maxRate)
	case m.P99 < minMaxRateP99 || m.P99 > maxMaxRateP99:
		return fieldErrorf("max_rate.p99", "%v is out of 1ms..1h (under a millisecond no read through a broker keeps it; past an hour it bounds nothing a trial shows)", m.P99)
	}
	span := s.LiveWarmup + s.Duration
	if n := s.liveRecords(m.From); n < 1 {
		return fieldErrorf("max_rate.from", "%d records/s over live_warmup + duration (%v) writes no record", m.From, span)
	}
	if n := s.liveRecords(m.To); n > maxRecords {
		return fieldErrorf("max_rate.to", "%d records/s over live_warmup + duration (%v) is %d records, over the bound of %d (the largest trial's producer and an embedded broker hold them all in memory, ladder/limits.go)", m.To, span, n, maxRecords)
	}
	if err := checkLiveScale(s, m.To, "a maxrate cell's largest trial, at rate %d over %v", "max_rate.to"); err != nil {
		return err
	}
	if total, trials, trial := s.maxRateBudget(); s.Timeout <= total {
		return fieldErrorf("timeout", "%v does not exceed the maxrate search's estimate of %v: up to %d trials (from %d to %d records/s) of %v each (the producer's lead of %v at rate %d, the trial's read-by of %v, %v of start-up margin); give more than %v",
			s.Timeout, total, trials, m.From, m.To, trial, rungargs.ProducerLead(s.liveRecords(m.To)), m.To, rungargs.TrialReadBy(s.LiveWarmup, s.Duration), liveStartMargin, total)
	}
	return nil
}

// maxRateTrials is how many trials live cell c's child runs at most: a
// maxrate cell's search's (rungargs.MaxRateTrials), 1 for a live cell.
func (s *Spec) maxRateTrials(c cell.Cell) int {
	if !c.MaxRate() || s.MaxRate == nil {
		return 1
	}
	return rungargs.MaxRateTrials(s.MaxRate.From, s.MaxRate.To)
}

// maxRateArgs gives rc, the child of a maxrate cell, its search; other
// cells are left alone.
func (s *Spec) maxRateArgs(rc *rungargs.Cell) {
	if !rc.MaxRate() || s.MaxRate == nil {
		return
	}
	rc.MaxRateFrom, rc.MaxRateTo, rc.MaxRateP99 = s.MaxRate.From, s.MaxRate.To, s.MaxRate.P99
}
