package kafka

import (
	"testing"
	"time"
)

// TestStartProgress: a start that keeps growing its logs or listing more
// brokers is never stalled, however long it takes; one with neither for
// the stall timeout is.
func TestStartProgress(t *testing.T) {
	t0 := time.Unix(1000, 0)
	p := newStartProgress(t0, 90*time.Second)
	at := func(s int) time.Time { return t0.Add(time.Duration(s) * time.Second) }
	steps := []struct {
		sec     int
		m       progressMark
		stalled bool
	}{
		{0, progressMark{0, 0}, false},      // first look: progress
		{60, progressMark{0, 0}, false},     // 60 s without: not yet
		{89, progressMark{4096, 0}, false},  // a log grew
		{178, progressMark{4096, 0}, false}, // 89 s since
		{179, progressMark{4096, 0}, true},  // 90 s since: stalled
		{300, progressMark{4096, 1}, false}, // a broker listed
		{600, progressMark{8192, 2}, false}, // more of both
		{689, progressMark{100, 1}, false},  // less is no progress, but only 89 s
		{690, progressMark{8192, 2}, true},  // the same is no progress
	}
	for _, s := range steps {
		if got := p.observe(at(s.sec), s.m); got != s.stalled {
			t.Errorf("at %ds with %+v: stalled %v, want %v", s.sec, s.m, got, s.stalled)
		}
	}
}
