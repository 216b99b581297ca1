package recycle_test

import (
	"bytes"
	"fmt"
	"sync"
	"testing"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fastpathlab/fplab/workloads/recycle"
)

var small = recycle.Limits{Buffers: 2, MinSize: 1024, MaxBytes: 1 << 20}

func newPool(t *testing.T, lim recycle.Limits) (*recycle.Allocator, *memory.CheckedAllocator) {
	t.Helper()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	a := recycle.New(mem, lim)
	t.Cleanup(func() {
		a.Close()
		mem.AssertSize(t, 0)
	})
	return a, mem
}

func TestFreedBufferComesBackZeroed(t *testing.T) {
	a, _ := newPool(t, small)
	b := a.Allocate(4096)
	for i := range b {
		b[i] = 0xAB
	}
	p := unsafe.SliceData(b)
	a.Free(b)
	c := a.Allocate(3000)
	if unsafe.SliceData(c) != p {
		t.Fatal("a freed buffer big enough was not handed out again")
	}
	if len(c) != 3000 || bytes.Count(c[:cap(c)], []byte{0}) != cap(c) {
		t.Fatalf("reused buffer: len %d, not all zero", len(c))
	}
	if got := a.Stats(); got != (recycle.Stats{Hits: 1, Misses: 1}) {
		t.Fatalf("stats %+v, want 1 hit 1 miss", got)
	}
	a.Free(c)
}

// TestNoZeroSkipsOnlyTheClearing: AllocateNoZero hands a pooled buffer
// back as it was left, a fresh one zeroed by the cell allocator, and
// either is freed into the pool like Allocate's.
func TestNoZeroSkipsOnlyTheClearing(t *testing.T) {
	a, mem := newPool(t, small)
	b := a.AllocateNoZero(4096)
	if bytes.Count(b, []byte{0}) != len(b) || mem.CurrentAlloc() != 4096 {
		t.Fatalf("fresh buffer: not zero, or %d bytes with the cell allocator", mem.CurrentAlloc())
	}
	for i := range b {
		b[i] = 0xAB
	}
	p := unsafe.SliceData(b)
	a.Free(b)
	c := a.AllocateNoZero(3000)
	if unsafe.SliceData(c) != p || len(c) != 3000 || bytes.Count(c, []byte{0xAB}) != len(c) {
		t.Fatal("AllocateNoZero did not hand the pooled buffer back as it was")
	}
	a.Free(c)
	if got := a.Stats(); got != (recycle.Stats{Hits: 1, Misses: 1}) {
		t.Fatalf("stats %+v, want 1 hit 1 miss", got)
	}
	if z := a.Allocate(3000); bytes.Count(z, []byte{0}) != len(z) {
		t.Fatal("Allocate after AllocateNoZero: not zeroed")
	} else {
		a.Free(z)
	}
}

func TestPoolServesOnlyCloseSizes(t *testing.T) {
	a, _ := newPool(t, small)
	big := a.Allocate(64 << 10)
	a.Free(big)
	c := a.Allocate(8 << 10) // an eighth of the pooled one: a miss
	if unsafe.SliceData(c) == unsafe.SliceData(big) {
		t.Fatal("a buffer eight times the request was handed out")
	}
	d := a.Allocate(40 << 10)
	if unsafe.SliceData(d) != unsafe.SliceData(big) {
		t.Fatal("a buffer within twice the request was not reused")
	}
	a.Free(c)
	a.Free(d)
}

func TestLimitsSendTheRestToTheCellAllocator(t *testing.T) {
	a, mem := newPool(t, small)
	tiny := a.Allocate(100) // under MinSize: passes through
	bufs := [][]byte{a.Allocate(2048), a.Allocate(2048), a.Allocate(2048)}
	for _, b := range bufs {
		a.Free(b)
	}
	// two pooled (Buffers: 2), the third freed at once
	if got, want := mem.CurrentAlloc(), 2*2048+100; got != want {
		t.Fatalf("cell allocator holds %d bytes, want %d (two pooled, one small out)", got, want)
	}
	a.Free(tiny)
	huge := a.Allocate(2 << 20) // over MaxBytes: never pooled
	a.Free(huge)
	if got, want := mem.CurrentAlloc(), 2*2048; got != want {
		t.Fatalf("cell allocator holds %d bytes, want %d", got, want)
	}
}

