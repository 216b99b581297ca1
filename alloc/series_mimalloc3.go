//go:build mimalloc3 && !mimalloc2

package alloc

// The archive and headers come from `make alloc-libs` (alloc/Makefile.inc).
// mi.h stops the build with that message if they are missing.

// #cgo CFLAGS: -DFPL_MI_SERIES=3 -I${SRCDIR}/mimalloc/lib/include-v3
// #cgo linux,amd64 LDFLAGS: ${SRCDIR}/mimalloc/lib/linux_amd64/v3/libfplab_mimalloc.a
// #cgo linux,arm64 LDFLAGS: ${SRCDIR}/mimalloc/lib/linux_arm64/v3/libfplab_mimalloc.a
// #cgo LDFLAGS: -lpthread -ldl
import "C"

const (
	variantName = "mimalloc3"
	wantMajor   = 3
)
