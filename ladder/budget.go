package ladder

import (
	"context"
	"time"
)

// A child's timeout counts the time the ladder itself was running. A
// ladder stopped (Ctrl-Z, SIGSTOP, a suspended host) does not watch its
// child, which runs on in a process group of its own and may finish; on
// SIGCONT a plain timer has long fired, and a cell that ran its course
// would be journaled as a timeout. So the wait spends a budget on a ticker:
// a gap between two ticks longer than maxGap is time the ladder was not
// running and is charged as maxGap, and a child found exited when the
// budget runs out has finished, not timed out.

// budgetTick is how often the wait charges the budget: a twentieth of the
// timeout, within [10ms, 1s].
func budgetTick(timeout time.Duration) time.Duration {
	return min(max(timeout/20, 10*time.Millisecond), time.Second)
}

// maxGap is the most one tick may charge: a tick late by more than that
// (on a loaded host a goroutine can wait seconds for a core) is taken for
// a ladder that was stopped.
func maxGap(tick time.Duration) time.Duration { return tick + 2*time.Second }

// waitOutcome is how a child's wait ended.
type waitOutcome int

const (
	exited waitOutcome = iota
	timedOut
	canceled
)

// waitChild waits for done (the child's Wait) against a budget of timeout
// charged at every tick (now is the tick's time), or for ctx's end. It
// returns the Wait error when the child exited first.
func waitChild(ctx context.Context, done <-chan error, timeout time.Duration, start time.Time, ticks <-chan time.Time) (waitOutcome, error) {
	left, last, gap := timeout, start, maxGap(budgetTick(timeout))
	for {
		select {
		case err := <-done:
			return exited, err
		case <-ctx.Done():
			return canceled, nil
		case now := <-ticks:
			d := now.Sub(last)
			last = now
			if d > gap {
				d = gap // the ladder was not running
			}
			if left -= max(d, 0); left > 0 {
				continue
			}
			// Used up; a child that exited meanwhile finished in time as
			// far as the ladder can tell: it never saw it late.
			select {
			case err := <-done:
				return exited, err
			default:
				return timedOut, nil
			}
		}
	}
}
