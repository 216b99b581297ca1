package rung

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/fastpathlab/fplab/source/consume"
	"github.com/fastpathlab/fplab/workloads"
)

// verifier checks every batch against the corpus as its layout placed it
// in the topic: the row count (full batches until the one short last
// batch), that each row's position holds a committed record (never a
// control record, an aborted record or a position past the corpus), that
// positions rise within each partition, and a checksum of the decoded
// columns against the generator's (a tombstone's is the corpus's
// NullHash: null value columns, and a keyed corpus's key and headers).
type verifier struct {
	batch      int
	partitions int
	exp        *hashWindows // each record's row hash, tombstones their NullHash
	layout     *workloads.Layout
	clean      bool // round-robin, no transactions: index = off*P + p
	txns       bool // the layout has transactions: aborted records
	last       []int64
	split      []int64 // the last batch's split position
	rows       int64
	nulls      int64
	batches    int64
	// shorts counts the batches that were not full; a read's last batch
	// may be short, and a read split over subtasks has one last batch per
	// subtask: maxShorts (1 unless subtasks) may be, none after them.
	shorts, maxShorts int
	twin              bool // batches without a record batch (checkTwin)
	// added partitions (a discover cell's: partitions partitions ..
	// partitions+added-1, created mid-read) each hold corpus records 0 ..
	// probe-1 at offsets 0 .. probe-1 (expectAdded); their rows are
	// verified as the corpus's and counted in addedRows, not rows
	added, probe int
	probeHashes  []uint64 // the hashes of records 0 .. probe-1
	addedRows    int64
	// live: a live read's batches may be short anywhere (the linger
	// rule), and each partition's offsets must follow each other without
	// a gap from 0, the fresh topic's first (liveNext)
	live bool
}

// newVerifier verifies against exp (the corpus's row hashes, tombstones'
// their NullHash) placed by layout. What it holds does not grow with the
// record count: exp reads the hashes in windows, and the layout answers
// where each record is and whether it is committed from its seed.
func newVerifier(batch int, l *workloads.Layout, exp *hashWindows) *verifier {
	v := &verifier{batch: batch, partitions: l.Partitions(), exp: exp, layout: l,
		clean: l.Shape() == workloads.Shape{}, txns: l.Txns() > 0, last: make([]int64, l.Partitions()), maxShorts: 1}
	for p := range v.last {
		v.last[p] = -1
	}
	return v
}

// expectAdded prepares v for added partitions, each written with the
// corpus's first probe records (a discover cell's); before any batch.
func (v *verifier) expectAdded(added, probe int) {
	v.added, v.probe = added, min(probe, v.layout.Count())
	for range added {
		v.last = append(v.last, -1)
	}
	v.probeHashes = make([]uint64, v.probe)
	for k := range v.probeHashes {
		v.probeHashes[k] = v.exp.direct(k)
	}
}

// checkAdded fails a read that did not hand over every record written to
// the added partitions (expectAdded).
func (v *verifier) checkAdded() error {
	for k := range v.added {
		p := v.partitions + k
		if got := v.last[p] + 1; got != int64(v.probe) {
			return fmt.Errorf("added partition %d: %d of its %d records handed over", p, got, v.probe)
		}
	}
	return nil
}

// addedIndex is the corpus record at (p, off) of an added partition
// (expectAdded): offset k holds record k.
func (v *verifier) addedIndex(p int32, off int64) (int, error) {
	if int(p) >= v.partitions+v.added || off < 0 || off >= int64(v.probe) {
		return 0, fmt.Errorf("partition %d offset %d is outside the corpus and the %d records written to each of the %d added partitions", p, off, v.probe, v.added)
	}
	return int(off), nil
}

// index is the corpus record at (p, off), or an error naming what the
// position holds instead.
func (v *verifier) index(p int32, off int64) (int, error) {
	if int(p) >= v.partitions && v.added > 0 {
		return v.addedIndex(p, off)
	}
	if v.clean {
		id := off*int64(v.partitions) + int64(p)
		if off < 0 || p < 0 || int(p) >= v.partitions || id >= int64(v.layout.Count()) {
			return 0, fmt.Errorf("partition %d offset %d is outside the corpus", p, off)
		}
		return int(id), nil
	}
	if int(p) < 0 || int(p) >= v.partitions || off < 0 || off >= v.layout.End(int(p)) {
		return 0, fmt.Errorf("partition %d offset %d is outside the corpus", p, off)
	}
	id, ok := v.layout.At(p, off)
	switch {
	case !ok:
		return 0, fmt.Errorf("partition %d offset %d is a control record (transaction marker), delivered as data", p, off)
	case v.txns && !v.layout.Committed(id):
		return 0, fmt.Errorf("partition %d offset %d is a record of an aborted transaction, delivered under read_committed", p, off)
	}
	return id, nil
}

