package rung

import (
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow/memory"
)

// countingAllocator wraps the cell's Arrow allocator and keeps the bytes
// outstanding, so a cell proves its Arrow buffers are balanced at the end,
// and their peak (arrow-peak-MB).
// It costs two atomic adds per buffer allocation (buffers grow per batch,
// not per record), unlike memory.CheckedAllocator, which records a stack
// per allocation and would distort the figures.
type countingAllocator struct {
	mem         memory.Allocator
	outstanding atomic.Int64
	peak        atomic.Int64 // the most outstanding at once
	allocs      atomic.Int64
}

func (a *countingAllocator) Allocate(n int) []byte {
	atomicMax(&a.peak, a.outstanding.Add(int64(n)))
	a.allocs.Add(1)
	return a.mem.Allocate(n)
}

func (a *countingAllocator) Reallocate(n int, b []byte) []byte {
	atomicMax(&a.peak, a.outstanding.Add(int64(n-len(b))))
	return a.mem.Reallocate(n, b)
}

// atomicMax raises m to v when v is above it.
func atomicMax(m *atomic.Int64, v int64) {
	for {
		p := m.Load()
		if v <= p || m.CompareAndSwap(p, v) {
			return
		}
	}
}

func (a *countingAllocator) Free(b []byte) {
	a.outstanding.Add(-int64(len(b)))
	a.mem.Free(b)
}
