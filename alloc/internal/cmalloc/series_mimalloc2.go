//go:build mimalloc2 && !mimalloc3

package cmalloc

// The archive and headers come from `make alloc-libs` (alloc/Makefile.inc),
// under alloc/mimalloc/lib, two directories up. mi.h stops the build with
// that message if they are missing.

// #cgo CFLAGS: -DFPL_MI_SERIES=2 -I${SRCDIR}/../../mimalloc/lib/include-v2
// #cgo linux,amd64 LDFLAGS: ${SRCDIR}/../../mimalloc/lib/linux_amd64/v2/libfplab_mimalloc.a
// #cgo linux,arm64 LDFLAGS: ${SRCDIR}/../../mimalloc/lib/linux_arm64/v2/libfplab_mimalloc.a
// #cgo LDFLAGS: -lpthread -ldl
import "C"

import "github.com/fastpathlab/fplab/cell"

// Variant is the allocator variant of this build, and Series the mimalloc
// major version it links.
const (
	Variant = cell.AllocMimalloc2
	Series  = 2
)
