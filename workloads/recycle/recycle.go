package recycle

import (
	"sync"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow/memory"
)

// Limits bound what the pool keeps: at most Buffers buffers of at least
// MinSize bytes, MaxBytes in all. Smaller buffers are cheap to allocate
// and pass through.
type Limits struct {
	Buffers  int
	MinSize  int
	MaxBytes int
}

// DefaultLimits keep a few batches' worth of buffers of a wide schema.
var DefaultLimits = Limits{Buffers: 256, MinSize: 4 << 10, MaxBytes: 256 << 20}

// Stats count how the pool served the allocations that were large enough
// to pool: Hits from the pool, Misses from the cell's allocator.
type Stats struct {
	Hits, Misses int64
}

// Allocator is the pool over the cell's allocator. It is safe for
// concurrent use: a consumer may release batches on any goroutine.
type Allocator struct {
	mem memory.Allocator
	lim Limits

	mu     sync.Mutex
	free   [][]byte         // pooled: whole buffers as mem returned them
	held   int              // bytes in free
	out    map[*byte][]byte // handed out: data pointer -> whole buffer
	stats  Stats
	closed bool
}

var _ memory.Allocator = (*Allocator)(nil)

// New returns a pool over mem within lim.
func New(mem memory.Allocator, lim Limits) *Allocator {
	return &Allocator{mem: mem, lim: lim, out: make(map[*byte][]byte)}
}

// Allocate returns size zeroed bytes, from the pool when it holds a buffer
// big enough and no more than twice the size.
func (a *Allocator) Allocate(size int) []byte { return a.allocate(size, true) }

// AllocateNoZero is Allocate for a buffer whose every byte read is written
// first: a pooled buffer comes back as its last user left it (a fresh one
// is the cell allocator's, zeroed).
func (a *Allocator) AllocateNoZero(size int) []byte { return a.allocate(size, false) }

func (a *Allocator) allocate(size int, zero bool) []byte {
	if size < a.lim.MinSize {
		return a.mem.Allocate(size)
	}
	a.mu.Lock()
	whole := a.take(size)
	if whole != nil {
		a.stats.Hits++
	} else {
		a.stats.Misses++
	}
	a.mu.Unlock()
	if whole == nil {
		whole = a.mem.Allocate(size)
	} else if zero {
		clear(whole)
	}
	a.mu.Lock()
	a.out[unsafe.SliceData(whole)] = whole
	a.mu.Unlock()
	return whole[:size]
}

// take removes and returns the smallest pooled buffer of size to 2*size
// bytes, or nil. a.mu is held.
func (a *Allocator) take(size int) []byte {
	best := -1
	for i, b := range a.free {
		if len(b) >= size && len(b) <= 2*size && (best < 0 || len(b) < len(a.free[best])) {
			best = i
		}
	}
	if best < 0 {
		return nil
	}
	b := a.free[best]
	last := len(a.free) - 1
	a.free[best] = a.free[last]
	a.free[last] = nil
	a.free = a.free[:last]
	a.held -= len(b)
	return b
}

// Reallocate resizes b to size bytes, keeping its contents. A buffer of
// the pool's within its capacity is only resliced, like Go's allocator
// does; a small one that stays small is the cell allocator's to resize (it
// keeps the accounts of what it handed out); the rest move to a buffer
// from Allocate.
func (a *Allocator) Reallocate(size int, b []byte) []byte {
	if cap(b) == 0 {
		return a.Allocate(size)
	}
	a.mu.Lock()
	_, ours := a.out[unsafe.SliceData(b)]
	a.mu.Unlock()
	switch {
	case ours && size <= cap(b):
		return b[:size]
	case !ours && size < a.lim.MinSize:
		return a.mem.Reallocate(size, b)
	}
	nb := a.Allocate(size)
	copy(nb, b)
	a.Free(b)
	return nb
}

// Free takes b back into the pool when it was handed out by Allocate and
// fits the limits; otherwise it goes to the cell's allocator.
func (a *Allocator) Free(b []byte) {
	if cap(b) == 0 {
		a.mem.Free(b)
		return
	}
	p := unsafe.SliceData(b)
	a.mu.Lock()
	whole, ok := a.out[p]
	if !ok {
		a.mu.Unlock()
		a.mem.Free(b)
		return
	}
	delete(a.out, p)
	if a.closed || len(a.free) >= a.lim.Buffers || a.held+len(whole) > a.lim.MaxBytes {
		a.mu.Unlock()
		a.mem.Free(whole)
		return
	}
	a.free = append(a.free, whole)
	a.held += len(whole)
	a.mu.Unlock()
}

// Stats reports the pool's hits and misses so far.
func (a *Allocator) Stats() Stats {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.stats
}

// Close returns the pooled buffers to the cell's allocator. Buffers still
// out are returned to it when they are freed.
func (a *Allocator) Close() {
	a.mu.Lock()
	free := a.free
	a.free, a.held, a.closed = nil, 0, true
	a.mu.Unlock()
	for _, b := range free {
		a.mem.Free(b)
	}
}
