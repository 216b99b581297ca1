package source

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/fastpathlab/fplab/source/consume"
)

// A live read (Config.Live) is a bounded read with no stop: every
// partition's stop is unbounded (math.MaxInt64), so no position reaches it,
// no partition is ever finished, done is never true and Next never returns
// io.EOF. What replaces "the range ended" as the reason to hand over a
// batch that is not full is the linger: the time since the batch's first
// row. A bounded read runs none of this: its assembler's linger is zero,
// its linger clock is never started, and its hot loops read no clock.

// unbounded is a live partition's stop: no position reaches it.
const unbounded = math.MaxInt64

// validateLive checks Live and Linger against the rest of the Config.
func (c *Config) validateLive() error {
	switch {
	case c.Linger < 0:
		return fmt.Errorf("linger must not be negative, got %v", c.Linger)
	case (c.Live || c.Linger != 0) && c.Path == consume.PathRowwise:
		return fmt.Errorf("path rowwise cannot read live: a row path has no linger rule; its batches are emitted only when full")
	case c.Linger > 0 && !c.Live:
		return fmt.Errorf("linger applies to live reads only")
	case c.Discovery != 0 && !c.Live:
		return fmt.Errorf("partition discovery applies to live reads only (a bounded read's range is fixed when it opens)")
	case c.Discovery != 0 && (c.Discovery < discoveryLimits.min || c.Discovery > discoveryLimits.max):
		return fmt.Errorf("discovery interval must be from %v to %v, got %v", discoveryLimits.min, discoveryLimits.max, c.Discovery)
	case !c.Live:
		return nil
	case c.Linger == 0:
		return fmt.Errorf("a live read needs a linger > 0: a batch that is not full would wait for rows forever")
	case c.Linger > limits.maxLinger:
		return fmt.Errorf("linger must be at most %v, got %v", limits.maxLinger, c.Linger)
	case c.Start != nil || c.Stop != nil:
		return fmt.Errorf("a live read starts at the end of the log and has no stop: start and stop offsets must not be set")
	}
	return nil
}

// liveBounds are a live read's: every partition from its high watermark
// at open (what was written before the reader opened is not read), with
// no stop.
func liveBounds(watermarks func() (lo, hi []int64, err error)) (start, stop []int64, err error) {
	_, hi, err := watermarks()
	if err != nil {
		return nil, nil, err
	}
	stop = make([]int64, len(hi))
	for p := range stop {
		stop[p] = unbounded
	}
	return append([]int64(nil), hi...), stop, nil
}

// assemblerFor is the assembler of a reader of cfg over [start, stop):
// a live one runs the linger rule.
func assemblerFor(cfg *Config, start, stop []int64) *assembler {
	a := newAssembler(cfg.Batch, start, stop)
	if cfg.Live {
		a.linger = cfg.Linger
	}
	return a
}

// live reports whether the read is live: only a live read has a linger.
func (a *assembler) live() bool { return a.linger > 0 }

// startLinger starts the current batch's linger clock at its first row,
// if it is not running yet. Callers call it only on a live read, so a
// bounded read's rows cost no clock read.
func (a *assembler) startLinger() {
	if a.first.IsZero() {
		a.first = time.Now()
	}
}

// stopLinger stops the clock of a batch left with no row (its records all
// failed to parse): the next row starts it again.
func (a *assembler) stopLinger() { a.first = time.Time{} }

// lingering reports whether the current batch's linger clock runs: a live
// read's batch holds a row (on the shallow path, a record taken and not
// built yet). It reads no clock, so the paths ask it before they do.
func (a *assembler) lingering() bool { return !a.first.IsZero() }

// lingerDue reports whether the current batch's linger has passed at now.
func (a *assembler) lingerDue(now time.Time) bool {
	return a.lingering() && now.Sub(a.first) >= a.linger
}

// lingerLeft is how long the current batch may still wait for rows at
// now: 0 once its linger has passed, the whole linger when no clock runs.
func (a *assembler) lingerLeft(now time.Time) time.Duration {
	if !a.lingering() {
		return a.linger
	}
	return max(0, a.linger-now.Sub(a.first))
}

// waitMs is how long a librdkafka poll or crossing may wait for a message,
// in ms: def, or less when the current batch's linger ends sooner (rounded
// up, so the wait does not end just before the deadline and come back for
// nothing; 0, which does not block, once it has passed). now is read only
// when lingering.
func (a *assembler) waitMs(def int, now time.Time) int {
	if !a.lingering() {
		return def
	}
	left := a.lingerLeft(now)
	return min(def, int((left+time.Millisecond-1)/time.Millisecond))
}

// liveStalled is a live read's stall: no message for timeout while a
// producer is meant to be writing; it names where every partition stands.
func (a *assembler) liveStalled(timeout time.Duration) error {
	at := make([]string, len(a.pos))
	for p := range a.pos {
		at[p] = fmt.Sprintf("p%d at %d", p, a.pos[p])
	}
	return fmt.Errorf("live: no message for %v (%s)", timeout, strings.Join(at, ", "))
}
