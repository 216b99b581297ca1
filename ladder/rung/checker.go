package rung

import (
	"github.com/apache/arrow-go/v18/arrow"

	"github.com/fastpathlab/fplab/source/consume"
)

// checker runs the rung's checks of a measured read behind the reader.
// The position checks run on the reader's goroutine as each batch arrives
// (they are cheap, and the reader reuses the position slices at its next
// Next); the checksum of the decoded columns, which reads every payload
// byte, runs on a goroutine of its own while the reader goes on. The
// checksum falls at most a bounded number of batches behind (behind): a
// reader that outruns it by more waits (that wait, with the position
// checks, is what verify-ns/rec counts), and the window closes only once
// every batch is summed (wait), so no check's time leaves the window
// unseen except as the CPU the host finds for it elsewhere.
//
// Why not in line: a path whose reader thread also takes the messages out
// of the client (fast: the crossing) would pay the checksum in full, while
// a path whose client fetches on goroutines of its own (franz) overlaps
// it. Behind the reader, every path meets the checks the same way: as CPU
// the host must find (cpu-ns/rec counts it), not as time the path's reader
// stands still.
type checker struct {
	v   *verifier
	sum func(*sumJob) error // v.sum of the job (tests gate it)
	// waiting, when set, is called as check starts to wait for a job
	// (tests)
	waiting func()
	jobs    chan *sumJob
	free    chan *sumJob
	done    chan error
	// err is the first checksum failure, once received from done;
	// closed is set once wait closed jobs.
	err    error
	closed bool
}

// behindRows is how many rows the checksum may fall behind the reader:
// enough to take a crossing's burst of batches (the fast path drains the
// client's whole backlog at once, 15-90k records on the lab's hosts, then
// emits batch after batch from it) while the reader waits on the client
// for the next one. Never fewer than two batches: one summed, one waiting.
const behindRows = 64 << 10

// behind is how many batches of size batch the checker holds at most.
func behind(batch int) int {
	return max(2, (behindRows+batch-1)/batch)
}

// sumJob is one batch handed to the checksum goroutine: its record, the
// checksum it must have, and copies of its positions to name the rows
// that differ.
type sumJob struct {
	rec   arrow.RecordBatch
	want  uint64
	k     int64
	parts []int32
	offs  []int64
}

// newChecker starts a checker that holds at most jobs batches.
func newChecker(v *verifier, jobs int) *checker {
	return startChecker(v, jobs, func(j *sumJob) error { return v.sum(j.rec, j.want, j.k, j.parts, j.offs) })
}

// startChecker starts a checker whose goroutine checks a job with sum.
// Free jobs bound it; the queue has room for them all, so a send to it
// never blocks.
func startChecker(v *verifier, jobs int, sum func(*sumJob) error) *checker {
	c := &checker{v: v, sum: sum, jobs: make(chan *sumJob, jobs), free: make(chan *sumJob, jobs), done: make(chan error, 1)}
	for range jobs {
		c.free <- new(sumJob)
	}
	go c.run()
	return c
}

// run sums the batches in order; after a failure it releases the rest
// unsummed.
func (c *checker) run() {
	var failed error
	for j := range c.jobs {
		if failed == nil {
			if err := c.sum(j); err != nil {
				failed = err
				c.done <- err
			}
		}
		j.rec.Release()
		j.rec = nil
		c.free <- j
	}
	if failed == nil {
		c.done <- nil
	}
	close(c.done)
}

// check checks b's positions and hands its record to the checksum
// goroutine, which releases it. It waits while every job is out (the
// checksum as far behind as it may fall), and returns an earlier batch's
// checksum failure as soon as one is known.
func (c *checker) check(b *consume.Batch) error {
	if b.Rec == nil { // a twin: positions only
		return c.v.checkTwin(b)
	}
	want, err := c.v.positions(b)
	if err == nil {
		err = c.failed()
	}
	var j *sumJob
	if err == nil {
		select {
		case j = <-c.free:
		default: // every job out: wait for the oldest one's sum
			if c.waiting != nil {
				c.waiting()
			}
			select {
			case j = <-c.free:
			case c.err = <-c.done:
				err = c.err
			}
		}
	}
	if err != nil {
		b.Rec.Release()
		return err
	}
	j.rec, j.want, j.k = b.Rec, want, c.v.batches-1
	j.parts = append(j.parts[:0], b.Partitions...)
	j.offs = append(j.offs[:0], b.Offsets...)
	c.jobs <- j
	return nil
}

// failed is the checksum failure the goroutine reported, if it did.
func (c *checker) failed() error {
	if c.err == nil {
		select {
		case c.err = <-c.done:
		default:
		}
	}
	return c.err
}

// wait sums what is still queued, ends the goroutine and returns the
// first checksum failure. Calls after the first return the same.
func (c *checker) wait() error {
	if c.closed {
		return c.err
	}
	c.closed = true
	close(c.jobs)
	for err := range c.done {
		if c.err == nil {
			c.err = err
		}
	}
	return c.err
}
