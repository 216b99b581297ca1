//go:build !mimalloc2 && !mimalloc3

package alloc

import (
	"strings"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fastpathlab/fplab/alloc/internal/cmalloc"
)

// Name is the allocator variant this binary was built for.
func Name() string { return cmalloc.Variant }

// Version is the C allocator's version as the running process reports it.
func Version() string { return "glibc " + cmalloc.GlibcVersion() }

// Allocator returns the Arrow allocator for this variant: Go's heap.
func Allocator() memory.Allocator { return memory.NewGoAllocator() }

// OwnsPointer reports whether p lies in mimalloc's heap; always false here,
// no mimalloc is linked.
func OwnsPointer(p unsafe.Pointer) bool { return false }

// Counters snapshots glibc's process-wide malloc counters (mallinfo2) and
// the process RSS.
func Counters() (Snapshot, error) {
	g := cmalloc.ReadGlibcCounters()
	rss, err := residentBytes()
	if err != nil {
		return Snapshot{}, err
	}
	c := Snapshot{
		Allocator:   Name(),
		HeapBytes:   g.Uordblks + g.Hblkhd,
		SystemBytes: g.Arena + g.Hblkhd,
		RSSBytes:    rss,
		Threads:     -1,
		Detail: map[string]int64{
			"arena": g.Arena, "ordblks": g.Ordblks, "hblks": g.Hblks,
			"hblkhd": g.Hblkhd, "uordblks": g.Uordblks, "fordblks": g.Fordblks,
			"keepcost": g.Keepcost,
		},
	}
	return c, nil
}

// Proof shows that glibc, not mimalloc, serves malloc in this process: the
// malloc symbol resolves into libc, no mimalloc symbol is visible (an
// LD_PRELOADed libmimalloc would be), and mallinfo2's in-use bytes rise by
// at least a C malloc burst and fall back after it is freed.
func Proof() (Evidence, error) {
	p := cmalloc.ProveGlibc()
	ev := Evidence{Allocator: Name(), Version: Version()}
	from := p.MallocFrom
	if p.ViaPLT {
		from += " (through a canonical PLT entry in the executable)"
	}
	ev.add("malloc-symbol", strings.Contains(from, "libc.so"), "malloc resolves into %q", from)
	ev.add("no-mimalloc", !p.MimallocVisible, "mimalloc symbols visible at run time: %v", p.MimallocVisible)
	want := int64(p.BurstBlocks) * p.BurstSize
	rise := p.InuseDuring - p.InuseBefore
	fall := p.InuseDuring - p.InuseAfter
	// Half the burst is the bar: other threads may free concurrently.
	ev.add("mallinfo2-burst", !p.BurstFailed && rise >= want/2 && fall >= want/2,
		"%d x malloc(%d) from C: mallinfo2 in-use %d -> %d -> %d bytes (rise %d, fall %d, want >= %d)",
		p.BurstBlocks, p.BurstSize, p.InuseBefore, p.InuseDuring, p.InuseAfter, rise, fall, want/2)
	return ev, ev.Err()
}
