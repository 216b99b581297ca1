package rung

import (
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow/memory"
)

// countingAllocator wraps the cell's Arrow allocator and keeps the bytes
// outstanding, so a cell proves its Arrow buffers are balanced at the end.
// It costs two atomic adds per buffer allocation (buffers grow per batch,
// not per record), unlike memory.CheckedAllocator, which records a stack
// per allocation and would distort the figures.
type countingAllocator struct {
	mem         memory.Allocator
	outstanding atomic.Int64
	allocs      atomic.Int64
}

func (a *countingAllocator) Allocate(n int) []byte {
	a.outstanding.Add(int64(n))
	a.allocs.Add(1)
	return a.mem.Allocate(n)
}

func (a *countingAllocator) Reallocate(n int, b []byte) []byte {
	a.outstanding.Add(int64(n - len(b)))
	return a.mem.Reallocate(n, b)
}

func (a *countingAllocator) Free(b []byte) {
	a.outstanding.Add(-int64(len(b)))
	a.mem.Free(b)
}
