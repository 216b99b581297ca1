package rung

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/fastpathlab/fplab/cell"
	"github.com/fastpathlab/fplab/clusters"
	"github.com/fastpathlab/fplab/ladder/rungargs"
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
	expected   []uint64 // by corpus index, tombstones as their NullHash
	layout     *workloads.Layout
	clean      bool   // round-robin, no transactions: index = off*P + p
	aborted    []bool // by corpus index; nil without transactions
	last       []int64
	split      []int64 // the last batch's split position
	rows       int64
	nulls      int64
	batches    int64
	short      bool
	twin       bool // batches without a record batch (checkTwin)
}

// newVerifier verifies against expected (the corpus's row hashes) placed by
// layout; tombstones' hashes are replaced by null(i) here (the corpus's
// NullHash).
func newVerifier(batch int, l *workloads.Layout, null func(i int) uint64, expected []uint64) *verifier {
	v := &verifier{batch: batch, partitions: l.Partitions(), expected: expected, layout: l,
		clean: l.Shape() == workloads.Shape{}, last: make([]int64, l.Partitions())}
	for p := range v.last {
		v.last[p] = -1
	}
	if l.Shape().Nulls > 0 {
		v.expected = append([]uint64(nil), expected...)
		for i := range v.expected {
			if l.Null(i) {
				v.expected[i] = null(i)
			}
		}
	}
	if l.Txns() > 0 {
		v.aborted = make([]bool, l.Count())
		for i := range v.aborted {
			v.aborted[i] = !l.Committed(i)
		}
	}
	return v
}

