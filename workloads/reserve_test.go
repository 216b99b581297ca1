package workloads

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// TestBatchesOutgrowReservation: a batch is reserved at the previous
// batch's size, and rows past that reservation, or strings longer than its
// data reservation, still decode to the corpus's values. Batches: 100
// natural records, then 100 records of ~1 KiB (every string outgrows the
// data reservation), then 300 natural ones (rows past the 100 reserved),
// each checked against its corpus.
func TestBatchesOutgrowReservation(t *testing.T) {
	for _, cb := range combos(t) {
		t.Run(cb.name(), func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			col := cb.codec.NewColumnar(mem)
			defer col.Release()
			for k, b := range []struct {
				n    int
				opts []CorpusOpt
			}{{100, nil}, {100, []CorpusOpt{ValueSize(1024)}}, {300, nil}} {
				cp := NewCorpus(cb.schema, cb.codec, uint64(k+1), b.n, b.opts...)
				for i := range cp.Count() {
					if err := col.Append(cp.Message(nil, i)); err != nil {
						t.Fatalf("batch %d record %d: %v", k, i, err)
					}
				}
				rec := col.NewRecordBatch()
				for c, a := range rec.Columns() {
					if err := array.ValidateFull(a); err != nil {
						t.Fatalf("batch %d column %d: %v", k, c, err)
					}
				}
				if got, want := BatchChecksum(rec), cp.Checksum(0, cp.Count()); got != want {
					t.Errorf("batch %d: checksum %x, want %x", k, got, want)
				}
				rec.Release()
			}
		})
	}
}
