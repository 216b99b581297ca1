package source

import "time"

// Crossing ahead (Tuning.Ahead, a drain=ahead cell): the fast path keeps a
// second drain, and as soon as it takes one crossing's messages it starts
// the next crossing on the other drain, on a goroutine of its own, while
// this one's messages are decoded and the batch is handed over. The
// reader's thread then pays for decoding alone, the crossing (librdkafka's
// per-message callback and the copy into the drain's buffer) running
// beside it on another core; what is ahead is at most one crossing.
//
// Everything else stays on the reader's goroutine, in the order a crossing
// without it keeps: a crossing is taken (its errors, EOF events, positions
// and stall bookkeeping) before the next one starts, so each crossing's
// messages reach the assembler in the queue's order, and the position
// librdkafka reports after an empty crossing is read while no crossing is
// under way. The payloads stay in the drain's own buffer (a raw column's
// crossing no longer writes into the batch's data: that is the batch being
// built). The read must be bounded: a crossing ahead waits its full
// pollWait, which a live batch's linger cannot. Once a partition is paused
// no crossing starts ahead again (Pause and Resume first wait for the one
// under way), so the rule that a resumed partition's stale records clear
// at the next fetch holds as it does without.
type ahead[D crosser] struct {
	spare  D             // the drain the next crossing runs on
	done   chan crossing // its result, buffered for one
	flying bool          // a crossing is under way on spare
	landed *crossing     // joined, not yet taken
}

// crosser is the part of a drain.Drain that ahead drives.
type crosser interface {
	Run(timeoutMs int, dst []byte) (int, error)
	Close()
}

// crossing is what one Run returned.
type crossing struct {
	n   int
	err error
}

func newAhead[D crosser](spare D) *ahead[D] {
	return &ahead[D]{spare: spare, done: make(chan crossing, 1)}
}

// start runs the next crossing on the spare drain.
func (h *ahead[D]) start() {
	h.flying = true
	d, done := h.spare, h.done
	go func() {
		n, err := d.Run(int(pollWait/time.Millisecond), nil)
		done <- crossing{n, err}
	}()
}

// join waits for the crossing under way, if any, and keeps its result for
// take.
func (h *ahead[D]) join() {
	if h.flying {
		c := <-h.done
		h.flying, h.landed = false, &c
	}
}

// take returns the crossing ahead's result and its drain, which becomes
// the reader's, handing the reader's drain back as the spare; ok is false
// when no crossing was started ahead.
func (h *ahead[D]) take(cur D) (d D, c crossing, ok bool) {
	h.join()
	if h.landed == nil {
		return cur, crossing{}, false
	}
	c, h.landed = *h.landed, nil
	d, h.spare = h.spare, cur
	return d, c, true
}

// close ends the crossing under way (waking its wait) and frees the spare.
func (h *ahead[D]) close(wake func()) {
	if h.flying {
		wake()
	}
	h.join()
	h.spare.Close()
}
