//go:build !mimalloc2 && !mimalloc3

package cmalloc

// #cgo LDFLAGS: -ldl
// #include "glibc.h"
import "C"

import "github.com/fastpathlab/fplab/cell"

// Variant is the allocator variant of this build: no mimalloc, glibc's
// malloc serves C.
const Variant = cell.AllocGo

// GlibcVersion is gnu_get_libc_version() of the running process.
func GlibcVersion() string { return C.GoString(C.fpl_glibc_version()) }

// GlibcCounters are mallinfo2's fields, summed over all arenas.
type GlibcCounters struct {
	Arena, Ordblks, Hblks, Hblkhd, Uordblks, Fordblks, Keepcost int64
}

// ReadGlibcCounters calls mallinfo2.
func ReadGlibcCounters() GlibcCounters {
	var g C.fpl_glibc_counters
	C.fpl_glibc_counters_read(&g)
	return GlibcCounters{
		Arena: int64(g.arena), Ordblks: int64(g.ordblks), Hblks: int64(g.hblks),
		Hblkhd: int64(g.hblkhd), Uordblks: int64(g.uordblks), Fordblks: int64(g.fordblks),
		Keepcost: int64(g.keepcost),
	}
}

// GlibcProof is what fpl_glibc_prove observed (glibc.h).
type GlibcProof struct {
	// MallocFrom is the object defining the malloc this process calls.
	MallocFrom string
	// ViaPLT: &malloc was a canonical PLT entry in the executable, and
	// MallocFrom is the next definition after it (RTLD_NEXT).
	ViaPLT bool
	// MimallocVisible: a mimalloc symbol resolves at run time (an
	// LD_PRELOADed libmimalloc would).
	MimallocVisible bool
	// BurstBlocks x BurstSize bytes were malloc'ed from C and freed again;
	// mallinfo2's in-use bytes (uordblks + hblkhd) before, during and after.
	BurstBlocks                          int
	BurstSize                            int64
	BurstFailed                          bool
	InuseBefore, InuseDuring, InuseAfter int64
}

// ProveGlibc runs fpl_glibc_prove.
func ProveGlibc() GlibcProof {
	var p C.fpl_glibc_proof
	C.fpl_glibc_prove(&p)
	return GlibcProof{
		MallocFrom:      C.GoString(&p.malloc_from[0]),
		ViaPLT:          p.via_plt != 0,
		MimallocVisible: p.mi_symbol_visible != 0,
		BurstBlocks:     int(p.burst_blocks),
		BurstSize:       int64(p.burst_size),
		BurstFailed:     p.burst_failed != 0,
		InuseBefore:     int64(p.inuse_before),
		InuseDuring:     int64(p.inuse_during),
		InuseAfter:      int64(p.inuse_after),
	}
}
