//go:build !mimalloc2 && !mimalloc3

package alloc

// #cgo LDFLAGS: -ldl
// #include "glibc.h"
import "C"

import (
	"strings"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow/memory"
)

// Name is the allocator variant this binary was built for.
func Name() string { return "go" }

// Version is the C allocator's version as the running process reports it.
func Version() string { return "glibc " + C.GoString(C.fpl_glibc_version()) }

// Allocator returns the Arrow allocator for this variant: Go's heap.
func Allocator() memory.Allocator { return memory.NewGoAllocator() }

// OwnsPointer reports whether p lies in mimalloc's heap; always false here,
// no mimalloc is linked.
func OwnsPointer(p unsafe.Pointer) bool { return false }

// Counters snapshots glibc's process-wide malloc counters (mallinfo2) and
// the process RSS.
func Counters() (Snapshot, error) {
	var g C.fpl_glibc_counters
	C.fpl_glibc_counters_read(&g)
	rss, err := residentBytes()
	if err != nil {
		return Snapshot{}, err
	}
	c := Snapshot{
		Allocator:   Name(),
		HeapBytes:   int64(g.uordblks + g.hblkhd),
		SystemBytes: int64(g.arena + g.hblkhd),
		RSSBytes:    rss,
		Threads:     -1,
		Detail: map[string]int64{
			"arena": int64(g.arena), "ordblks": int64(g.ordblks), "hblks": int64(g.hblks),
			"hblkhd": int64(g.hblkhd), "uordblks": int64(g.uordblks), "fordblks": int64(g.fordblks),
			"keepcost": int64(g.keepcost),
		},
	}
	return c, nil
}

// Proof shows that glibc, not mimalloc, serves malloc in this process: the
// malloc symbol resolves into libc, no mimalloc symbol is visible (an
// LD_PRELOADed libmimalloc would be), and mallinfo2's in-use bytes rise by
// at least a C malloc burst and fall back after it is freed.
func Proof() (Evidence, error) {
	var p C.fpl_glibc_proof
	C.fpl_glibc_prove(&p)
	ev := Evidence{Allocator: Name(), Version: Version()}
	from := C.GoString(&p.malloc_from[0])
	if p.via_plt != 0 {
		from += " (through a canonical PLT entry in the executable)"
	}
	ev.add("malloc-symbol", strings.Contains(from, "libc.so"), "malloc resolves into %q", from)
	ev.add("no-mimalloc", p.mi_symbol_visible == 0, "mimalloc symbols visible at run time: %v", p.mi_symbol_visible != 0)
	want := int64(p.burst_blocks) * int64(p.burst_size)
	rise := int64(p.inuse_during - p.inuse_before)
	fall := int64(p.inuse_during - p.inuse_after)
	// Half the burst is the bar: other threads may free concurrently.
	ev.add("mallinfo2-burst", p.burst_failed == 0 && rise >= want/2 && fall >= want/2,
		"%d x malloc(%d) from C: mallinfo2 in-use %d -> %d -> %d bytes (rise %d, fall %d, want >= %d)",
		p.burst_blocks, p.burst_size, p.inuse_before, p.inuse_during, p.inuse_after, rise, fall, want/2)
	return ev, ev.Err()
}
