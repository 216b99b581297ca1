package workloads

import (
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
)

// TestLayoutPlacesEveryRecordOnce walks every offset of every partition of
// several shapes and checks that At and Place are inverse, that each record
// sits at exactly one offset, and that offsets not holding a record are
// exactly the control records a transactional topic has.
func TestLayoutPlacesEveryRecordOnce(t *testing.T) {
	shapes := []Shape{
		{},
		{Nulls: 0.01},
		{Txn: true},
		{Txn: true, Nulls: 0.1, Uneven: true},
		{Empty: 1},
		{Uneven: true, Empty: 1},
	}
	for _, sh := range shapes {
		for _, count := range []int{0, 1, 7, 2301} {
			l, err := NewLayout(42, count, 4, sh)
			if err != nil {
				t.Fatal(err)
			}
			seen := make([]bool, count)
			controls := 0
			for p := range 4 {
				for off := int64(0); off < l.End(p); off++ {
					i, ok := l.At(int32(p), off)
					if !ok {
						controls++
						continue
					}
					if seen[i] {
						t.Fatalf("%+v n=%d: record %d at two offsets", sh, count, i)
					}
					seen[i] = true
					q, seq := l.Place(i)
					if q != int32(p) || l.Offset(seq) != off {
						t.Fatalf("%+v n=%d: record %d at p%d/%d but Place says p%d seq %d (offset %d)", sh, count, i, p, off, q, seq, l.Offset(seq))
					}
				}
				if _, ok := l.At(int32(p), l.End(p)); ok {
					t.Fatalf("%+v: a record past the end of p%d", sh, p)
				}
			}
			for i, s := range seen {
				if !s {
					t.Fatalf("%+v n=%d: record %d placed nowhere", sh, count, i)
				}
			}
			wantControls := 0
			if sh.Txn {
				for p := range 4 {
					wantControls += (l.Records(p) + TxnRecords - 1) / TxnRecords
				}
			}
			if controls != wantControls {
				t.Errorf("%+v n=%d: %d control offsets, want %d (one per transaction per partition)", sh, count, controls, wantControls)
			}
			for p := 4 - sh.Empty; p < 4; p++ {
				if l.End(p) != 0 {
					t.Errorf("%+v: empty partition %d ends at %d", sh, p, l.End(p))
				}
			}
		}
	}
}

func TestLayoutUnevenIsUneven(t *testing.T) {
	l, err := NewLayout(1, 10000, 3, Shape{Uneven: true})
	if err != nil {
		t.Fatal(err)
	}
	if a, b, c := l.Records(0), l.Records(1), l.Records(2); !(a < b && b < c) || a+b+c != 10000 {
		t.Fatalf("uneven records per partition %d %d %d", a, b, c)
	}
}

// TestLayoutTransactions: the first transaction commits, the last aborts,
// about AbortShare of the others abort, and the tally agrees with a walk.
func TestLayoutTransactions(t *testing.T) {
	l, err := NewLayout(42, 3*TxnRecords*60+17, 3, Shape{Txn: true, Nulls: 0.01})
	if err != nil {
		t.Fatal(err)
	}
	k := l.Txns()
	if k != 61 {
		t.Fatalf("%d transactions, want 61", k)
	}
	if l.Aborted(0) || !l.Aborted(k-1) {
		t.Fatalf("first aborted=%v last aborted=%v", l.Aborted(0), l.Aborted(k-1))
	}
	aborted := 0
	for j := range k {
		if l.Aborted(j) {
			aborted++
		}
	}
	if aborted < 3 || aborted > 15 {
		t.Errorf("%d of %d transactions aborted, want about %g", aborted, k, AbortShare)
	}
	tally := l.Tally()
	if tally.Records+tally.Aborted != l.Count() || tally.Aborted == 0 || tally.Nulls == 0 {
		t.Fatalf("tally %+v for %d records", tally, l.Count())
	}
	// the tail of every partition is the aborted last transaction
	for p := range 3 {
		last, _ := l.Index(int32(p), l.Records(p)-1)
		if l.Committed(last) {
			t.Errorf("p%d: last record %d committed, want aborted", p, last)
		}
		if _, ok := l.At(int32(p), l.End(p)-1); ok {
			t.Errorf("p%d: last offset holds a record, want the abort marker", p)
		}
	}
}

// TestLayoutNullsMidAndTail: tombstones sit mid-partition and as the last
// record of the even partitions.
func TestLayoutNullsMidAndTail(t *testing.T) {
	l, err := NewLayout(9, 20000, 3, Shape{Nulls: 0.01})
	if err != nil {
		t.Fatal(err)
	}
	mid := 0
	for i := range l.Count() {
		p, seq := l.Place(i)
		if l.Null(i) && seq < l.Records(int(p))-1 {
			mid++
		}
	}
	if mid < 100 || mid > 300 {
		t.Errorf("%d mid-partition nulls in 20000 records at 1%%", mid)
	}
	for p := range 3 {
		last, _ := l.Index(int32(p), l.Records(p)-1)
		if got, want := l.Null(last), p%2 == 0; got != want {
			t.Errorf("p%d last record null=%v, want %v", p, got, want)
		}
	}
	clean, _ := NewLayout(9, 20000, 3, Shape{})
	for i := range clean.Count() {
		if clean.Null(i) || !clean.Committed(i) {
			t.Fatalf("clean layout: record %d null or uncommitted", i)
		}
	}
}

