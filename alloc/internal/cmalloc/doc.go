// Package cmalloc is alloc's C for the allocator variants: the glibc proof
// and counters of the go variant (glibc.c), and, in the mimalloc variants,
// the link of the fplab-mimalloc archive that overrides malloc for the whole
// process, mimalloc's aligned API for Arrow buffers, and its proof and
// counters (mi.c). Package alloc turns what it reports into Evidence and
// Snapshots; nothing else imports it.
//
// Where it sits in the flow:
//
//	spec -> cells -> child process (fplab rung / fplab micro) -> [alloc -> cmalloc] -> result -> journal -> tables/plots/report
//
// Build tags, one variant per binary (as alloc/Makefile.inc passes them):
//
//   - none: the go variant; glibc.go and glibc.c (GlibcVersion,
//     ReadGlibcCounters, ProveGlibc).
//   - mimalloc2: mimalloc.go and mi.c with series_mimalloc2.go's cgo lines,
//     which link alloc/mimalloc/lib/linux_<goarch>/v2/libfplab_mimalloc.a
//     and compile against alloc/mimalloc/lib/include-v2 (MiVersion, InHeap,
//     ZallocAligned, RezallocAligned, Free, ReadMiCounters, ProveMi).
//   - mimalloc3: the same against the v3 archive and headers.
//   - mimalloc2 and mimalloc3 together: refused (tags_conflict.go); the two
//     series define the same symbols.
//
// Variant names the build in every variant with cell's alloc value
// (cell.AllocGo, cell.AllocMimalloc2, cell.AllocMimalloc3). The archives
// and headers come from `make alloc-libs`; without them mi.h stops the
// build with that target. The one code a C function here returns,
// fpl_mi_counters_read's fpl_mi_rc, is named in mi.h and mirrored in
// mimalloc.go.
package cmalloc
