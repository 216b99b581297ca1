package workloads

import (
	"fmt"
	"math"

	"github.com/fastpathlab/fplab/cell"
)

// Shape is what a topic holds besides its records' values: how the records
// are spread over partitions, which of them are tombstones (null values),
// and whether they are written in transactions, some of them aborted.
// The zero Shape is the lab's clean topic: records round-robin over every
// partition, no nulls, no transactions.
type Shape struct {
	// Nulls is the share of records written with a null value (a
	// tombstone), in [0, MaxNulls]. When it is above zero the last record
	// of every even-numbered non-empty partition is a tombstone as well, so
	// nulls sit both mid-partition and at the tail.
	Nulls float64
	// Txn writes the records in transactions of TxnRecords records per
	// partition, AbortShare of them aborted and the last one always
	// aborted, so aborted records and abort markers are the tail of the
	// longest partitions.
	Txn bool
	// Empty is the number of trailing partitions that get no record.
	Empty int
	// Uneven spreads the records over the non-empty partitions in
	// proportion 1:2:...:D instead of evenly.
	Uneven bool
}

// Limits and constants of a Shape.
const (
	// MaxNulls bounds Shape.Nulls: a corpus of mostly tombstones measures
	// nothing about decoding.
	MaxNulls = 0.5
	// TxnRecords is the records per partition in one transaction.
	TxnRecords = 500
	// AbortShare is the share of transactions aborted (the last one is
	// aborted as well).
	AbortShare = 0.1
)

// Layout places a corpus's records in a topic of a Shape: record i's
// partition and offset, which records are tombstones, which are aborted,
// and which offsets hold control records (transaction markers). It is pure
// arithmetic on (seed, count, partitions, shape): the loader writes by it
// and every consume path is verified by it, record by record.
type Layout struct {
	seed       uint64
	count      int
	partitions int
	shape      Shape
	data       int   // partitions that get records
	weight     []int // records of partition p per round (len data)
	cum        []int // sum of weight before p
	round      int   // sum of weight
	n          []int // records per partition (len partitions)
	txns       int   // transactions (0: none)
}

// NewLayout returns the layout of count records over partitions for shape.
func NewLayout(seed uint64, count, partitions int, shape Shape) (*Layout, error) {
	switch {
	case count < 0:
		return nil, fmt.Errorf("layout: record count must be >= 0, got %d", count)
	case partitions < 1:
		return nil, fmt.Errorf("layout: partitions must be >= 1, got %d", partitions)
	case math.IsNaN(shape.Nulls) || shape.Nulls < 0 || shape.Nulls > MaxNulls:
		return nil, fmt.Errorf("layout: nulls must be a share in [0, %g], got %g", MaxNulls, shape.Nulls)
	case shape.Empty < 0 || shape.Empty >= partitions:
		return nil, fmt.Errorf("layout: empty partitions must be 0..%d for %d partitions, got %d", partitions-1, partitions, shape.Empty)
	}
	l := &Layout{seed: seed, count: count, partitions: partitions, shape: shape, data: partitions - shape.Empty}
	l.weight = make([]int, l.data)
	l.cum = make([]int, l.data)
	for p := range l.weight {
		l.weight[p] = 1
		if shape.Uneven {
			l.weight[p] = p + 1
		}
		l.cum[p] = l.round
		l.round += l.weight[p]
	}
	l.n = make([]int, partitions)
	full, rest := count/l.round, count%l.round
	for p := range l.data {
		l.n[p] = full*l.weight[p] + min(max(rest-l.cum[p], 0), l.weight[p])
	}
	if shape.Txn {
		for _, n := range l.n {
			l.txns = max(l.txns, (n+TxnRecords-1)/TxnRecords)
		}
	}
	return l, nil
}

// Count is the number of records the layout places (committed or not).
func (l *Layout) Count() int { return l.count }

// Partitions is the topic's partition count.
func (l *Layout) Partitions() int { return l.partitions }

// Shape is the layout's shape.
func (l *Layout) Shape() Shape { return l.shape }

// Records is the number of records in partition p.
func (l *Layout) Records(p int) int { return l.n[p] }

// Place is record i's partition and its sequence number within it (its
// offset when the topic has no transactions).
func (l *Layout) Place(i int) (p int32, seq int) {
	b, r := i/l.round, i%l.round
	q := 0
	for q+1 < l.data && l.cum[q+1] <= r {
		q++
	}
	return int32(q), b*l.weight[q] + r - l.cum[q]
}

// Index is the record with sequence number seq in partition p, and false
// if there is none.
func (l *Layout) Index(p int32, seq int) (int, bool) {
	if p < 0 || int(p) >= l.data || seq < 0 || seq >= l.n[p] {
		return 0, false
	}
	w := l.weight[p]
	return seq/w*l.round + l.cum[p] + seq%w, true
}

