package rung

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/fastpathlab/fplab/results"
	"github.com/fastpathlab/fplab/source/consume"
)

// fakePauser records the calls it gets.
type fakePauser struct{ calls []string }

func (f *fakePauser) Pause(ps ...int32) error {
	f.calls = append(f.calls, "pause "+string(rune('0'+ps[0])))
	return nil
}

func (f *fakePauser) Resume(ps ...int32) error {
	f.calls = append(f.calls, "resume "+string(rune('0'+ps[0])))
	return nil
}

// TestPauseCycle: each toggle pauses the next partition in turn or resumes
// the paused one; a batch with a row of the paused partition fails; the
// first row of a resumed one is timed; figures gives the units.
func TestPauseCycle(t *testing.T) {
	f := &fakePauser{}
	pc := newPauseCycle(f, 2, stepClock(time.Millisecond))
	for range 4 {
		if err := pc.toggle(); err != nil {
			t.Fatal(err)
		}
	}
	if got := strings.Join(f.calls, ", "); got != "pause 0, resume 0, pause 1, resume 1" {
		t.Errorf("calls: %s", got)
	}
	if err := pc.check(&consume.Batch{Partitions: []int32{0, 1}, Offsets: []int64{5, 6}}); err != nil {
		t.Fatal(err)
	}
	if err := pc.toggle(); err != nil { // pause 0
		t.Fatal(err)
	}
	// the first batch after the Pause may hold rows taken before it
	if err := pc.check(&consume.Batch{Partitions: []int32{0, 1, 0}, Offsets: []int64{7, 8, 8}}); err != nil {
		t.Fatal(err)
	}
	err := pc.check(&consume.Batch{Partitions: []int32{1, 0}, Offsets: []int64{7, 9}})
	if err == nil || err.Error() != "pause: a row of paused partition 0 (offset 9) in the second batch or later after its Pause returned" {
		t.Errorf("row of a paused partition: %v", err)
	}
	figs, err := pc.figures(time.Second)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]float64{}
	for _, m := range figs {
		got[m.Unit] = m.Value
	}
	// every call is one step long; the first row after "resume 1" comes
	// 1 step after the resume returned
	for unit, want := range map[string]float64{
		results.UnitPauses: 3, results.UnitPauseHoldRec: 2, results.UnitPauseP99: 1000, results.UnitResumeMax: 1000,
		results.UnitResumeFirstP99: 1, results.UnitResumeFirstMax: 1,
	} {
		if got[unit] != want {
			t.Errorf("%s = %v, want %v (all: %v)", unit, got[unit], want, figs)
		}
	}
	if _, err := newPauseCycle(f, 2, time.Now).figures(time.Second); err == nil {
		t.Error("a cycle that never resumed gave figures")
	}
}

// TestWakerRunsBetweenCalls: a tick wakes the Next under way and the
// hook runs before the reader is called again, once per tick.
func TestWakerRunsBetweenCalls(t *testing.T) {
	g := newGated()
	tick := make(chan time.Time)
	w := newWaker(g, time.Second, tick, stepClock(time.Microsecond))
	defer w.close()
	ran := make(chan struct{}, 10)
	w.between = func() error { ran <- struct{}{}; return nil }
	done := make(chan *consume.Batch, 1)
	go func() {
		b, _ := w.Next(context.Background())
		done <- b
	}()
	<-g.entered
	tick <- time.Time{}
	<-g.entered // called again: between ran first
	if len(ran) != 1 {
		t.Fatalf("between ran %d times before the second call, want 1", len(ran))
	}
	want := &consume.Batch{}
	g.release <- want
	if b := <-done; b != want {
		t.Fatal("Next did not hand over the reader's batch")
	}
}
