//go:build mimalloc2 || mimalloc3

package alloc

import (
	"fmt"
	"unsafe"

	"github.com/fastpathlab/fplab/alloc/internal/cmalloc"
)

// Name is the allocator variant this binary was built for.
func Name() string { return cmalloc.Variant }

// Version is mimalloc's version as the linked library reports it (mi_version).
func Version() string { return decodeVersion(cmalloc.MiVersion()) }

func decodeVersion(v int) string {
	return fmt.Sprintf("%d.%d.%d", v/10000, v/100%100, v%100)
}

// OwnsPointer reports whether p lies in mimalloc's heap (mi_is_in_heap_region);
// other packages use it to check that memory their C code got from malloc
// (librdkafka's, say) came from mimalloc.
func OwnsPointer(p unsafe.Pointer) bool {
	return cmalloc.InHeap(p)
}

// Counters snapshots mimalloc's process-wide counters (mi_stats_get and
// mi_process_info) and the process RSS. Release builds keep OS-level
// counters and thread counts only; see Snapshot.
func Counters() (Snapshot, error) {
	c, err := cmalloc.ReadMiCounters()
	if err != nil {
		return Snapshot{}, fmt.Errorf("%s: %w", Name(), err)
	}
	rss, err := residentBytes()
	if err != nil {
		return Snapshot{}, err
	}
	s := Snapshot{
		Allocator:   Name(),
		HeapBytes:   c.Committed,
		SystemBytes: c.Reserved,
		RSSBytes:    rss,
		Threads:     c.ThreadsTotal,
		Detail: map[string]int64{
			"reserved": c.Reserved, "committed": c.Committed,
			"reserved_total": c.ReservedTotal, "committed_total": c.CommittedTotal,
			"mmap_calls": c.MmapCalls, "commit_calls": c.CommitCalls,
			"purge_calls": c.PurgeCalls, "arena_count": c.ArenaCount,
			"threads_total": c.ThreadsTotal, "threads_current": c.ThreadsCurrent,
			"malloc_huge_count": c.MallocHugeCount,
			"peak_rss":          c.PeakRSS, "peak_commit": c.PeakCommit,
			"page_faults": c.PageFaults,
		},
	}
	if cmalloc.Series >= 3 {
		s.Detail["heaps_total"] = c.HeapsTotal
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
	p := cmalloc.ProveMi()
	ev := Evidence{Allocator: Name(), Version: Version()}
	ev.add("series", p.Version/10000 == cmalloc.Series, "mi_version %s, want major %d", decodeVersion(p.Version), cmalloc.Series)
	ev.add("archive", p.ArchiveVersion == p.Version, "fplab-mimalloc archive reports %s", decodeVersion(p.ArchiveVersion))
	ev.add("malloc-symbol", p.MallocFrom == p.SelfFrom && p.MallocIsMiMalloc,
		"malloc resolves into %q (this executable: %q), is mi_malloc: %v", p.MallocFrom, p.SelfFrom, p.MallocIsMiMalloc)
	ev.add("c-malloc-owned", p.LocalOwned && p.LocalChecked,
		"malloc(280) from C: mi_is_in_heap_region=%v mi_check_owned=%v", p.LocalOwned, p.LocalChecked)
	ev.add("libc-internal-owned", p.LibcOwned, "strdup inside libc.so: mi_is_in_heap_region=%v", p.LibcOwned)
	ev.add("posix-memalign-owned", p.MemalignOwned && p.MemalignAligned,
		"posix_memalign(64, 65536): mi_is_in_heap_region=%v 64-aligned=%v", p.MemalignOwned, p.MemalignAligned)
	ev.add("fresh-thread", p.ThreadRan && p.ThreadOwned && p.ThreadsAfter > p.ThreadsBefore,
		"new pthread's 64 x malloc(280) in heap=%v; mimalloc thread count %d -> %d",
		p.ThreadOwned, p.ThreadsBefore, p.ThreadsAfter)
	return ev, ev.Err()
}
