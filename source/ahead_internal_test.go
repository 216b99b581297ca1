package source

import (
	"errors"
	"testing"
)

// gatedDrain is a crosser whose Run waits for its gate: a crossing that
// waits on an empty queue until it is woken.
type gatedDrain struct {
	name    string
	gate    chan struct{}
	running chan struct{} // a Run has begun
	n       int
	err     error
	waited  int // Run's timeoutMs
	closed  bool
}

func newGated(name string, n int) *gatedDrain {
	return &gatedDrain{name: name, gate: make(chan struct{}), running: make(chan struct{}, 1), n: n}
}

func (g *gatedDrain) Run(timeoutMs int, dst []byte) (int, error) {
	g.waited = timeoutMs
	g.running <- struct{}{}
	<-g.gate
	return g.n, g.err
}

func (g *gatedDrain) Close() { g.closed = true }

// TestAheadTakeSwapsDrains: with no crossing started, take hands back the
// reader's own drain; after one, it waits for that crossing, returns its
// result and its drain, and keeps the reader's as the spare, so the next
// crossing runs on the drain whose messages were decoded.
func TestAheadTakeSwapsDrains(t *testing.T) {
	a, b := newGated("a", 0), newGated("b", 7)
	h := newAhead(b)
	if d, _, ok := h.take(a); ok || d != a {
		t.Fatalf("take with nothing ahead = %s, %v; want a, false", d.name, ok)
	}
	h.start()
	<-b.running
	if b.waited != int(pollWait.Milliseconds()) {
		t.Errorf("crossing ahead waits %d ms, want pollWait", b.waited)
	}
	close(b.gate)
	d, c, ok := h.take(a)
	if !ok || d != b || c.n != 7 || c.err != nil {
		t.Fatalf("take = %s, %+v, %v; want b, n 7, true", d.name, c, ok)
	}
	if h.spare != a {
		t.Fatalf("spare is %s after the take, want a", h.spare.name)
	}
	a.err = errors.New("drain fault")
	close(a.gate)
	h.start()
	h.join() // as Pause does: the result waits for take
	if h.flying {
		t.Fatal("joined, still flying")
	}
	if d, c, ok := h.take(b); !ok || d != a || c.err != a.err {
		t.Fatalf("take after join = %s, %+v, %v; want a and its fault", d.name, c, ok)
	}
}

// TestAheadCloseWakesTheCrossing: Close with a crossing waiting on an
// empty queue wakes it and waits for it before freeing the spare drain;
// with none under way it wakes nothing.
func TestAheadCloseWakesTheCrossing(t *testing.T) {
	g := newGated("g", 0)
	h := newAhead(g)
	h.start()
	<-g.running
	woken := 0
	h.close(func() { woken++; close(g.gate) })
	if woken != 1 || !g.closed || h.flying {
		t.Fatalf("close: woken %d times, spare closed %v, flying %v", woken, g.closed, h.flying)
	}

	idle := newGated("idle", 0)
	h = newAhead(idle)
	h.close(func() { t.Fatal("woke with no crossing under way") })
	if !idle.closed {
		t.Fatal("spare not closed")
	}
}
