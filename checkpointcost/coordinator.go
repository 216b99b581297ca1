package checkpointcost

import "time"

// trigger decides when the reader takes a barrier. The reader asks at
// every batch boundary (batches read so far, and the time) and tells it
// when a checkpoint attempt has ended. The coordinator below is the one
// readers use; tests inject one that counts batches instead of watching
// the clock, so what they assert does not depend on the machine's speed.
type trigger interface {
	due(now time.Time, batches int64) (time.Time, bool)
	finished(end time.Time)
}

// coordinator decides when a checkpoint is triggered. Triggers fall on a
// fixed grid, start + k*interval. At most one checkpoint runs at a time:
// a grid point that passes while the reader is still before the barrier or
// inside a checkpoint does not queue a second one. The trigger time of a
// checkpoint is its grid point, so alignment wait counts from the moment
// the coordinator asked, however long the reader was busy.
type coordinator struct {
	interval time.Duration
	next     time.Time
}

func newCoordinator(start time.Time, interval time.Duration) *coordinator {
	return &coordinator{interval: interval, next: start.Add(interval)}
}

// due reports the pending trigger, if its time has come by now.
func (c *coordinator) due(now time.Time, _ int64) (time.Time, bool) {
	if now.Before(c.next) {
		return time.Time{}, false
	}
	return c.next, true
}

// finished schedules the next trigger after a checkpoint attempt that
// ended at end: the first grid point after end.
func (c *coordinator) finished(end time.Time) {
	c.next = c.next.Add(c.interval)
	if !c.next.After(end) {
		c.next = c.next.Add((end.Sub(c.next)/c.interval + 1) * c.interval)
	}
}
