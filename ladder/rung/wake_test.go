package rung

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fastpathlab/fplab/results"
	"github.com/fastpathlab/fplab/source/consume"
)

// gatedReader's Next says it has started (entered), then waits for a
// batch to hand over (release) or for its context to end.
type gatedReader struct {
	consume.Reader
	entered chan struct{}
	release chan *consume.Batch
	calls   atomic.Int32
}

func newGated() *gatedReader {
	return &gatedReader{entered: make(chan struct{}), release: make(chan *consume.Batch)}
}

func (g *gatedReader) Next(ctx context.Context) (*consume.Batch, error) {
	g.calls.Add(1)
	g.entered <- struct{}{}
	select {
	case b := <-g.release:
		return b, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// stepClock advances by step at every reading: a wake-up's cancel and the
// woken Next's return are consecutive readings, step apart.
func stepClock(step time.Duration) func() time.Time {
	var n atomic.Int64
	t0 := time.Unix(0, 0)
	return func() time.Time { return t0.Add(time.Duration(n.Add(1)) * step) }
}

// TestWakerWakesANextAndCallsItAgain: each tick while Next waits cancels
// it, the waker calls the reader again, and the batch it finally hands
// over is the caller's; each wake-up's time (cancel to return) is kept,
// and figures gives the four units. A tick while no Next is under way
// wakes nothing and is not counted.
func TestWakerWakesANextAndCallsItAgain(t *testing.T) {
	g := newGated()
	tick := make(chan time.Time)
	w := newWaker(g, 20*time.Millisecond, tick, stepClock(3*time.Millisecond))
	defer w.close()

	want := &consume.Batch{Bytes: 7}
	got := make(chan *consume.Batch, 1)
	go func() {
		b, err := w.Next(context.Background())
		if err != nil {
			t.Errorf("Next: %v", err)
		}
		got <- b
	}()
	const wakes = 3
	for range wakes {
		<-g.entered
		tick <- time.Time{}
	}
	<-g.entered
	g.release <- want
	if b := <-got; b != want {
		t.Fatalf("Next handed over %v, want the reader's batch", b)
	}
	if n := g.calls.Load(); n != wakes+1 {
		t.Errorf("the reader was called %d times, want %d (once per wake-up, once more)", n, wakes+1)
	}
	tick <- time.Time{} // no Next under way
	figs, err := w.figures()
	if err != nil {
		t.Fatal(err)
	}
	want3us := 3000.0
	wantFigs := []results.Metric{
		{Unit: results.UnitWakes, Value: wakes},
		{Unit: results.UnitWakeP50, Value: want3us},
		{Unit: results.UnitWakeP99, Value: want3us},
		{Unit: results.UnitWakeMax, Value: want3us},
	}
	if len(figs) != len(wantFigs) {
		t.Fatalf("figures %v, want %v", figs, wantFigs)
	}
	for i := range figs {
		if figs[i] != wantFigs[i] {
			t.Errorf("figure %d: %v, want %v", i, figs[i], wantFigs[i])
		}
	}
}

// TestWakerPassesTheCallersCancel: the caller's own context ending is not
// a wake-up: Next returns its error, without calling the reader again.
func TestWakerPassesTheCallersCancel(t *testing.T) {
	g := newGated()
	w := newWaker(g, time.Second, make(chan time.Time), stepClock(time.Millisecond))
	defer w.close()
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() {
		_, err := w.Next(ctx)
		errc <- err
	}()
	<-g.entered
	cancel()
	if err := <-errc; !errors.Is(err, context.Canceled) {
		t.Fatalf("Next after the caller's cancel: %v", err)
	}
	if n := g.calls.Load(); n != 1 {
		t.Errorf("the reader was called %d times, want 1", n)
	}
}

// TestWakerFailsTheCell: a reader that takes longer than WakeBound to
// return once, or a read no wake-up reached, fails the cell with a line
// that says so.
func TestWakerFailsTheCell(t *testing.T) {
	g := newGated()
	tick := make(chan time.Time)
	w := newWaker(g, 20*time.Millisecond, tick, stepClock(WakeBound+time.Millisecond))
	go func() { _, _ = w.Next(context.Background()) }()
	<-g.entered
	tick <- time.Time{}
	<-g.entered // called again: the wake-up is counted
	_, err := w.figures()
	if err == nil || !strings.Contains(err.Error(), "took 101ms to return control, over the 100ms bound") {
		t.Errorf("slow wake-up: %v", err)
	}
	g.release <- &consume.Batch{}

	idle := newWaker(newGated(), 20*time.Millisecond, make(chan time.Time), time.Now)
	if _, err := idle.figures(); err == nil || !strings.Contains(err.Error(), "no wake-up found the reader in a Next") {
		t.Errorf("no wake-up: %v", err)
	}
	var none *waker
	if figs, err := none.figures(); figs != nil || err != nil {
		t.Errorf("a cell without wake-ups: %v, %v", figs, err)
	}
	none.close()
}
