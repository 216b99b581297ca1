/* C side of the mimalloc variants' proof and counters. Compiled with
 * -DFPL_MI_SERIES=2 or 3 and mimalloc's headers from `make alloc-libs`
 * (alloc/mimalloc/lib, two directories up from this file); without them the
 * build stops here with the make target to run. */
#ifndef FPLAB_ALLOC_MI_H
#define FPLAB_ALLOC_MI_H

#if FPL_MI_SERIES == 2
#  if !__has_include("../../mimalloc/lib/include-v2/mimalloc.h")
#    error "alloc: mimalloc2 headers missing (alloc/mimalloc/lib/include-v2): run 'make alloc-libs'"
#  endif
#  if defined(__x86_64__) && !__has_include("../../mimalloc/lib/linux_amd64/v2/libfplab_mimalloc.a")
#    error "alloc: mimalloc2 library missing (alloc/mimalloc/lib/linux_amd64/v2): run 'make alloc-libs'"
#  endif
#  if defined(__aarch64__) && !__has_include("../../mimalloc/lib/linux_arm64/v2/libfplab_mimalloc.a")
#    error "alloc: mimalloc2 library missing (alloc/mimalloc/lib/linux_arm64/v2): run 'make alloc-libs GOARCH=arm64'"
#  endif
#elif FPL_MI_SERIES == 3
#  if !__has_include("../../mimalloc/lib/include-v3/mimalloc.h")
#    error "alloc: mimalloc3 headers missing (alloc/mimalloc/lib/include-v3): run 'make alloc-libs'"
#  endif
#  if defined(__x86_64__) && !__has_include("../../mimalloc/lib/linux_amd64/v3/libfplab_mimalloc.a")
#    error "alloc: mimalloc3 library missing (alloc/mimalloc/lib/linux_amd64/v3): run 'make alloc-libs'"
#  endif
#  if defined(__aarch64__) && !__has_include("../../mimalloc/lib/linux_arm64/v3/libfplab_mimalloc.a")
#    error "alloc: mimalloc3 library missing (alloc/mimalloc/lib/linux_arm64/v3): run 'make alloc-libs GOARCH=arm64'"
#  endif
#else
#  error "alloc: build with exactly one of the tags mimalloc2, mimalloc3 (or neither for the go variant)"
#endif

#include <mimalloc.h>
#include <stddef.h>
#include <stdint.h>

typedef struct {
	int64_t reserved, committed, reserved_total, committed_total;
	int64_t mmap_calls, commit_calls, purge_calls, arena_count;
	int64_t threads_total, threads_current, heaps_total, malloc_huge_count;
	int64_t peak_rss, peak_commit, page_faults;
} fpl_mi_counters;

typedef struct {
	int version, rust_version;
	char malloc_from[256], self_from[256];
	int malloc_is_mi_malloc;
	int local_owned, local_checked, libc_owned, memalign_owned, memalign_aligned;
	int thread_ran, thread_owned;
	int64_t threads_before, threads_after;
} fpl_mi_proof;

/* What fpl_mi_counters_read returns. */
typedef enum {
	FPL_MI_OK = 0,
	FPL_MI_STATS_REJECTED = 1, /* mi_stats_get refused this stats layout (size, version) */
} fpl_mi_rc;

int fplab_mimalloc_version(void); /* from the Rust archive */
fpl_mi_rc fpl_mi_counters_read(fpl_mi_counters *c);
void fpl_mi_prove(fpl_mi_proof *p);

#endif