func TestCloseReturnsPooledAndLaterFrees(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	a := recycle.New(mem, small)
	kept := a.Allocate(4096)
	a.Free(a.Allocate(4096))
	a.Close()
	if got := mem.CurrentAlloc(); got != 4096 {
		t.Fatalf("after Close the cell allocator holds %d bytes, want the 4096 still out", got)
	}
	a.Free(kept)
	mem.AssertSize(t, 0)
}

func TestReallocateKeepsContents(t *testing.T) {
	a, _ := newPool(t, small)
	b := a.Allocate(2048)
	copy(b, "abc")
	b = a.Reallocate(1500, b) // within capacity
	if string(b[:3]) != "abc" || len(b) != 1500 {
		t.Fatalf("shrink lost contents: %q len %d", b[:3], len(b))
	}
	b = a.Reallocate(8192, b)
	if string(b[:3]) != "abc" || len(b) != 8192 || bytes.Count(b[3:], []byte{0}) != len(b)-3 {
		t.Fatal("growth lost contents or left garbage")
	}
	a.Free(b)
}

// TestSmallBuffersKeepTheCellAccounts: a buffer under MinSize is the cell
// allocator's; resizing it, within its capacity or past MinSize, leaves
// the cell allocator's accounts balanced.
func TestSmallBuffersKeepTheCellAccounts(t *testing.T) {
	a, mem := newPool(t, small)
	b := a.Allocate(512)
	copy(b, "abc")
	b = a.Reallocate(256, b) // shrinks: the cell allocator resizes
	if got := mem.CurrentAlloc(); got != 256 {
		t.Fatalf("cell allocator holds %d bytes after shrinking to 256", got)
	}
	b = a.Reallocate(4096, b) // past MinSize: into the pool's hands
	if string(b[:3]) != "abc" {
		t.Fatalf("contents lost: %q", b[:3])
	}
	a.Free(b)
	if got := mem.CurrentAlloc(); got != 4096 {
		t.Fatalf("cell allocator holds %d bytes, want the 4096 pooled", got)
	}
}

// TestUnderArrowBuilders builds batch after batch through the pool and
// checks every value, that the later batches reuse buffers, and (in the
// cleanup) that everything is returned.
func TestUnderArrowBuilders(t *testing.T) {
	a, _ := newPool(t, recycle.DefaultLimits)
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "v", Type: arrow.BinaryTypes.Binary},
		{Name: "n", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	}, nil)
	rb := array.NewRecordBuilder(a, schema)
	defer rb.Release()
	for batch := 0; batch < 5; batch++ {
		bb := rb.Field(0).(*array.BinaryBuilder)
		nb := rb.Field(1).(*array.Int64Builder)
		for i := 0; i < 5000; i++ {
			bb.Append([]byte(fmt.Sprintf("batch %d row %d", batch, i)))
			if i%7 == 0 {
				nb.AppendNull()
			} else {
				nb.Append(int64(batch*10000 + i))
			}
		}
		rec := rb.NewRecordBatch()
		vs := rec.Column(0).(*array.Binary)
		ns := rec.Column(1).(*array.Int64)
		for i := 0; i < 5000; i++ {
			if got, want := string(vs.Value(i)), fmt.Sprintf("batch %d row %d", batch, i); got != want {
				t.Fatalf("batch %d row %d: %q, want %q", batch, i, got, want)
			}
			if ns.IsNull(i) != (i%7 == 0) || (!ns.IsNull(i) && ns.Value(i) != int64(batch*10000+i)) {
				t.Fatalf("batch %d row %d: int column wrong", batch, i)
			}
		}
		rec.Release()
	}
	if st := a.Stats(); st.Hits == 0 {
		t.Fatalf("five batches of one shape reused no buffer: %+v", st)
	}
}

func TestConcurrentFree(t *testing.T) {
	a, _ := newPool(t, recycle.Limits{Buffers: 8, MinSize: 1024, MaxBytes: 1 << 20})
	bufs := make(chan []byte, 64)
	var wg sync.WaitGroup
	for w := 0; w < 4; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for b := range bufs {
				a.Free(b)
			}
		}()
	}
	for i := 0; i < 1000; i++ {
		bufs <- a.Allocate(2048 + i%3*512)
	}
	close(bufs)
	wg.Wait()
}
