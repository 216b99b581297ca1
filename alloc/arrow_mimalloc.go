//go:build mimalloc2 || mimalloc3

package alloc

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fastpathlab/fplab/alloc/internal/cmalloc"
)

// arrowAlign is the alignment Arrow wants for buffers.
const arrowAlign = 64

// miAllocator is an arrow memory.Allocator over mimalloc's aligned API.
// Memory is zeroed (mi_zalloc_aligned / mi_rezalloc_aligned) as Go's
// allocator and arrow's Mallocator hand out zeroed buffers. A zero-size
// request gets an empty slice that owns nothing.
type miAllocator struct{}

// Allocator returns the Arrow allocator for this variant: mimalloc.
func Allocator() memory.Allocator { return miAllocator{} }

func (miAllocator) Allocate(size int) []byte {
	if size < 0 {
		panic(fmt.Sprintf("alloc: Allocate(%d): negative size", size))
	}
	if size == 0 {
		return []byte{}
	}
	b := cmalloc.ZallocAligned(size, arrowAlign)
	if b == nil {
		panic(fmt.Sprintf("alloc: mimalloc out of memory allocating %d bytes", size))
	}
	return b
}

func (a miAllocator) Reallocate(size int, b []byte) []byte {
	if size < 0 {
		panic(fmt.Sprintf("alloc: Reallocate(%d): negative size", size))
	}
	if cap(b) == 0 {
		return a.Allocate(size)
	}
	if size <= cap(b) {
		return b[:size]
	}
	nb := cmalloc.RezallocAligned(b, size, arrowAlign)
	if nb == nil {
		panic(fmt.Sprintf("alloc: mimalloc out of memory reallocating to %d bytes", size))
	}
	return nb
}

func (miAllocator) Free(b []byte) {
	if cap(b) == 0 {
		return
	}
	cmalloc.Free(b)
}
