package rung

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/fastpathlab/fplab/ladder/rungargs"
	"github.com/fastpathlab/fplab/results"
	"github.com/fastpathlab/fplab/source/consume"
)

// WakeBound is the longest a reader may take to return control after a
// wake-up: the upstream reader's bounded poll, on which its wakeUp relied.
// A reader that waited out its poll would sit at the bound; a wake-up of
// a cell that takes longer fails the cell.
const WakeBound = 100 * time.Millisecond

// waker wakes a reader at every tick of a wake=<interval> cell: it cancels
// the Next under way (if one is), and that Next must return, with a batch
// or with the cancel's error, after which the reader is called again as if
// nothing happened: what it hands over later is verified as always, so a
// wake-up that lost or repeated a record fails the cell there. The time
// from each cancel to the return is kept (a wake that finds no Next under
// way wakes nothing and is not counted).
type waker struct {
	consume.Reader
	now func() time.Time

	// between, when set, runs before the next call to the reader after
	// every tick (a pause cell's pauseCycle.toggle): between two calls,
	// as a Flink fetcher applies a pause or a split change once woken.
	between func() error

	mu     sync.Mutex
	cancel context.CancelFunc // the Next under way; nil between calls
	woke   time.Time          // when it was woken; zero if it was not
	took   []time.Duration    // cancel to return, per wake-up
	due    bool               // a tick came since between last ran

	interval time.Duration
	tk       *time.Ticker // nil when the ticks are a test's
	stop     chan struct{}
	done     chan struct{}
	once     sync.Once
}

// wakeReader is the reader a cell reads through: r itself, or r wrapped
// in a waker (wake=<interval>) that wakes it at the interval until close.
// The waker's methods take a nil waker for a cell without wake-ups.
func wakeReader(c *rungargs.Cell, r consume.Reader) (consume.Reader, *waker) {
	if c.Wake <= 0 {
		return r, nil
	}
	tk := time.NewTicker(c.Wake)
	w := newWaker(r, c.Wake, tk.C, time.Now)
	w.tk = tk
	return w, w
}

// newWaker wraps r, waking it at each tick until close; now is the clock
// the wake-ups are timed with.
func newWaker(r consume.Reader, interval time.Duration, tick <-chan time.Time, now func() time.Time) *waker {
	w := &waker{Reader: r, now: now, interval: interval, stop: make(chan struct{}), done: make(chan struct{})}
	go w.run(tick)
	return w
}

func (w *waker) run(tick <-chan time.Time) {
	defer close(w.done)
	for {
		select {
		case <-w.stop:
			return
		case <-tick:
			w.wake()
		}
	}
}

// wake cancels the Next under way, once.
func (w *waker) wake() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.due = true
	if w.cancel != nil && w.woke.IsZero() {
		w.woke = w.now()
		w.cancel()
	}
}

// Next calls the reader until it returns something other than a wake-up's
// cancel: a batch, the end, or an error (the caller's context ending
// among them).
func (w *waker) Next(ctx context.Context) (*consume.Batch, error) {
	for {
		nctx, cancel := context.WithCancel(ctx)
		w.mu.Lock()
		due := w.due && w.between != nil
		w.due, w.cancel = false, cancel
		w.mu.Unlock()
		if due {
			// a tick while it runs cancels nctx: the Next below returns
			// at once and the loop comes back here
			if err := w.between(); err != nil {
				w.mu.Lock()
				w.cancel, w.woke = nil, time.Time{}
				w.mu.Unlock()
				cancel()
				return nil, err
			}
		}
		b, err := w.Reader.Next(nctx)
		back := w.now()
		w.mu.Lock()
		woke := w.woke
		w.cancel, w.woke = nil, time.Time{}
		if !woke.IsZero() {
			w.took = append(w.took, back.Sub(woke))
		}
		w.mu.Unlock()
		cancel()
		if err != nil && !woke.IsZero() && errors.Is(err, context.Canceled) && ctx.Err() == nil {
			continue // woken: call again
		}
		return b, err
	}
}

// close stops the wake-ups (once; nothing for a nil waker); the reader
// stays open.
// pending is false: a waker reads what the cell's producer wrote.
func (w *waker) pending() bool { return false }

func (w *waker) close() {
	if w == nil {
		return
	}
	w.once.Do(func() {
		if w.tk != nil {
			w.tk.Stop()
		}
		close(w.stop)
		<-w.done
	})
}

// wakeStats are a wake cell's figures: how many wake-ups found a Next
// under way and how long it took to return, in microseconds.
type wakeStats struct {
	n             int
	p50, p99, max time.Duration
}

// figures stops the wake-ups and returns the cell's wake units: nothing
// for a nil waker, an error for a cell whose reader was never woken or
// once took longer than WakeBound to return.
func (w *waker) figures() ([]results.Metric, error) {
	if w == nil {
		return nil, nil
	}
	w.close()
	st, err := w.stats()
	if err != nil {
		return nil, err
	}
	return st.metrics(), nil
}

// stats summarises the wake-ups so far.
func (w *waker) stats() (wakeStats, error) {
	interval := w.interval
	w.mu.Lock()
	took := slices.Clone(w.took)
	w.mu.Unlock()
	if len(took) == 0 {
		return wakeStats{}, fmt.Errorf("wake=%v: no wake-up found the reader in a Next (the read ended before the first)", interval)
	}
	slices.Sort(took)
	at := func(q float64) time.Duration { return took[min(len(took)-1, int(q*float64(len(took))))] }
	st := wakeStats{n: len(took), p50: at(0.5), p99: at(0.99), max: took[len(took)-1]}
	if st.max > WakeBound {
		return st, fmt.Errorf("wake=%v: a woken reader took %v to return control, over the %v bound (p50 %v, p99 %v of %d wake-ups)", interval, st.max, WakeBound, st.p50, st.p99, st.n)
	}
	return st, nil
}

// metrics are the wake cell's units.
func (st wakeStats) metrics() []results.Metric {
	us := func(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e3 }
	return []results.Metric{
		{Value: float64(st.n), Unit: results.UnitWakes},
		{Value: us(st.p50), Unit: results.UnitWakeP50},
		{Value: us(st.p99), Unit: results.UnitWakeP99},
		{Value: us(st.max), Unit: results.UnitWakeMax},
	}
}
