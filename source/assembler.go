package source

import (
	"fmt"
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/fastpathlab/fplab/source/consume"
)

// assembler is the bookkeeping every path shares: where each partition
// stands, which rows the current batch holds, and the split state.
//
// A partition's position is the consumer's: the offset of the next record
// it would deliver. It advances past every delivered record (emitted,
// failed to parse, or a tombstone) and also past what read_committed never
// delivers, as soon as the client proves it was passed: a control record
// (franz), a partition-EOF event (librdkafka), or any record at or past
// the stop. A partition is finished when its position reaches its stop,
// so a range whose tail is aborted records and transaction markers ends
// there instead of waiting for a record that never comes. A position never
// passes the stop. A live read's stops are unbounded (live.go): its
// partitions are never finished, and its batches that are not full are
// handed over by the linger rule instead.
type assembler struct {
	batch int
	// parts and offs hold, per row of the current batch, its origin;
	// nulls counts its tombstone rows.
	parts []int32
	offs  []int64
	nulls int64
	bytes int64
	// pos is the next offset to consume per partition; stop where to end.
	pos       []int64
	stop      []int64
	remaining int
	out       consume.Batch
	stats     consume.Stats
	// lastProgress is when a message last arrived (stall detection).
	lastProgress time.Time
	// linger is a live read's Config.Linger, zero on a bounded read; first
	// is when the current batch's first row was added (zero while it has
	// none, and always on a bounded read), which starts its linger.
	linger time.Duration
	first  time.Time
	// ps is what Pause and Resume set (pause.go); empty until a Pause.
	ps pauseState
}

// newAssembler starts every partition at its start offset; a partition
// whose start is at or past its stop is an empty range, finished at once,
// its position the stop.
func newAssembler(batch int, start, stop []int64) *assembler {
	a := &assembler{
		batch: batch,
		parts: make([]int32, 0, batch),
		offs:  make([]int64, 0, batch),
		pos:   make([]int64, len(stop)),
		stop:  stop,
	}
	for p := range stop {
		a.pos[p] = min(start[p], stop[p])
		if a.pos[p] < a.stop[p] {
			a.remaining++
		}
	}
	a.out.Split = make([]int64, len(stop))
	copy(a.out.Split, a.pos)
	a.lastProgress = time.Now()
	return a
}

// consume records that the record at (p, off) was read and reports whether
// it belongs to the bounded range. A record at or past the stop offset is
// never emitted (a bounded read never overshoots), but it proves that the
// consumer's position passed the stop: its partition is finished. A
// record before the position (read already) is not emitted again.
func (a *assembler) consume(p int32, off int64) (bool, error) {
	if err := a.check(p); err != nil {
		return false, err
	}
	if a.held(p) {
		return false, nil
	}
	if a.stats.First.IsZero() {
		a.stats.First = time.Now()
	}
	if off >= a.stop[p] {
		a.advance(p, a.stop[p])
		return false, nil
	}
	if off < a.pos[p] {
		return false, nil
	}
	a.pos[p] = off + 1
	if a.pos[p] == a.stop[p] {
		a.remaining--
	}
	return true, nil
}

// control records a transaction control record at (p, off): never a row,
// it moves the position past itself.
func (a *assembler) control(p int32, off int64) error {
	if err := a.check(p); err != nil || a.held(p) {
		return err
	}
	a.advance(p, off+1)
	return nil
}

// eof records librdkafka's partition-EOF event at (p, off): the consumer's
// position in p is off, everything before it read or invisible.
func (a *assembler) eof(p int32, off int64) error {
	if err := a.check(p); err != nil || a.held(p) {
		return err
	}
	a.advance(p, off)
	return nil
}

// advance moves p's position forward to to, capped at the stop; a position
// never moves back.
func (a *assembler) advance(p int32, to int64) {
	to = min(to, a.stop[p])
	if to <= a.pos[p] {
		return
	}
	a.pos[p] = to
	if to == a.stop[p] {
		a.remaining--
	}
}

func (a *assembler) check(p int32) error {
	if int(p) < 0 || int(p) >= len(a.pos) {
		return fmt.Errorf("record from unexpected partition %d", p)
	}
	return nil
}

// added records a row appended to the current batch.
func (a *assembler) added(p int32, off int64, n int) {
	if a.linger > 0 {
		a.startLinger()
	}
	a.parts = append(a.parts, p)
	a.offs = append(a.offs, off)
	a.bytes += int64(n)
}

// addedNull records a tombstone's all-null row appended to the batch.
func (a *assembler) addedNull(p int32, off int64) {
	if a.linger > 0 {
		a.startLinger()
	}
	a.parts = append(a.parts, p)
	a.offs = append(a.offs, off)
	a.nulls++
}

// addedRun records a run of rows appended in one call.
func (a *assembler) addedRun(parts []int32, offs []int64, n int) {
	if a.linger > 0 {
		a.startLinger()
	}
	a.parts = append(a.parts, parts...)
	a.offs = append(a.offs, offs...)
	a.bytes += int64(n)
}

func (a *assembler) full() bool { return len(a.parts) >= a.batch }
func (a *assembler) done() bool { return a.remaining == 0 }
func (a *assembler) rows() int  { return len(a.parts) }

// emit wraps the finished record batch with its positions and advances the
// split state to the consumed positions (failed parses included: they were
// read and must not be read again after a restore; so are the positions
// control records and EOF events proved).
func (a *assembler) emit(rec arrow.RecordBatch) *consume.Batch {
	a.out.Rec = rec
	a.out.Partitions = append(a.out.Partitions[:0], a.parts...)
	a.out.Offsets = append(a.out.Offsets[:0], a.offs...)
	copy(a.out.Split, a.pos)
	a.out.Bytes = a.bytes
	a.stats.Records += int64(len(a.parts))
	a.stats.Nulls += a.nulls
	a.stats.Bytes += a.bytes
	a.stats.Batches++
	a.parts, a.offs, a.bytes, a.nulls = a.parts[:0], a.offs[:0], 0, 0
	a.first = time.Time{}
	return &a.out
}

// parseFailed counts a record (p, off) whose payload did not decode and
// keeps the first such record's position.
func (a *assembler) parseFailed(p int32, off int64, err error) {
	a.stats.ParseFailures++
	if a.stats.FirstParseFailure == nil {
		a.stats.FirstParseFailure = &consume.ParseFailure{Partition: p, Offset: off, Err: err}
	}
}

// progress notes that a message arrived; stalled reports an error once no
// message has arrived for timeout. On a bounded read an EOF event counts as
// progress too (it may finish a partition); on a live read it only says
// the consumer is at the end of the log, which is no message.
func (a *assembler) progress() { a.lastProgress = time.Now() }

func (a *assembler) stalled(timeout time.Duration) error {
	if a.waitingOnPause() {
		a.progress()
		return nil
	}
	if time.Since(a.lastProgress) < timeout {
		return nil
	}
	if a.live() {
		return a.liveStalled(timeout)
	}
	var behind []string
	for p := range a.pos {
		if a.pos[p] < a.stop[p] {
			behind = append(behind, fmt.Sprintf("p%d at %d of %d", p, a.pos[p], a.stop[p]))
		}
	}
	return fmt.Errorf("no message for %v (%v)", timeout, behind)
}

// outOfRange is the error of a read whose position in p fell below the
// partition's log start: the records there were deleted, and the client
// was told not to skip ahead silently.
func outOfRange(path consume.Path, p int32, off int64, cause error) error {
	return fmt.Errorf("%s: partition %d: offset %d is out of range (records deleted?): %w", path, p, off, cause)
}
