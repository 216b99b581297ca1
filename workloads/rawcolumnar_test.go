package workloads

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// TestRawColumnarMatchesBuilder drives the raw columnar with random runs of
// Append, AppendBulk and AppendNull over batches of very different sizes
// (so reservations from the previous batch are outgrown and over-sized)
// and checks every batch equals what a BinaryBuilder builds from the same
// appends, and that every buffer is returned.
//
// It runs twice: over a plain allocator, and over one whose AllocateNoZero
// hands out memory full of junk, where the data buffer must not rely on
// zeroes. Direct runs write payloads into Tail as a drain does, with
// skipped messages between them, and append them from there.
func TestRawColumnarMatchesBuilder(t *testing.T) {
	for _, dirty := range []bool{false, true} {
		t.Run(fmt.Sprintf("dirty=%v", dirty), func(t *testing.T) {
			checked := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer checked.AssertSize(t, 0)
			var mem memory.Allocator = checked
			if dirty {
				mem = junkAllocator{checked}
			}
			testRawColumnar(t, mem)
		})
	}
}

// junkAllocator's AllocateNoZero returns memory full of 0xa5.
type junkAllocator struct{ memory.Allocator }

func (a junkAllocator) AllocateNoZero(size int) []byte {
	b := a.Allocate(size)
	for i := range b {
		b[i] = 0xa5
	}
	return b
}

func testRawColumnar(t *testing.T, mem memory.Allocator) {
	c := mustCodec(t, FormatRaw, "bid")
	col := c.NewColumnar(mem)
	defer col.Release()
	bulk := col.(Bulk)
	direct := col.(Direct)
	rng := rand.New(rand.NewPCG(1, 2))
	payload := func() []byte {
		b := make([]byte, rng.IntN(300))
		for i := range b {
			b[i] = byte(rng.IntN(256))
		}
		return b
	}
	for batch, rows := range []int{3, 5000, 10, 0, 20000, 1, 7000} {
		want := array.NewBinaryBuilder(memory.NewGoAllocator(), arrow.BinaryTypes.Binary)
		for col.Len() < rows {
			switch k := rng.IntN(12); {
			case k >= 10: // a direct run: written into the tail, some skipped
				var ps [][]byte
				size := 0
				for range rng.IntN(min(50, rows-col.Len())) + 1 {
					p := payload()
					ps = append(ps, p)
					size += len(p)
				}
				tail := direct.Tail(size)
				if len(tail) < size {
					t.Fatalf("Tail(%d) has %d bytes", size, len(tail))
				}
				var ends []uint32
				skipped := make([]bool, len(ps))
				for i, p := range ps {
					from := uint32(0)
					if i > 0 {
						from = ends[i-1]
					}
					ends = append(ends, from+uint32(copy(tail[from:], p)))
					skipped[i] = rng.IntN(8) == 0
				}
				for i := 0; i < len(ps); {
					if skipped[i] {
						i++
						continue
					}
					j := i
					for j < len(ps) && !skipped[j] {
						want.Append(ps[j])
						j++
					}
					from := uint32(0)
					if i > 0 {
						from = ends[i-1]
					}
					if n, err := bulk.AppendBulk(tail, from, ends[i:j]); err != nil || n != j-i {
						t.Fatalf("AppendBulk from the tail = %d, %v; want %d, nil", n, err, j-i)
					}
					i = j
				}
			case k == 0:
				col.AppendNull()
				want.AppendNull()
			case k < 4:
				p := payload()
				if err := col.Append(p); err != nil {
					t.Fatal(err)
				}
				want.Append(p)
			default: // a run, back to back in a drain-like buffer
				var buf []byte
				var ends []uint32
				buf = append(buf, "prefix"...) // the run need not start at 0
				for range rng.IntN(min(50, rows-col.Len())) + 1 {
					p := payload()
					buf = append(buf, p...)
					ends = append(ends, uint32(len(buf)))
					want.Append(p)
				}
				n, err := bulk.AppendBulk(buf, 6, ends)
				if err != nil || n != len(ends) {
					t.Fatalf("AppendBulk = %d, %v; want %d, nil", n, err, len(ends))
				}
			}
		}
		if col.Len() != want.Len() {
			t.Fatalf("batch %d: Len %d, builder %d", batch, col.Len(), want.Len())
		}
		rec := col.NewRecordBatch()
		exp := want.NewArray()
		if col.Len() != 0 || int(rec.NumRows()) != exp.Len() {
			t.Fatalf("batch %d: %d rows, want %d (Len after %d)", batch, rec.NumRows(), exp.Len(), col.Len())
		}
		if !array.Equal(rec.Column(0), exp) {
			t.Fatalf("batch %d: the raw columnar's array differs from the builder's", batch)
		}
		if !rec.Schema().Equal(c.Schema().Arrow) {
			t.Fatalf("batch %d: schema %v", batch, rec.Schema())
		}
		if err := rec.Column(0).(*array.Binary).ValidateFull(); err != nil {
			t.Fatalf("batch %d: %v", batch, err)
		}
		if got, want := rec.Column(0).NullN(), exp.NullN(); got != want {
			t.Fatalf("batch %d: %d nulls, want %d", batch, got, want)
		}
		exp.Release()
		want.Release()
		rec.Release()
	}
}

func ExampleBulk_raw() {
	s, _ := SchemaByName("bid")
	c, _ := NewCodec(FormatRaw, s)
	col := c.NewColumnar(memory.NewGoAllocator())
	defer col.Release()
	buf := []byte("xxab{}cde")
	n, _ := col.(Bulk).AppendBulk(buf, 2, []uint32{4, 6, 9})
	rec := col.NewRecordBatch()
	defer rec.Release()
	fmt.Println(n, rec.Column(0))
	// Output: 3 ["ab" "{}" "cde"]
}