// hash is the row hash the record id at (p, off) must decode to: from the
// partition's window (positions inlines its common case, a hit), or for an
// added partition the probe's.
func (v *verifier) hash(p int32, off int64, id int) (uint64, error) {
	if int(p) >= v.partitions {
		return v.probeHashes[id], nil
	}
	return v.exp.at(p, off, id)
}

// check verifies a batch in full: its positions, then its checksum.
func (v *verifier) check(b *consume.Batch) error {
	if b.Rec == nil {
		return v.checkTwin(b)
	}
	want, err := v.positions(b)
	if err != nil {
		return err
	}
	return v.sum(b.Rec, want, v.batches-1, b.Partitions, b.Offsets)
}

// size checks a batch of n rows: not empty, not over the batch size, and
// not after the last short batch a bounded read may hand over.
func (v *verifier) size(n int) error {
	switch {
	case v.shorts == v.maxShorts && !v.live:
		return fmt.Errorf("batch %d follows the last short batch (only the last may be short, one per subtask)", v.batches)
	case n > v.batch || n == 0:
		return fmt.Errorf("batch %d has %d rows (batch size %d)", v.batches, n, v.batch)
	}
	if n < v.batch {
		v.shorts++
	}
	return nil
}

// positions checks a batch's row count and positions, counts it in, and
// returns the checksum its decoded columns must have (v.sum). It reads the
// batch's position slices, which the reader reuses at its next Next.
func (v *verifier) positions(b *consume.Batch) (uint64, error) {
	n := int(b.Rec.NumRows())
	if n != len(b.Partitions) || n != len(b.Offsets) {
		return 0, fmt.Errorf("batch %d has %d rows but %d positions", v.batches, n, len(b.Partitions))
	}
	if err := v.size(n); err != nil {
		return 0, err
	}
	var want uint64
	added := 0
	w := v.exp
	for i, p := range b.Partitions {
		if int(p) >= v.partitions {
			added++
		}
		id, err := v.index(p, b.Offsets[i])
		if err != nil {
			return 0, fmt.Errorf("batch %d row %d: %w", v.batches, i, err)
		}
		if v.live {
			if err := v.liveNext(p, b.Offsets[i]); err != nil {
				return 0, fmt.Errorf("batch %d row %d: %w", v.batches, i, err)
			}
		}
		if b.Offsets[i] <= v.last[p] {
			return 0, fmt.Errorf("batch %d row %d: partition %d offset %d after offset %d (out of order or repeated)", v.batches, i, p, b.Offsets[i], v.last[p])
		}
		off := b.Offsets[i]
		v.last[p] = off
		// the window's common case inline (hash has the rest)
		if int(p) < v.partitions {
			if k := off - w.base[p]; uint64(k) < uint64(len(w.hashes[p])) {
				want += w.hashes[p][k]
				continue
			}
		}
		h, err := v.hash(p, off, id)
		if err != nil {
			return 0, fmt.Errorf("batch %d row %d: %w", v.batches, i, err)
		}
		want += h
	}
	if v.layout.Shape().Nulls > 0 {
		v.nulls += int64(nullRows(b))
	}
	v.split = append(v.split[:0], b.Split...)
	v.rows += int64(n - added)
	v.addedRows += int64(added)
	v.batches++
	return want, nil
}

// sum checks the checksum of batch k's decoded columns against want, the
// corpus's (positions), naming the rows that differ by their positions
// parts and offs. It reads only what positions left behind unchanged
// (the corpus's hashes and layout), so it may run on another goroutine
// than positions (checker).
func (v *verifier) sum(rec arrow.RecordBatch, want uint64, k int64, parts []int32, offs []int64) error {
	if got := workloads.BatchChecksum(rec); got != want {
		return v.mismatch(rec, k, parts, offs, got, want)
	}
	return nil
}

// checkTwin takes a consume-only twin's batch (decoder none: positions, no
// record batch). It verifies nothing per row, which is the point of a
// twin, only the batch sizes; checkEnd then holds the twin to the same
// count and final split as its path, so a twin that skipped or repeated
// records still fails.
func (v *verifier) checkTwin(b *consume.Batch) error {
	v.twin = true
	n := len(b.Partitions)
	switch {
	case n != len(b.Offsets):
		return fmt.Errorf("batch %d has %d partitions but %d offsets", v.batches, n, len(b.Offsets))
	}
	if err := v.size(n); err != nil {
		return err
	}
	v.split = append(v.split[:0], b.Split...)
	v.rows += int64(n)
	v.batches++
	return nil
}

// nullRows counts a batch's tombstone rows: the first column is null only
// in them (the value columns come first; a keyed tombstone keeps its key
// and headers).
func nullRows(b *consume.Batch) int {
	if b.Rec.NumCols() == 0 {
		return 0
	}
	return b.Rec.Column(0).NullN()
}

