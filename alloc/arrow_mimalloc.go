//go:build mimalloc2 || mimalloc3

package alloc

// #include "mi.h"
import "C"

import (
	"fmt"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow/memory"
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
	p := C.mi_zalloc_aligned(C.size_t(size), arrowAlign)
	if p == nil {
		panic(fmt.Sprintf("alloc: mimalloc out of memory allocating %d bytes", size))
	}
	return unsafe.Slice((*byte)(p), size)
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
	p := C.mi_rezalloc_aligned(unsafe.Pointer(unsafe.SliceData(b)), C.size_t(size), arrowAlign)
	if p == nil {
		panic(fmt.Sprintf("alloc: mimalloc out of memory reallocating to %d bytes", size))
	}
	return unsafe.Slice((*byte)(p), size)
}

func (miAllocator) Free(b []byte) {
	if cap(b) == 0 {
		return
	}
	C.mi_free(unsafe.Pointer(unsafe.SliceData(b)))
}
