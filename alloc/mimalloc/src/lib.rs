//! fplab-mimalloc: a static archive that carries mimalloc's C object (built
//! by libmimalloc-sys with its `override` feature) so that cgo in package
//! alloc can link it into the fplab binary. The malloc/free/... symbols of
//! the whole process then resolve to mimalloc. No Rust code runs; the one
//! exported function lets the Go side check which series it linked.
#![no_std]

use core::panic::PanicInfo;

// Referencing the crate makes rustc bundle its native archive (mimalloc).
extern crate libmimalloc_sys;

extern "C" {
    fn mi_version() -> i32;
}

/// Returns mimalloc's version as major*10000 + minor*100 + patch.
#[no_mangle]
pub extern "C" fn fplab_mimalloc_version() -> i32 {
    // SAFETY: mi_version has no preconditions.
    unsafe { mi_version() }
}

#[panic_handler]
fn panic(_: &PanicInfo) -> ! {
    loop {}
}
