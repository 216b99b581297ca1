package source

import (
	"errors"
	"slices"
	"testing"
	"time"
)

// TestLiveAssembler walks a live assembler through what the clients
// report: no partition is ever finished (EOF events and far offsets
// included), a batch's linger starts at its first row and ends Linger
// later, the waits it allows are rounded up to whole ms, and emitting the
// batch stops the clock. Times are taken from the clock's start, so
// nothing here sleeps.
func TestLiveAssembler(t *testing.T) {
	const linger = 5 * time.Millisecond
	cfg := &Config{Batch: 4, Live: true, Linger: linger}
	a := assemblerFor(cfg, []int64{10, 20}, []int64{unbounded, unbounded})
	if !a.live() || a.lingering() || a.remaining != 2 {
		t.Fatalf("open: live %v, lingering %v, remaining %d", a.live(), a.lingering(), a.remaining)
	}
	if got := a.waitMs(100, time.Now()); got != 100 {
		t.Errorf("empty batch: wait %d ms, want 100", got)
	}
	// EOF events at the end of the log (and again, later) finish nothing
	for _, off := range []int64{10, 10, 1 << 40} {
		if err := a.eof(0, off); err != nil || a.done() {
			t.Fatalf("EOF at %d: %v, done %v", off, err, a.done())
		}
	}
	if ok, err := a.consume(1, 20); !ok || err != nil {
		t.Fatalf("record p1@20: %v, %v", ok, err)
	}
	a.added(1, 20, 3)
	if !a.lingering() || a.done() {
		t.Fatalf("a row: lingering %v, done %v", a.lingering(), a.done())
	}
	first := a.first
	if ok, err := a.consume(1, 21); !ok || err != nil {
		t.Fatalf("record p1@21: %v, %v", ok, err)
	}
	a.addedNull(1, 21) // the clock runs from the first row, not the last
	if a.first != first {
		t.Errorf("a second row moved the clock from %v to %v", first, a.first)
	}
	at := func(d time.Duration) time.Time { return first.Add(d) }
	steps := []struct {
		since time.Duration
		due   bool
		left  time.Duration
		wait  int
	}{
		{0, false, linger, 5},
		{2500 * time.Microsecond, false, 2500 * time.Microsecond, 3}, // rounded up
		{4 * time.Millisecond, false, time.Millisecond, 1},
		{4999 * time.Microsecond, false, time.Microsecond, 1},
		{linger, true, 0, 0},
		{time.Second, true, 0, 0},
	}
	for _, s := range steps {
		if due, left, wait := a.lingerDue(at(s.since)), a.lingerLeft(at(s.since)), a.waitMs(100, at(s.since)); due != s.due || left != s.left || wait != s.wait {
			t.Errorf("%v after the first row: due %v, left %v, wait %d ms; want %v, %v, %d", s.since, due, left, wait, s.due, s.left, s.wait)
		}
	}
	if got := a.waitMs(2, at(0)); got != 2 {
		t.Errorf("a wait shorter than the linger: %d ms, want 2", got)
	}
	b := a.emit(nil)
	if a.lingering() || a.lingerDue(at(time.Second)) || !slices.Equal(b.Split, []int64{1 << 40, 22}) {
		t.Fatalf("after emit: lingering %v, split %v", a.lingering(), b.Split)
	}
	if err := a.stalled(0); err == nil || err.Error() != "live: no message for 0s (p0 at 1099511627776, p1 at 22)" {
		t.Errorf("stall: %v", err)
	}
}

// TestBoundedAssemblerRunsNoLinger: a bounded read's rows never start a
// linger clock (its hot loops read no clock), and its waits stay the
// paths' own.
func TestBoundedAssemblerRunsNoLinger(t *testing.T) {
	a := assemblerFor(&Config{Batch: 4}, []int64{0}, []int64{10})
	a.added(0, 0, 1)
	a.addedNull(0, 1)
	a.addedRun([]int32{0}, []int64{2}, 1)
	if a.live() || a.lingering() || !a.first.IsZero() || a.waitMs(100, time.Now()) != 100 {
		t.Errorf("bounded: live %v, lingering %v, first %v", a.live(), a.lingering(), a.first)
	}
}

// TestLiveBounds: a live read starts every partition at its high
// watermark at open and has no stop; a bounded one is unchanged.
func TestLiveBounds(t *testing.T) {
	wm := func() ([]int64, []int64, error) { return []int64{0, 5}, []int64{7, 9}, nil }
	start, stop, err := bounds(&Config{Live: true}, wm, nil)
	if err != nil || !slices.Equal(start, []int64{7, 9}) || !slices.Equal(stop, []int64{unbounded, unbounded}) {
		t.Errorf("live: %v %v %v", start, stop, err)
	}
	start, stop, err = bounds(&Config{}, wm, nil)
	if err != nil || !slices.Equal(start, []int64{0, 5}) || !slices.Equal(stop, []int64{7, 9}) {
		t.Errorf("bounded: %v %v %v", start, stop, err)
	}
	boom := errors.New("boom")
	if _, _, err := bounds(&Config{Live: true}, func() ([]int64, []int64, error) { return nil, nil, boom }, nil); !errors.Is(err, boom) {
		t.Errorf("live, watermarks failing: %v", err)
	}
}
