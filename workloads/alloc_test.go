package workloads

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
)

// slabAllocator hands out Arrow buffers from one preallocated slab and never
// frees, so Arrow buffer growth costs no Go allocation and AllocsPerRun
// counts only what the decoder itself allocates.
type slabAllocator struct {
	slab []byte
	off  int
}

func (a *slabAllocator) Allocate(size int) []byte {
	a.off = (a.off + 63) &^ 63
	if a.off+size > len(a.slab) {
		panic("slabAllocator: slab exhausted")
	}
	b := a.slab[a.off : a.off+size : a.off+size]
	a.off += size
	clear(b)
	return b
}

func (a *slabAllocator) Reallocate(size int, b []byte) []byte {
	if size <= cap(b) {
		return b[:size]
	}
	nb := a.Allocate(size)
	copy(nb, b)
	return nb
}

func (a *slabAllocator) Free([]byte) {}

// TestColumnarZeroAllocs: once warm, Append allocates no Go memory per
// message, in every schema x format.
func TestColumnarZeroAllocs(t *testing.T) {
	const runs = 2000
	for _, cb := range combos(t) {
		t.Run(cb.name(), func(t *testing.T) {
			cp := NewCorpus(cb.schema, cb.codec, 3, 256)
			msgs := make([][]byte, cp.Count())
			for i := range msgs {
				msgs[i] = cp.Message(nil, i)
			}
			col := cb.codec.NewColumnar(&slabAllocator{slab: make([]byte, 64<<20)})
			defer col.Release()
			for _, m := range msgs { // warm: scratch buffers reach their size
				if err := col.Append(m); err != nil {
					t.Fatal(err)
				}
			}
			i := 0
			allocs := testing.AllocsPerRun(runs, func() {
				if err := col.Append(msgs[i%len(msgs)]); err != nil {
					t.Fatal(err)
				}
				i++
			})
			if allocs != 0 {
				t.Errorf("Append allocates %.2f times per message, want 0", allocs)
			}
		})
	}
}

// TestBuffersReleased: every Arrow buffer of several batches, a failed
// message and a RowBuilder goes back to the allocator.
func TestBuffersReleased(t *testing.T) {
	for _, cb := range combos(t) {
		t.Run(cb.name(), func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			cp := NewCorpus(cb.schema, cb.codec, 4, 300)
			col := cb.codec.NewColumnar(mem)
			rb := NewRowBuilder(cb.codec.Schema(), mem)
			for batch := 0; batch < 3; batch++ {
				for i := batch * 100; i < (batch+1)*100; i++ {
					m := cp.Message(nil, i)
					if err := col.Append(m); err != nil {
						t.Fatal(err)
					}
					var r Row
					if err := cb.codec.DecodeRow(m, &r); err != nil {
						t.Fatal(err)
					}
					rb.Add(&r)
				}
				if cb.codec.Format() != FormatRaw {
					_ = col.Append([]byte("{")) // an error in the middle of a batch
				}
				rec, rrec := col.NewRecordBatch(), rb.NewRecordBatch()
				if rec.NumRows() != 100 || rrec.NumRows() != 100 {
					t.Fatalf("batch %d has %d and %d rows, want 100", batch, rec.NumRows(), rrec.NumRows())
				}
				if mem.CurrentAlloc() == 0 {
					t.Fatal("no Arrow memory in use while batches are alive")
				}
				rec.Release()
				rrec.Release()
			}
			col.Release()
			rb.Release()
		})
	}
}
