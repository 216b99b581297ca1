package ladder

import (
	"context"
	"errors"
	"testing"
	"time"
)

// waitWith runs waitChild in a goroutine and hands its ticks one by one.
type waitWith struct {
	ticks chan time.Time
	out   chan waitOutcome
	err   chan error
}

func startWait(ctx context.Context, done <-chan error, timeout time.Duration, start time.Time) *waitWith {
	w := &waitWith{ticks: make(chan time.Time), out: make(chan waitOutcome, 1), err: make(chan error, 1)}
	go func() {
		o, err := waitChild(ctx, done, timeout, start, w.ticks)
		w.out <- o
		w.err <- err
	}()
	return w
}

func TestWaitChildTimesOutOnItsBudget(t *testing.T) {
	t0 := time.Unix(1000, 0)
	timeout := 2 * time.Second
	w := startWait(context.Background(), make(chan error), timeout, t0)
	tick := budgetTick(timeout)
	n := int(timeout / tick)
	for i := 1; i <= n; i++ {
		w.ticks <- t0.Add(time.Duration(i) * tick)
	}
	if o := <-w.out; o != timedOut {
		t.Errorf("after %d ticks of %v: outcome %d, want timedOut", n, tick, o)
	}
}

// TestWaitChildDiscountsASuspension: an hour between two ticks (the
// ladder stopped) charges only maxGap; a child that exited meanwhile
// finished, and one still running still has its budget.
func TestWaitChildDiscountsASuspension(t *testing.T) {
	t0 := time.Unix(1000, 0)
	timeout := 2 * time.Second // shorter than maxGap: one late tick uses it up

	done := make(chan error, 1)
	done <- errors.New("exit status 0")
	w := startWait(context.Background(), done, timeout, t0)
	// The child's exit and the late tick are both ready; whichever the
	// select takes, the outcome is the exit.
	select {
	case w.ticks <- t0.Add(time.Hour):
	default:
	}
	if o, err := <-w.out, <-w.err; o != exited || err == nil {
		t.Errorf("a child that exited during the suspension: outcome %d (%v), want exited", o, err)
	}

	long := time.Minute
	w = startWait(context.Background(), make(chan error), long, t0)
	w.ticks <- t0.Add(time.Hour)
	// The budget left is long - maxGap: the wait goes on and takes ticks.
	select {
	case w.ticks <- t0.Add(time.Hour + budgetTick(long)):
	case o := <-w.out:
		t.Fatalf("a suspension of an hour timed out a %v budget: outcome %d", long, o)
	}
}

func TestWaitChildExitAndCancel(t *testing.T) {
	t0 := time.Unix(1000, 0)
	done := make(chan error, 1)
	done <- nil
	if o, err := waitChild(context.Background(), done, time.Second, t0, nil); o != exited || err != nil {
		t.Errorf("exit: %d %v", o, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if o, _ := waitChild(ctx, make(chan error), time.Second, t0, nil); o != canceled {
		t.Errorf("cancel: %d", o)
	}
}
