package rung

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/fastpathlab/fplab/ladder/rungargs"
	"github.com/fastpathlab/fplab/results"
	"github.com/fastpathlab/fplab/source/consume"
)

// pauseCycle is a pause=<interval> cell's: at every tick it pauses the
// next partition in turn, or resumes the one it paused (so each pause
// lasts about an interval), between two Next calls: the cell's waker wakes
// the reader at the tick, as a Flink fetcher is woken to apply
// pauseOrResumeSplits. A woken Next may leave rows in the batch being
// built, taken before the Pause; they are handed over with it (the
// Pauser's contract), so the first batch after a Pause may hold rows of
// the paused partition (counted: pause-hold-rec, the most in one pause)
// and any later batch may not: such a row fails the cell. The records are
// verified as in any cell, so a resume that skipped or repeated one fails
// it too. It times each Pause and Resume call and, after each resume, the
// time to that partition's first row.
type pauseCycle struct {
	pz    consume.Pauser
	parts int32
	now   func() time.Time

	cur  int32 // the paused partition, -1 when none is
	next int32 // the partition to pause next

	resumed   int32 // resumed, its first row not seen yet (-1: none)
	resumedAt time.Time

	grace    bool // no batch handed over since the Pause
	held     int  // rows of the paused partition in that first batch
	heldMost int

	pauseCall, resumeCall, toFirst []time.Duration
}

func newPauseCycle(pz consume.Pauser, parts int, now func() time.Time) *pauseCycle {
	return &pauseCycle{pz: pz, parts: int32(parts), now: now, cur: -1, resumed: -1}
}

// toggle pauses the next partition, or resumes the paused one.
func (pc *pauseCycle) toggle() error {
	t0 := pc.now()
	if pc.cur < 0 {
		if err := pc.pz.Pause(pc.next); err != nil {
			return err
		}
		pc.pauseCall = append(pc.pauseCall, pc.now().Sub(t0))
		pc.cur, pc.next = pc.next, (pc.next+1)%pc.parts
		pc.grace, pc.held = true, 0
		return nil
	}
	if err := pc.pz.Resume(pc.cur); err != nil {
		return err
	}
	t1 := pc.now()
	pc.resumeCall = append(pc.resumeCall, t1.Sub(t0))
	pc.resumed, pc.resumedAt, pc.cur = pc.cur, t1, -1
	return nil
}

// check fails a batch with a row of the paused partition, and notes the
// first row of a resumed one.
func (pc *pauseCycle) check(b *consume.Batch) error {
	grace := pc.grace
	pc.grace = false
	for i, p := range b.Partitions {
		if p == pc.cur && grace {
			pc.held++
			pc.heldMost = max(pc.heldMost, pc.held)
			continue
		}
		if p == pc.cur {
			return fmt.Errorf("pause: a row of paused partition %d (offset %d) in the second batch or later after its Pause returned", p, b.Offsets[i])
		}
		if p == pc.resumed {
			pc.toFirst = append(pc.toFirst, pc.now().Sub(pc.resumedAt))
			pc.resumed = -1
		}
	}
	return nil
}

// figures are the cell's pause units; a cell that never paused and
// resumed a partition is an error.
func (pc *pauseCycle) figures(interval time.Duration) ([]results.Metric, error) {
	if len(pc.resumeCall) == 0 {
		return nil, fmt.Errorf("pause=%v: the read ended before a paused partition was resumed", interval)
	}
	out := []results.Metric{
		{Value: float64(len(pc.pauseCall)), Unit: results.UnitPauses},
		{Value: float64(pc.heldMost), Unit: results.UnitPauseHoldRec},
	}
	us := func(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e3 }
	add := func(ds []time.Duration, p99, max string, conv func(time.Duration) float64) {
		if len(ds) == 0 {
			return
		}
		ds = slices.Clone(ds)
		slices.Sort(ds)
		out = append(out,
			results.Metric{Value: conv(ds[min(len(ds)-1, int(0.99*float64(len(ds))))]), Unit: p99},
			results.Metric{Value: conv(ds[len(ds)-1]), Unit: max})
	}
	add(pc.pauseCall, results.UnitPauseP99, results.UnitPauseMax, us)
	add(pc.resumeCall, results.UnitResumeP99, results.UnitResumeMax, us)
	add(pc.toFirst, results.UnitResumeFirstP99, results.UnitResumeFirstMax, ms)
	return out, nil
}

// pausingReader is the reader a pause cell reads through: a waker at the
// pause interval whose ticks toggle the cycle, each batch it hands over
// checked by it.
type pausingReader struct {
	*waker
	pc *pauseCycle
}

func (r *pausingReader) Next(ctx context.Context) (*consume.Batch, error) {
	b, err := r.waker.Next(ctx)
	if err != nil {
		return nil, err
	}
	if err := r.pc.check(b); err != nil {
		b.Rec.Release()
		return nil, err
	}
	return b, nil
}

// figures are the wake-ups' and the cycle's.
func (r *pausingReader) figures() ([]results.Metric, error) {
	woke, err := r.waker.figures()
	if err != nil {
		return nil, err
	}
	paused, err := r.pc.figures(r.interval)
	if err != nil {
		return nil, err
	}
	return append(paused, woke...), nil
}

// figurer is what a cell reads its extra figures from: nothing for a
// plain cell (a nil *waker), a waker, a pausingReader or a discoverer.
// close stops its ticks (it may be called more than once); figures does
// too. pending reports whether the read must go on after the producer's
// last record (a discoverer's added partitions).
type figurer interface {
	close()
	figures() ([]results.Metric, error)
	pending() bool
}

// cellReader is the reader a cell reads through and its figurer: r itself
// (a nil waker), a waker (wake=<interval>) or a pausingReader
// (pause=<interval>). A reader that cannot pause is an error.
func cellReader(c *rungargs.Cell, r consume.Reader) (consume.Reader, figurer, error) {
	if c.Pause <= 0 {
		rd, w := wakeReader(c, r)
		return rd, w, nil
	}
	pz, ok := r.(consume.Pauser)
	if !ok {
		return nil, nil, fmt.Errorf("pause: path %s's reader cannot pause partitions", c.Path)
	}
	tk := time.NewTicker(c.Pause)
	w := newWaker(r, c.Pause, tk.C, time.Now)
	pr := &pausingReader{waker: w, pc: newPauseCycle(pz, c.Partitions, time.Now)}
	w.tk, w.between = tk, pr.pc.toggle
	return pr, pr, nil
}
