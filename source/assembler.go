package source

import (
	"fmt"
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/fastpathlab/fplab/source/consume"
)

// assembler is the bookkeeping every path shares: where each partition
// stands, which rows the current batch holds, and the split state.
type assembler struct {
	batch int
	// parts and offs hold, per row of the current batch, its origin.
	parts []int32
	offs  []int64
	bytes int64
	// pos is the next offset to consume per partition; stop where to end.
	pos       []int64
	stop      []int64
	remaining int
	out       consume.Batch
	stats     consume.Stats
	// lastProgress is when a message last arrived (stall detection).
	lastProgress time.Time
}

func newAssembler(batch int, start, stop []int64) *assembler {
	a := &assembler{
		batch: batch,
		parts: make([]int32, 0, batch),
		offs:  make([]int64, 0, batch),
		pos:   append([]int64(nil), start...),
		stop:  stop,
	}
	for p := range stop {
		if a.pos[p] < a.stop[p] {
			a.remaining++
		}
	}
	a.out.Split = make([]int64, len(stop))
	copy(a.out.Split, start)
	a.lastProgress = time.Now()
	return a
}

// consume records that the record at (p, off) was read and reports whether
// it belongs to the bounded range. Records past the stop offset are not
// emitted (a bounded read never overshoots).
func (a *assembler) consume(p int32, off int64) (bool, error) {
	if int(p) < 0 || int(p) >= len(a.pos) {
		return false, fmt.Errorf("source: record from unexpected partition %d", p)
	}
	if a.stats.First.IsZero() {
		a.stats.First = time.Now()
	}
	if off >= a.stop[p] || off < a.pos[p] {
		return false, nil
	}
	a.pos[p] = off + 1
	if a.pos[p] == a.stop[p] {
		a.remaining--
	}
	return true, nil
}

// added records a row appended to the current batch.
func (a *assembler) added(p int32, off int64, n int) {
	a.parts = append(a.parts, p)
	a.offs = append(a.offs, off)
	a.bytes += int64(n)
}

// addedRun records a run of rows appended in one call.
func (a *assembler) addedRun(parts []int32, offs []int64, n int) {
	a.parts = append(a.parts, parts...)
	a.offs = append(a.offs, offs...)
	a.bytes += int64(n)
}

func (a *assembler) full() bool { return len(a.parts) >= a.batch }
func (a *assembler) done() bool { return a.remaining == 0 }
func (a *assembler) rows() int  { return len(a.parts) }

// emit wraps the finished record batch with its positions and advances the
// split state to the consumed positions (failed parses included: they were
// read and must not be read again after a restore).
func (a *assembler) emit(rec arrow.RecordBatch) *consume.Batch {
	a.out.Rec = rec
	a.out.Partitions = append(a.out.Partitions[:0], a.parts...)
	a.out.Offsets = append(a.out.Offsets[:0], a.offs...)
	copy(a.out.Split, a.pos)
	a.out.Bytes = a.bytes
	a.stats.Records += int64(len(a.parts))
	a.stats.Bytes += a.bytes
	a.stats.Batches++
	a.parts, a.offs, a.bytes = a.parts[:0], a.offs[:0], 0
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
// message has arrived for timeout.
func (a *assembler) progress() { a.lastProgress = time.Now() }

func (a *assembler) stalled(timeout time.Duration) error {
	if time.Since(a.lastProgress) < timeout {
		return nil
	}
	var behind []string
	for p := range a.pos {
		if a.pos[p] < a.stop[p] {
			behind = append(behind, fmt.Sprintf("p%d at %d of %d", p, a.pos[p], a.stop[p]))
		}
	}
	return fmt.Errorf("source: no message for %v (%v)", timeout, behind)
}
