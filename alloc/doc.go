// Package alloc is the lab's allocator axis: it decides which allocator
// serves the C heap (librdkafka's per-message ops, allocated on its broker
// thread and freed on the application thread) and Arrow's buffers, and it
// proves in every cell that the allocator a cell claims is in force.
//
// Where it sits: alloc lives beside source/ and clusters/ under the ladder.
// The ladder builds one fplab binary per variant — bin/fplab (go),
// bin/fplab-mimalloc2, bin/fplab-mimalloc3 — and runs each cell (spec ->
// cells -> child process -> result -> journal -> tables/plots/report) in the
// binary for the cell's allocator. The child process calls Proof before it
// measures, so a cell that claims an allocator that is not in force fails
// instead of reporting a number; Counters snapshots the process-wide malloc
// counters around the measured window.
//
// Variants, one per binary, chosen by build tag:
//
//   - go (no tag): Arrow buffers from arrow-go's memory.NewGoAllocator();
//     malloc is glibc's.
//   - mimalloc2 (tag mimalloc2): mimalloc v2 statically linked and overriding
//     malloc, free, realloc, calloc, posix_memalign, aligned_alloc, ... for
//     the whole process; Arrow buffers from mi_zalloc_aligned /
//     mi_rezalloc_aligned / mi_free at 64-byte alignment.
//   - mimalloc3 (tag mimalloc3): the same with the v3 series.
//
// Both mimalloc series come from one provider, the Rust crate
// libmimalloc-sys, compiled into a static archive by the crate under
// alloc/mimalloc (make alloc-libs). What alloc owns: the variant API (Name,
// Version, Allocator, Proof, Counters, OwnsPointer), the cross-thread
// malloc/free micro-benchmark (CrossThread), and the OS-thread churn stress
// (ChurnThreads).
//
// alloc itself calls no C. Its C lives in two internal packages, as
// arrow-go keeps its cgo allocator in arrow/memory/internal/cgoalloc:
//
//   - alloc/internal/cmalloc: per variant, under the same build tags, the
//     glibc proof and counters (glibc.c) or the mimalloc link, aligned API,
//     proof and counters (mi.c, series_mimalloc2.go, series_mimalloc3.go);
//     the tag pair mimalloc2 + mimalloc3 is refused there.
//   - alloc/internal/cthreads: the allocator-neutral pthread helpers under
//     CrossThread and ChurnThreads (sys.c), whose result codes (fpl_xt_code)
//     are Go constants.
//
// The probe subpackage alloc/rdkprobe calls librdkafka's allocator, for the
// tests that check librdkafka's mallocs land in the claimed allocator.
package alloc
