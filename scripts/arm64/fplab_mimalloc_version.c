/* arm64 stand-in for the Rust part of alloc/mimalloc (src/lib.rs): the
 * cross build compiles libmimalloc-sys's vendored mimalloc sources with
 * aarch64-linux-gnu-gcc instead of cargo (no aarch64 rustup target here),
 * and this one function is all the Rust staticlib adds on top of them.
 * alloc/internal/cmalloc/mi.h declares it; alloc's proof checks the series
 * with it. */
#include <mimalloc.h>

int fplab_mimalloc_version(void) { return mi_version(); }
