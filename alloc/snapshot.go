package alloc

import "sort"

// Snapshot holds process-wide malloc counters: whatever the allocator in
// force lets a process read without slowing its fast path.
//
// glibc (mallinfo2, summed over all arenas): HeapBytes is the exact number of
// bytes in live blocks (uordblks + hblkhd); SystemBytes is what the arenas
// and mmapped chunks hold from the OS (arena + hblkhd).
//
// mimalloc release builds (MI_STAT=0, as libmimalloc-sys ships them) do not
// count individual mallocs or live bytes; they count OS-level memory and
// threads. HeapBytes is committed memory: page granular in v3, which commits
// on demand; in v2 it barely moves, because v2 commits its first 1 GiB arena
// eagerly on Linux. SystemBytes is reserved address space. Threads is the
// number of threads (v2) or thread-local heaps (v3) mimalloc initialised,
// the main thread not always included.
//
// RSSBytes, the process's resident memory (/proc/self/statm), is the one
// figure that moves with C allocations under every variant (Go's heap is in
// it too).
type Snapshot struct {
	Allocator   string
	HeapBytes   int64
	SystemBytes int64
	RSSBytes    int64
	Threads     int64            // -1 where the allocator does not count threads
	Detail      map[string]int64 // every raw counter read, by the allocator's own name
}

// Sub returns c - prev field by field (Detail keys present in both).
func (c Snapshot) Sub(prev Snapshot) Snapshot {
	out := Snapshot{
		Allocator:   c.Allocator,
		HeapBytes:   c.HeapBytes - prev.HeapBytes,
		SystemBytes: c.SystemBytes - prev.SystemBytes,
		RSSBytes:    c.RSSBytes - prev.RSSBytes,
		Threads:     c.Threads - prev.Threads,
		Detail:      map[string]int64{},
	}
	if c.Threads < 0 || prev.Threads < 0 {
		out.Threads = -1
	}
	for k, v := range c.Detail {
		if p, ok := prev.Detail[k]; ok {
			out.Detail[k] = v - p
		}
	}
	return out
}

// DetailKeys returns the Detail keys in sorted order, for stable rendering.
func (c Snapshot) DetailKeys() []string {
	keys := make([]string, 0, len(c.Detail))
	for k := range c.Detail {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