// Offset is the offset of the record with sequence number seq: each
// transaction before it left one control record.
func (l *Layout) Offset(seq int) int64 {
	if l.txns == 0 {
		return int64(seq)
	}
	return int64(seq + seq/TxnRecords)
}

// At is the record at offset off of partition p: its index and true, or
// false for a control record or an offset past the partition's end.
func (l *Layout) At(p int32, off int64) (int, bool) {
	if off < 0 || p < 0 || int(p) >= l.partitions {
		return 0, false
	}
	seq := int(off)
	if l.txns > 0 {
		k, j := int(off/(TxnRecords+1)), int(off%(TxnRecords+1))
		if j == TxnRecords {
			return 0, false
		}
		seq = k*TxnRecords + j
	}
	return l.Index(p, seq)
}

// End is the offset after partition p's last entry: its high watermark once
// the corpus is loaded into a new topic.
func (l *Layout) End(p int) int64 {
	n := l.n[p]
	if l.txns == 0 || n == 0 {
		return int64(n)
	}
	return int64(n + (n+TxnRecords-1)/TxnRecords)
}

// Txns is the number of transactions (0 without transactions).
func (l *Layout) Txns() int { return l.txns }

// TxnOf is the transaction record i is written in.
func (l *Layout) TxnOf(i int) int {
	_, seq := l.Place(i)
	return seq / TxnRecords
}

// TxnRange is the sequence numbers [from, to) of partition p in
// transaction k (empty when p has no record in it).
func (l *Layout) TxnRange(p, k int) (from, to int) {
	from = min(k*TxnRecords, l.n[p])
	return from, min(from+TxnRecords, l.n[p])
}

// Aborted reports whether transaction k is aborted: a seeded AbortShare of
// them, and always the last one; never the first unless it is the only one.
func (l *Layout) Aborted(k int) bool {
	switch {
	case l.txns == 0 || k < 0 || k >= l.txns:
		return false
	case k == l.txns-1:
		return true
	case k == 0:
		return false
	}
	return share(l.seed, uint64(k), 0x5DEECE66D) < AbortShare
}

// Committed reports whether record i is visible to a read_committed
// consumer (every record is, without transactions).
func (l *Layout) Committed(i int) bool { return l.txns == 0 || !l.Aborted(l.TxnOf(i)) }

// Null reports whether record i is a tombstone.
func (l *Layout) Null(i int) bool {
	if l.shape.Nulls == 0 {
		return false
	}
	p, seq := l.Place(i)
	if p%2 == 0 && seq == l.n[p]-1 {
		return true
	}
	return share(l.seed, uint64(i), 0x2545F4914F6CDD1D) < l.shape.Nulls
}

// Tally counts what a read_committed consumer of the whole topic gets.
type Tally struct {
	Records int // committed records, tombstones included
	Nulls   int // committed tombstones
	Aborted int // records of aborted transactions
}

// Tally walks every record once.
func (l *Layout) Tally() Tally {
	var t Tally
	for i := range l.count {
		switch {
		case !l.Committed(i):
			t.Aborted++
		case l.Null(i):
			t.Records++
			t.Nulls++
		default:
			t.Records++
		}
	}
	return t
}

// share maps (seed, k) to a uniform value in [0, 1).
func share(seed, k, salt uint64) float64 {
	return float64(splitmix(seed^splitmix(k+salt))>>11) / (1 << 53)
}

// ShapeOf is the topic shape a cell names: its tombstone share, its
// transactions, and the parity cases that shape the topic (an empty last
// partition, uneven partitions).
func ShapeOf(c cell.Cell) Shape {
	return Shape{
		Nulls:  c.Nulls,
		Txn:    c.Txn,
		Empty:  b2i(c.Case == cell.CaseEmptyPartition),
		Uneven: c.Case == cell.CaseUneven,
	}
}

// CorpusOptsOf are the corpus options a cell names: its record size, and
// keys and headers for keys=on.
func CorpusOptsOf(c cell.Cell) []CorpusOpt {
	var opts []CorpusOpt
	if c.Size != 0 {
		opts = append(opts, ValueSize(c.Size))
	}
	if c.Keys {
		opts = append(opts, Keys())
	}
	return opts
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// Bounds are the offsets a whole-topic read starts and stops at: 0 and
// End(p) for every partition.
func (l *Layout) Bounds() (start, stop []int64) {
	start = make([]int64, l.partitions)
	stop = make([]int64, l.partitions)
	for p := range stop {
		stop[p] = l.End(p)
	}
	return start, stop
}

// Holes counts the offsets in [lo, hi) of partition p that hold no record
// a read_committed consumer gets: control records and aborted records.
func (l *Layout) Holes(p int, lo, hi int64) int64 {
	if l.txns == 0 {
		return 0
	}
	var n int64
	for off := max(lo, 0); off < min(hi, l.End(p)); off++ {
		if i, ok := l.At(int32(p), off); !ok || !l.Committed(i) {
			n++
		}
	}
	return n
}
