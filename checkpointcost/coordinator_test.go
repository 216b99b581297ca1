package checkpointcost

import (
	"testing"
	"time"
)

func TestCoordinator(t *testing.T) {
	t0 := time.Unix(1000, 0)
	ms := time.Millisecond
	c := newCoordinator(t0, 100*ms)
	if _, ok := c.due(t0.Add(99*ms), 0); ok {
		t.Fatal("due before the first grid point")
	}
	trig, ok := c.due(t0.Add(250*ms), 0)
	if !ok || !trig.Equal(t0.Add(100*ms)) {
		t.Fatalf("due = %v %v, want the first grid point (the trigger does not move while the reader is busy)", trig, ok)
	}
	// A checkpoint that ends before the next grid point: next is +interval.
	c.finished(t0.Add(150 * ms))
	if trig, _ := c.due(t0.Add(time.Second), 0); !trig.Equal(t0.Add(200 * ms)) {
		t.Errorf("next trigger = %v, want t0+200ms", trig.Sub(t0))
	}
	// One that overruns two grid points: those are skipped, not queued.
	c.finished(t0.Add(420 * ms))
	if trig, _ := c.due(t0.Add(time.Second), 0); !trig.Equal(t0.Add(500 * ms)) {
		t.Errorf("next trigger = %v, want t0+500ms", trig.Sub(t0))
	}
	// Ending exactly on a grid point schedules the one after.
	c.finished(t0.Add(600 * ms))
	if trig, _ := c.due(t0.Add(time.Second), 0); !trig.Equal(t0.Add(700 * ms)) {
		t.Errorf("next trigger = %v, want t0+700ms", trig.Sub(t0))
	}
}

func TestPercentile(t *testing.T) {
	var v []time.Duration
	for i := 100; i >= 1; i-- {
		v = append(v, time.Duration(i))
	}
	for _, c := range []struct {
		p    int
		want time.Duration
	}{{50, 50}, {99, 99}, {100, 100}, {1, 1}} {
		if got := percentile(v, c.p); got != c.want {
			t.Errorf("p%d = %v, want %v", c.p, got, c.want)
		}
	}
	if got := percentile(v[:3], 99); got != 100 {
		t.Errorf("p99 of 3 = %v, want the maximum", got)
	}
	if got := percentile(nil, 50); got != 0 {
		t.Errorf("p50 of none = %v", got)
	}
}
