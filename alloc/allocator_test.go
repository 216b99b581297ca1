package alloc_test

import (
	"testing"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/fastpathlab/fplab/alloc"
)

func TestAllocatorZeroedAlignedAndBalanced(t *testing.T) {
	mem := alloc.Checked()
	defer mem.AssertSize(t, 0)
	for _, size := range []int{0, 1, 63, 280, 4096, 64 << 10, 3 << 20} {
		b := mem.Allocate(size)
		if len(b) != size {
			t.Fatalf("Allocate(%d) len %d", size, len(b))
		}
		if size > 0 {
			if p := uintptr(unsafe.Pointer(&b[0])); p%64 != 0 {
				t.Errorf("Allocate(%d) = %#x, not 64-byte aligned", size, p)
			}
			for i, v := range b {
				if v != 0 {
					t.Fatalf("Allocate(%d)[%d] = %d, want zeroed memory", size, i, v)
				}
			}
			b[0], b[size-1] = 0xAA, 0xBB
		}
		mem.Free(b)
	}
}

func TestAllocatorReallocateKeepsContents(t *testing.T) {
	mem := alloc.Checked()
	defer mem.AssertSize(t, 0)
	b := mem.Allocate(100)
	for i := range b {
		b[i] = byte(i)
	}
	b = mem.Reallocate(1<<20, b) // grow past any in-place slack
	if len(b) != 1<<20 {
		t.Fatalf("Reallocate grow: len %d", len(b))
	}
	for i := 0; i < 100; i++ {
		if b[i] != byte(i) {
			t.Fatalf("after grow b[%d] = %d, want %d", i, b[i], byte(i))
		}
	}
	if p := uintptr(unsafe.Pointer(&b[0])); p%64 != 0 {
		t.Errorf("Reallocate result %#x not 64-byte aligned", p)
	}
	b = mem.Reallocate(10, b) // shrink
	if len(b) != 10 || b[9] != 9 {
		t.Fatalf("Reallocate shrink: len %d b[9] %d", len(b), b[9])
	}
	mem.Free(b)
	z := mem.Reallocate(32, mem.Allocate(0)) // from empty
	if len(z) != 32 {
		t.Fatalf("Reallocate from empty: len %d", len(z))
	}
	mem.Free(z)
}

// Arrow's own builders over the variant's allocator must balance to zero.
func TestAllocatorUnderArrowBuilders(t *testing.T) {
	mem := alloc.Checked()
	defer mem.AssertSize(t, 0)
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "payload", Type: arrow.BinaryTypes.String, Nullable: true},
	}, nil)
	for round := 0; round < 3; round++ {
		bld := array.NewRecordBuilder(mem, schema)
		ids := bld.Field(0).(*array.Int64Builder)
		payloads := bld.Field(1).(*array.StringBuilder)
		for i := 0; i < 10000; i++ {
			ids.Append(int64(i))
			if i%7 == 0 {
				payloads.AppendNull()
			} else {
				payloads.Append("message payload of moderate length")
			}
		}
		rec := bld.NewRecordBatch()
		bld.Release()
		if rec.NumRows() != 10000 || rec.Column(0).(*array.Int64).Value(9999) != 9999 {
			t.Fatalf("round %d: bad batch %v rows", round, rec.NumRows())
		}
		if mem.CurrentAlloc() == 0 {
			t.Fatal("no bytes outstanding while a batch is live: allocator not used")
		}
		rec.Release()
	}
}

func TestAllocatorIsVariants(t *testing.T) {
	_, isGo := alloc.Allocator().(*memory.GoAllocator)
	if isGo != (alloc.Name() == "go") {
		t.Fatalf("%s build: Allocator() is %T", alloc.Name(), alloc.Allocator())
	}
}