// index is the corpus record at (p, off), or an error naming what the
// position holds instead.
func (v *verifier) index(p int32, off int64) (int, error) {
	if v.clean {
		id := off*int64(v.partitions) + int64(p)
		if off < 0 || p < 0 || int(p) >= v.partitions || id >= int64(len(v.expected)) {
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
	case v.aborted != nil && v.aborted[id]:
		return 0, fmt.Errorf("partition %d offset %d is a record of an aborted transaction, delivered under read_committed", p, off)
	}
	return id, nil
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

// positions checks a batch's row count and positions, counts it in, and
// returns the checksum its decoded columns must have (v.sum). It reads the
// batch's position slices, which the reader reuses at its next Next.
func (v *verifier) positions(b *consume.Batch) (uint64, error) {
	n := int(b.Rec.NumRows())
	if n != len(b.Partitions) || n != len(b.Offsets) {
		return 0, fmt.Errorf("rung: batch %d has %d rows but %d positions", v.batches, n, len(b.Partitions))
	}
	if v.short {
		return 0, fmt.Errorf("rung: batch %d follows a short batch (only the last may be short)", v.batches)
	}
	if n > v.batch || n == 0 {
		return 0, fmt.Errorf("rung: batch %d has %d rows (batch size %d)", v.batches, n, v.batch)
	}
	v.short = n < v.batch
	var want uint64
	for i, p := range b.Partitions {
		id, err := v.index(p, b.Offsets[i])
		if err != nil {
			return 0, fmt.Errorf("rung: batch %d row %d: %w", v.batches, i, err)
		}
		if b.Offsets[i] <= v.last[p] {
			return 0, fmt.Errorf("rung: batch %d row %d: partition %d offset %d after offset %d (out of order or repeated)", v.batches, i, p, b.Offsets[i], v.last[p])
		}
		v.last[p] = b.Offsets[i]
		want += v.expected[id]
	}
	if v.layout.Shape().Nulls > 0 {
		v.nulls += int64(nullRows(b))
	}
	v.split = append(v.split[:0], b.Split...)
	v.rows += int64(n)
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
		return fmt.Errorf("rung: batch %d has %d partitions but %d offsets", v.batches, n, len(b.Offsets))
	case v.short:
		return fmt.Errorf("rung: batch %d follows a short batch (only the last may be short)", v.batches)
	case n > v.batch || n == 0:
		return fmt.Errorf("rung: batch %d has %d rows (batch size %d)", v.batches, n, v.batch)
	}
	v.short = n < v.batch
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
			if !ok || (v.aborted != nil && v.aborted[id]) {
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
		return fmt.Errorf("rung: read %d verified records, the corpus holds %d committed records in the range", v.rows, want.Records)
	case v.twin && v.layout.Shape().Nulls > 0 && st.Nulls != int64(want.Nulls):
		return fmt.Errorf("rung: %d tombstones counted by the reader, the corpus holds %d", st.Nulls, want.Nulls)
	case !v.twin && v.layout.Shape().Nulls > 0 && (v.nulls != int64(want.Nulls) || st.Nulls != int64(want.Nulls)):
		return fmt.Errorf("rung: %d tombstone rows verified and %d counted by the reader, the corpus holds %d", v.nulls, st.Nulls, want.Nulls)
	}
	if v.batches > 0 {
		for p := range v.partitions {
			if v.split[p] != stop[p] {
				return fmt.Errorf("rung: partition %d ends at split position %d, want the stop %d", p, v.split[p], stop[p])
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
		if workloads.RowHash(rec, i) != v.expected[id] {
			if bad++; first < 0 {
				first = i
			}
		}
	}
	switch {
	case bad == 1:
		return fmt.Errorf("rung: batch %d row %d: the record at partition %d offset %d decodes to values the corpus did not write (corrupt record)",
			k, first, parts[first], offs[first])
	case bad > 1:
		return fmt.Errorf("rung: batch %d: checksum of decoded columns %016x, corpus says %016x: %d of %d rows differ from the corpus, the first at partition %d offset %d",
			k, got, want, bad, len(parts), parts[first], offs[first])
	}
	return fmt.Errorf("rung: batch %d: checksum of decoded columns %016x, corpus says %016x", k, got, want)
}

// checkParsed fails the cell when a record of the corpus did not decode,
// naming where the first one is: a corrupt record is a decode failure at a
// position, not a short count of verified records.
func checkParsed(st consume.Stats) error {
	if st.ParseFailures == 0 {
		return nil
	}
	if f := st.FirstParseFailure; f != nil {
		return fmt.Errorf("rung: %d record(s) of the corpus do not decode; the first: %w", st.ParseFailures, f)
	}
	return fmt.Errorf("rung: %d parse failures on a valid corpus", st.ParseFailures)
}

// checkClaims fails the cell when what the reader proves differs from what
// the cell claims, or when it did not read the whole corpus.
func checkClaims(c *rungargs.Cell, st consume.Stats, as consume.Assertions, v *verifier) error {
	if err := checkParsed(st); err != nil {
		return err
	}
	start, stop := v.layout.Bounds()
	if err := v.checkEnd(st, start, stop); err != nil {
		return err
	}
	return checkPath(c, st, as)
}

// checkPath fails the cell when the reader is not the path, or does not run
// with the check.crcs, the cell claims.
func checkPath(c *rungargs.Cell, st consume.Stats, as consume.Assertions) error {
	if err := checkParsed(st); err != nil {
		return err
	}
	if as.CheckCRCs != c.CRC {
		return fmt.Errorf("rung: cell claims check.crcs=%v but the client runs with %v (%s)", c.CRC, as.CheckCRCs, as.CheckCRCsSource)
	}
	var ok bool
	switch c.Value(cell.Decoder) {
	case cell.DecoderLab:
		ok = as.Decoder == consume.DecoderLab
	case cell.DecoderNone:
		ok = as.Decoder == consume.DecoderNone
	default: // stock: a library's name and version
		ok = as.Decoder != "" && as.Decoder != consume.DecoderLab && as.Decoder != consume.DecoderNone
	}
	if !ok {
		return fmt.Errorf("rung: cell claims decoder=%s but the reader decodes with %q", c.Value(cell.Decoder), as.Decoder)
	}
	switch consume.Path(c.Path) {
	case consume.PathFast:
		// One crossing per drain: a bulk drain moves many records per
		// crossing. Demand at least min(batch, 16) on average, which a
		// per-record fallback (1 per crossing) cannot meet.
		need := int64(16)
		if int64(c.Batch) < need {
			need = int64(c.Batch)
		}
		if st.NonEmpty == 0 || st.Records/st.NonEmpty < need {
			return fmt.Errorf("rung: path=fast made %d non-empty crossings for %d records (< %d records per crossing): not a bulk drain", st.NonEmpty, st.Records, need)
		}
		if st.Polls != 0 {
			return fmt.Errorf("rung: path=fast called Poll %d times", st.Polls)
		}
	case consume.PathRowwise, consume.PathShallow:
		if st.Polls < st.Records || st.Crossings != 0 {
			return fmt.Errorf("rung: path=%s made %d polls and %d drains for %d records: not per-record Poll", c.Path, st.Polls, st.Crossings, st.Records)
		}
	}
	return nil
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

// checkBrokers checks the cell's broker count against the cluster's
// metadata and returns the cluster the cell reads.
func checkBrokers(ctx context.Context, c *rungargs.Cell) (clusters.Cluster, error) {
	cl := clusters.Cluster{Bootstrap: c.Bootstrap, Props: c.Props}
	brokers, err := clusters.BrokerCount(ctx, cl)
	if err != nil {
		return cl, err
	}
	if brokers != c.Brokers {
		return cl, fmt.Errorf("rung: cell claims brokers=%d but cluster metadata lists %d", c.Brokers, brokers)
	}
	return cl, nil
}

// checkCountedTopic is a reference cell's claims (cell.CountingPath: it
// counts records and verifies none), checked before it reads: the cluster's
// broker count, a topic holding exactly the corpus in the cell's
// partitions, and the stored codec. Its count is then checked against the
// corpus by the runner.
func checkCountedTopic(ctx context.Context, c *rungargs.Cell) error {
	cl, err := checkBrokers(ctx, c)
	if err != nil {
		return err
	}
	ready, err := clusters.TopicReady(ctx, cl, c.Topic, c.Partitions, c.Records)
	if err != nil {
		return err
	}
	if !ready {
		return fmt.Errorf("rung: topic %q does not hold the %d-record corpus in %d partitions", c.Topic, c.Records, c.Partitions)
	}
	return checkCompression(ctx, cl, c)
}

// checkCompression reads back the codec the corpus's batches are stored
// with (clusters.StoredCompression) and fails the cell unless it is the
// one the cell claims: a compression cell measured on a plain corpus, or
// the reverse, would report another shape's throughput.
func checkCompression(ctx context.Context, cl clusters.Cluster, c *rungargs.Cell) error {
	got, err := clusters.StoredCompression(ctx, cl, c.Topic, c.Partitions)
	if err != nil {
		return fmt.Errorf("rung: %w", err)
	}
	if want := c.Value(cell.Compression); got != want {
		return fmt.Errorf("rung: cell claims compression=%s but topic %s is stored with %s", want, c.Topic, got)
	}
	return nil
}
