//go:build mimalloc2 || mimalloc3

package cmalloc

// #include <stdlib.h>
// #include "mi.h"
import "C"

import (
	"errors"
	"unsafe"
)

// The results of fpl_mi_counters_read (fpl_mi_rc in mi.h).
const (
	miOK            = C.FPL_MI_OK
	miStatsRejected = C.FPL_MI_STATS_REJECTED
)

// ErrStatsRejected is fpl_mi_counters_read's FPL_MI_STATS_REJECTED:
// mi_stats_get refused the stats layout mi.c was compiled against.
var ErrStatsRejected = errors.New("mi_stats_get rejected the stats layout")

// MiVersion is mi_version() of the linked mimalloc (major*10000 +
// minor*100 + patch).
func MiVersion() int { return int(C.mi_version()) }

// InHeap reports mi_is_in_heap_region(p).
func InHeap(p unsafe.Pointer) bool { return bool(C.mi_is_in_heap_region(p)) }

// ZallocAligned returns size zeroed bytes aligned to align from
// mi_zalloc_aligned, or nil when mimalloc is out of memory. size > 0.
func ZallocAligned(size, align int) []byte {
	p := C.mi_zalloc_aligned(C.size_t(size), C.size_t(align))
	if p == nil {
		return nil
	}
	return unsafe.Slice((*byte)(p), size)
}

// RezallocAligned grows or shrinks b, a block from ZallocAligned or
// RezallocAligned with the same align, to size bytes with
// mi_rezalloc_aligned (new bytes zeroed, contents kept), or returns nil
// when mimalloc is out of memory (b is then still valid).
func RezallocAligned(b []byte, size, align int) []byte {
	p := C.mi_rezalloc_aligned(unsafe.Pointer(unsafe.SliceData(b)), C.size_t(size), C.size_t(align))
	if p == nil {
		return nil
	}
	return unsafe.Slice((*byte)(p), size)
}

// Free returns a block from ZallocAligned or RezallocAligned (mi_free).
func Free(b []byte) { C.mi_free(unsafe.Pointer(unsafe.SliceData(b))) }

// MiCounters are mimalloc's process-wide counters (mi_stats_get and
// mi_process_info) as fpl_mi_counters_read reads them; HeapsTotal is 0 in
// the v2 series, which does not count heaps.
type MiCounters struct {
	Reserved, Committed, ReservedTotal, CommittedTotal int64
	MmapCalls, CommitCalls, PurgeCalls, ArenaCount     int64
	ThreadsTotal, ThreadsCurrent, HeapsTotal           int64
	MallocHugeCount                                    int64
	PeakRSS, PeakCommit, PageFaults                    int64
}

// ReadMiCounters runs fpl_mi_counters_read; its FPL_MI_STATS_REJECTED is
// ErrStatsRejected.
func ReadMiCounters() (MiCounters, error) {
	var c C.fpl_mi_counters
	switch rc := C.fpl_mi_counters_read(&c); rc {
	case miOK:
	case miStatsRejected:
		return MiCounters{}, ErrStatsRejected
	default:
		return MiCounters{}, errors.New("fpl_mi_counters_read: unknown result")
	}
	return MiCounters{
		Reserved: int64(c.reserved), Committed: int64(c.committed),
		ReservedTotal: int64(c.reserved_total), CommittedTotal: int64(c.committed_total),
		MmapCalls: int64(c.mmap_calls), CommitCalls: int64(c.commit_calls),
		PurgeCalls: int64(c.purge_calls), ArenaCount: int64(c.arena_count),
		ThreadsTotal: int64(c.threads_total), ThreadsCurrent: int64(c.threads_current),
		HeapsTotal: int64(c.heaps_total), MallocHugeCount: int64(c.malloc_huge_count),
		PeakRSS: int64(c.peak_rss), PeakCommit: int64(c.peak_commit), PageFaults: int64(c.page_faults),
	}, nil
}

// MiProof is what fpl_mi_prove observed (mi.h).
type MiProof struct {
	// Version is mi_version(); ArchiveVersion what the fplab-mimalloc
	// archive reports (fplab_mimalloc_version).
	Version, ArchiveVersion int
	// MallocFrom is the object defining the malloc this process calls,
	// SelfFrom the object holding this code (the executable).
	MallocFrom, SelfFrom string
	MallocIsMiMalloc     bool
	// malloc(280) from C: mi_is_in_heap_region and mi_check_owned.
	LocalOwned, LocalChecked bool
	// strdup inside libc.so landed in mimalloc's heap.
	LibcOwned bool
	// posix_memalign(64, 65536): in the heap and 64-byte aligned.
	MemalignOwned, MemalignAligned bool
	// A fresh pthread ran, its mallocs were all in the heap, and mimalloc's
	// thread counter before and after it.
	ThreadRan, ThreadOwned      bool
	ThreadsBefore, ThreadsAfter int64
}

// ProveMi runs fpl_mi_prove.
func ProveMi() MiProof {
	var p C.fpl_mi_proof
	C.fpl_mi_prove(&p)
	return MiProof{
		Version: int(p.version), ArchiveVersion: int(p.rust_version),
		MallocFrom: C.GoString(&p.malloc_from[0]), SelfFrom: C.GoString(&p.self_from[0]),
		MallocIsMiMalloc: p.malloc_is_mi_malloc != 0,
		LocalOwned:       p.local_owned != 0, LocalChecked: p.local_checked != 0,
		LibcOwned:     p.libc_owned != 0,
		MemalignOwned: p.memalign_owned != 0, MemalignAligned: p.memalign_aligned != 0,
		ThreadRan: p.thread_ran != 0, ThreadOwned: p.thread_owned != 0,
		ThreadsBefore: int64(p.threads_before), ThreadsAfter: int64(p.threads_after),
	}
}