// checkEnd fails a read of [start, stop) that did not deliver exactly the
// committed records and tombstones the layout holds there, or whose final
// split position is not the stop (a tail of control records or aborted
// records must still move it there).
func (v *verifier) checkEnd(st consume.Stats, start, stop []int64) error {
	var want workloads.Tally
	for p := range v.partitions {
		for off := start[p]; off < stop[p] && off < v.layout.End(p); off++ {
			id, ok := v.layout.At(int32(p), off)
			if !ok || (v.txns && !v.layout.Committed(id)) {
				continue
			}
			want.Records++
			if v.layout.Null(id) {
				want.Nulls++
			}
		}
	}
	switch {
	case v.rows != int64(want.Records):
		return fmt.Errorf("read %d verified records, the corpus holds %d committed records in the range", v.rows, want.Records)
	case v.twin && v.layout.Shape().Nulls > 0 && st.Nulls != int64(want.Nulls):
		return fmt.Errorf("%d tombstones counted by the reader, the corpus holds %d", st.Nulls, want.Nulls)
	case !v.twin && v.layout.Shape().Nulls > 0 && (v.nulls != int64(want.Nulls) || st.Nulls != int64(want.Nulls)):
		return fmt.Errorf("%d tombstone rows verified and %d counted by the reader, the corpus holds %d", v.nulls, st.Nulls, want.Nulls)
	}
	if v.batches > 0 {
		for p := range v.partitions {
			if v.split[p] != stop[p] {
				return fmt.Errorf("partition %d ends at split position %d, want the stop %d", p, v.split[p], stop[p])
			}
		}
	}
	return nil
}

// mismatch explains a batch whose checksum differs from the corpus's by
// the rows whose decoded values differ from the records the corpus wrote at
// their positions: one such row is a corrupt record, named by position;
// many (a wrong seed, schema or codec) are counted.
func (v *verifier) mismatch(rec arrow.RecordBatch, k int64, parts []int32, offs []int64, got, want uint64) error {
	bad, first := 0, -1
	for i, p := range parts {
		id, _ := v.index(p, offs[i])
		h := v.exp.direct(id)
		if int(p) >= v.partitions {
			h = v.probeHashes[id]
		}
		if workloads.RowHash(rec, i) != h {
			if bad++; first < 0 {
				first = i
			}
		}
	}
	switch {
	case bad == 1:
		return fmt.Errorf("batch %d row %d: the record at partition %d offset %d decodes to values the corpus did not write (corrupt record)",
			k, first, parts[first], offs[first])
	case bad > 1:
		return fmt.Errorf("batch %d: checksum of decoded columns %016x, corpus says %016x: %d of %d rows differ from the corpus, the first at partition %d offset %d",
			k, got, want, bad, len(parts), parts[first], offs[first])
	}
	return fmt.Errorf("batch %d: checksum of decoded columns %016x, corpus says %016x", k, got, want)
}

// checkParsed fails the cell when a record of the corpus did not decode,
// naming where the first one is: a corrupt record is a decode failure at a
// position, not a short count of verified records.
func checkParsed(st consume.Stats) error {
	if st.ParseFailures == 0 {
		return nil
	}
	if f := st.FirstParseFailure; f != nil {
		return fmt.Errorf("%d record(s) of the corpus do not decode; the first: %w", st.ParseFailures, f)
	}
	return fmt.Errorf("%d parse failures on a valid corpus", st.ParseFailures)
}

// verifyingReader checks every batch against the corpus on its way to a
// checkpointing reader loop, which consumes batches itself.
type verifyingReader struct {
	consume.Reader
	v *verifier
}

func (r *verifyingReader) Next(ctx context.Context) (*consume.Batch, error) {
	b, err := r.Reader.Next(ctx)
	if err != nil {
		return nil, err
	}
	err = r.v.check(b)
	if err == nil {
		// A reader process is killed and restarted: report a corrupt
		// record at the batch that skipped it, before any verdict.
		err = checkParsed(r.Reader.Stats())
	}
	if err != nil {
		b.Rec.Release()
		return nil, err
	}
	return b, nil
}

// liveNext checks that off is the next offset of partition p in a live
// read of a fresh topic: the producer wrote every offset from 0 without a
// gap (an idempotent producer, no transactions), so a skipped offset is a
// record lost by the path (an early batch that dropped a row) and an
// offset at or below the last one a record delivered twice.
func (v *verifier) liveNext(p int32, off int64) error {
	if p < 0 || int(p) >= v.partitions+v.added {
		return fmt.Errorf("partition %d is not one of the topic's %d", p, v.partitions+v.added)
	}
	switch want := v.last[p] + 1; {
	case off > want:
		return fmt.Errorf("partition %d offset %d arrived after offset %d: offset %d was never delivered (missing)", p, off, v.last[p], want)
	case off < want:
		return fmt.Errorf("partition %d offset %d delivered again after offset %d (duplicate)", p, off, v.last[p])
	}
	return nil
}
