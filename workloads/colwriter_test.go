package workloads

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// TestColWriterMatchesBuilder: every decoded format's Columnar, fed runs
// of records and tombstones over batches of very different sizes (past the
// first reservation, then outgrowing and under-using the previous batch's),
// emits batches equal to what the rowwise path's Arrow builders build from
// the same rows, and returns every buffer. It runs over a plain allocator
// and over one whose AllocateNoZero hands out junk, so no column may rely
// on zeroed memory.
func TestColWriterMatchesBuilder(t *testing.T) {
	for _, dirty := range []bool{false, true} {
		for _, cb := range combos(t) {
			if cb.codec.Format() == FormatRaw {
				continue // rawColumnar: TestRawColumnarMatchesBuilder
			}
			t.Run(fmt.Sprintf("%s/dirty=%v", cb.name(), dirty), func(t *testing.T) {
				checked := memory.NewCheckedAllocator(memory.NewGoAllocator())
				defer checked.AssertSize(t, 0)
				var mem memory.Allocator = checked
				if dirty {
					mem = junkAllocator{checked}
				}
				col := cb.codec.NewColumnar(mem)
				defer col.Release()
				rb := NewRowBuilder(cb.schema, checked)
				defer rb.Release()
				// batch: rows, a tombstone every nullEvery rows (0: none)
				for k, b := range []struct{ rows, nullEvery int }{
					{200, 0}, {700, 97}, {5, 1}, {300, 0}, {0, 0}, {1, 0},
				} {
					cp := NewCorpus(cb.schema, cb.codec, uint64(k+1), b.rows)
					for i := range b.rows {
						if b.nullEvery > 0 && i%b.nullEvery == 0 {
							col.AppendNull()
							rb.AddNull()
							continue
						}
						msg := cp.Message(nil, i)
						if err := col.Append(msg); err != nil {
							t.Fatalf("batch %d record %d: %v", k, i, err)
						}
						var r Row
						if err := cb.codec.DecodeRow(msg, &r); err != nil {
							t.Fatal(err)
						}
						rb.Add(&r)
					}
					got, want := col.NewRecordBatch(), rb.NewRecordBatch()
					for c, a := range got.Columns() {
						if err := array.ValidateFull(a); err != nil {
							t.Fatalf("batch %d column %d: %v", k, c, err)
						}
					}
					if !array.RecordEqual(got, want) {
						t.Fatalf("batch %d (%d rows): columnar batch differs from the builders'\ngot  %v\nwant %v", k, b.rows, got, want)
					}
					if col.Len() != 0 {
						t.Fatalf("batch %d: Len %d after NewRecordBatch", k, col.Len())
					}
					got.Release()
					want.Release()
				}
			})
		}
	}
}

// TestColWriterDataLimit: a row whose string would take a column past the
// batch's data limit (int32 offsets; lowered here) is refused with an error
// naming the column, and writes nothing: the batch keeps every earlier row
// and goes on taking rows that fit.
func TestColWriterDataLimit(t *testing.T) {
	c := mustCodec(t, FormatJSON, "bid")
	cp := NewCorpus(c.Schema(), c, 1, 3)
	small, big := cp.Message(nil, 0), NewCorpus(c.Schema(), c, 1, 1, ValueSize(4096)).Message(nil, 0)
	defer func(v int) { maxColumnData = v }(maxColumnData)
	maxColumnData = 2048
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	col := c.NewColumnar(mem)
	defer col.Release()
	if err := col.Append(small); err != nil {
		t.Fatal(err)
	}
	err := col.Append(big)
	if err == nil || errors.Is(err, ErrParse) || !strings.Contains(err.Error(), "passes 2 GiB") {
		t.Fatalf("Append past the data limit: %v, want the column's data-limit error", err)
	}
	for i, n := range builderLens(col) {
		if n != 1 {
			t.Fatalf("column %d holds %d rows after the refused row, want 1", i, n)
		}
	}
	if err := col.Append(cp.Message(nil, 1)); err != nil {
		t.Fatal(err)
	}
	rec := col.NewRecordBatch()
	defer rec.Release()
	if got, want := BatchChecksum(rec), cp.Checksum(0, 2); got != want {
		t.Fatalf("batch after the refused row: checksum %x, want the two good rows' %x", got, want)
	}
}