func TestLayoutRefusesBadShapes(t *testing.T) {
	for _, c := range []struct {
		count, parts int
		sh           Shape
		want         string
	}{
		{-1, 3, Shape{}, "record count"},
		{10, 0, Shape{}, "partitions"},
		{10, 3, Shape{Nulls: 0.6}, "nulls"},
		{10, 3, Shape{Nulls: -0.1}, "nulls"},
		{10, 3, Shape{Empty: 3}, "empty partitions"},
	} {
		_, err := NewLayout(1, c.count, c.parts, c.sh)
		if err == nil || !strings.HasPrefix(err.Error(), "layout: "+c.want) {
			t.Errorf("NewLayout(%d, %d, %+v) = %v, want %q", c.count, c.parts, c.sh, err, c.want)
		}
	}
}

// TestNullRowsHashAsNullRowHash: a tombstone's row, appended by every
// format's columnar decoder and by the row builder, hashes to NullRowHash
// and never to a corpus record's hash.
func TestNullRowsHashAsNullRowHash(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	for _, cb := range combos(t) {
		s, codec, name, f := cb.schema, cb.codec, cb.schema.Name, cb.codec.Format()
		c := NewCorpus(s, codec, 3, 50)
		col := codec.NewColumnar(mem)
		rb := NewRowBuilder(codec.Schema(), mem)
		for i := range 3 {
			if err := col.Append(c.Message(nil, i)); err != nil {
				t.Fatal(err)
			}
			col.AppendNull()
			var r Row
			c.Row(i, &r)
			rb.Add(&r)
			rb.AddNull()
		}
		want := NullRowHash(codec.Schema())
		a, b := col.NewRecordBatch(), rb.NewRecordBatch()
		for _, rec := range [...]struct {
			name string
			sum  uint64
		}{{"columnar", BatchChecksum(a)}, {"rows", BatchChecksum(b)}} {
			if got := rec.sum; got != c.Checksum(0, 3)+3*want {
				t.Errorf("%s/%s %s: checksum %x, want corpus + 3 nulls %x", name, f, rec.name, got, c.Checksum(0, 3)+3*want)
			}
		}
		for i := range 6 {
			if (RowHash(a, i) == want) != (i%2 == 1) || (RowHash(b, i) == want) != (i%2 == 1) {
				t.Errorf("%s/%s row %d: null hash where not expected (or missing)", name, f, i)
			}
		}
		for i := range c.Count() {
			if c.Hash(i) == want {
				t.Errorf("%s/%s: record %d hashes as a tombstone", name, f, i)
			}
		}
		a.Release()
		b.Release()
		col.Release()
		rb.Release()
	}
}

// TestValueSizeScalesOneColumn: a padded corpus's values are about the
// size asked for, every field but extra equals the unpadded record's, and
// the corpus ID says the size.
func TestValueSizeScalesOneColumn(t *testing.T) {
	codec := mustCodec(t, FormatJSON, "bid")
	s := codec.Schema()
	plain := NewCorpus(s, codec, 5, 200)
	for _, size := range []int{1024, 16384} {
		big := NewCorpus(s, codec, 5, 200, ValueSize(size))
		if !strings.HasSuffix(big.ID(), "-v"+strconv.Itoa(size)) || big.ValueSize() != size {
			t.Errorf("ID %s, ValueSize %d for size %d", big.ID(), big.ValueSize(), size)
		}
		total := 0
		for i := range big.Count() {
			total += len(big.Message(nil, i))
			var a, b Row
			plain.Row(i, &a)
			big.Row(i, &b)
			if !strings.HasPrefix(b.Extra, a.Extra) || len(b.Extra)-len(a.Extra) != size-naturalValue {
				t.Fatalf("record %d: extra %d bytes, plain %d", i, len(b.Extra), len(a.Extra))
			}
			a.Extra, b.Extra = "", ""
			if !reflect.DeepEqual(a, b) {
				t.Fatalf("record %d: fields other than extra differ", i)
			}
		}
		if mean := total / big.Count(); mean < size*9/10 || mean > size*11/10 {
			t.Errorf("size %d: mean JSON value %d bytes", size, mean)
		}
	}
	if NewCorpus(s, codec, 5, 200, ValueSize(100)).ID() != plain.ID() {
		t.Error("a size at or below the natural one changed the corpus ID")
	}
}
