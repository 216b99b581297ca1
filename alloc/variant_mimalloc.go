//go:build mimalloc2 || mimalloc3

package alloc

// #include <stdlib.h>
// #include "mi.h"
import "C"

import (
	"fmt"
	"unsafe"
)

// Name is the allocator variant this binary was built for.
func Name() string { return variantName }

// Version is mimalloc's version as the linked library reports it (mi_version).
func Version() string { return decodeVersion(int(C.mi_version())) }

func decodeVersion(v int) string {
	return fmt.Sprintf("%d.%d.%d", v/10000, v/100%100, v%100)
}

// OwnsPointer reports whether p lies in mimalloc's heap (mi_is_in_heap_region);
// other packages use it to check that memory their C code got from malloc
// (librdkafka's, say) came from mimalloc.
func OwnsPointer(p unsafe.Pointer) bool {
	return bool(C.mi_is_in_heap_region(p))
}

// Counters snapshots mimalloc's process-wide counters (mi_stats_get and
// mi_process_info) and the process RSS. Release builds keep OS-level
// counters and thread counts only; see Snapshot.
func Counters() (Snapshot, error) {
	var c C.fpl_mi_counters
	if C.fpl_mi_counters_read(&c) == 0 {
		return Snapshot{}, fmt.Errorf("alloc: %s: mi_stats_get rejected the stats layout", Name())
	}
	rss, err := residentBytes()
	if err != nil {
		return Snapshot{}, err
	}
	s := Snapshot{
		Allocator:   Name(),
		HeapBytes:   int64(c.committed),
		SystemBytes: int64(c.reserved),
		RSSBytes:    rss,
		Threads:     int64(c.threads_total),
		Detail: map[string]int64{
			"reserved": int64(c.reserved), "committed": int64(c.committed),
			"reserved_total": int64(c.reserved_total), "committed_total": int64(c.committed_total),
			"mmap_calls": int64(c.mmap_calls), "commit_calls": int64(c.commit_calls),
			"purge_calls": int64(c.purge_calls), "arena_count": int64(c.arena_count),
			"threads_total": int64(c.threads_total), "threads_current": int64(c.threads_current),
			"malloc_huge_count": int64(c.malloc_huge_count),
			"peak_rss":          int64(c.peak_rss), "peak_commit": int64(c.peak_commit),
			"page_faults": int64(c.page_faults),
		},
	}
	if wantMajor >= 3 {
		s.Detail["heaps_total"] = int64(c.heaps_total)
	}
	return s, nil
}

// Proof shows that mimalloc of the claimed series serves malloc for the
// whole process: mi_version's major matches; the malloc symbol resolves to
// mimalloc's in this executable; blocks from C malloc, from inside libc.so
// (strdup) and from posix_memalign are in mimalloc's heap; and a fresh
// pthread's first mallocs land there too while mimalloc's thread counter
// rises (the one per-allocation-path counter release builds keep).
func Proof() (Evidence, error) {
	var p C.fpl_mi_proof
	C.fpl_mi_prove(&p)
	ev := Evidence{Allocator: Name(), Version: Version()}
	v := int(p.version)
	ev.add("series", v/10000 == wantMajor, "mi_version %s, want major %d", decodeVersion(v), wantMajor)
	ev.add("archive", p.rust_version == p.version, "fplab-mimalloc archive reports %s", decodeVersion(int(p.rust_version)))
	from, self := C.GoString(&p.malloc_from[0]), C.GoString(&p.self_from[0])
	ev.add("malloc-symbol", from == self && p.malloc_is_mi_malloc != 0,
		"malloc resolves into %q (this executable: %q), is mi_malloc: %v", from, self, p.malloc_is_mi_malloc != 0)
	ev.add("c-malloc-owned", p.local_owned != 0 && p.local_checked != 0,
		"malloc(280) from C: mi_is_in_heap_region=%v mi_check_owned=%v", p.local_owned != 0, p.local_checked != 0)
	ev.add("libc-internal-owned", p.libc_owned != 0, "strdup inside libc.so: mi_is_in_heap_region=%v", p.libc_owned != 0)
	ev.add("posix-memalign-owned", p.memalign_owned != 0 && p.memalign_aligned != 0,
		"posix_memalign(64, 65536): mi_is_in_heap_region=%v 64-aligned=%v", p.memalign_owned != 0, p.memalign_aligned != 0)
	ev.add("fresh-thread", p.thread_ran != 0 && p.thread_owned != 0 && p.threads_after > p.threads_before,
		"new pthread's 64 x malloc(280) in heap=%v; mimalloc thread count %d -> %d",
		p.thread_owned != 0, p.threads_before, p.threads_after)
	return ev, ev.Err()
}
