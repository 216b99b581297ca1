package cthreads

// #cgo LDFLAGS: -lpthread
// #include "sys.h"
import "C"

import (
	"errors"
	"time"
	"unsafe"
)

// Code is what a C helper returned (fpl_xt_code in sys.h). Every value but
// OK is an error; its text is fpl_xt_strerror's.
type Code int

// The codes, mirroring sys.h.
const (
	OK      Code = C.FPL_XT_OK
	NoMem   Code = C.FPL_XT_ENOMEM
	Thread  Code = C.FPL_XT_ETHREAD
	Corrupt Code = C.FPL_XT_ECORRUPT
	BadArg  Code = C.FPL_XT_EARG
)

func (c Code) Error() string { return C.GoString(C.fpl_xt_strerror(C.fpl_xt_code(c))) }

// check is nil for OK and the Code otherwise.
func check(rc C.fpl_xt_code) error {
	if c := Code(rc); c != OK {
		return c
	}
	return nil
}

// CrossThread runs n malloc(size) on one new pthread and the matching
// free on another, at most 512 blocks in flight (fpl_crossthread), and
// returns the wall time. n and size must be positive (BadArg otherwise).
func CrossThread(n int64, size int) (time.Duration, error) {
	if n <= 0 || size <= 0 {
		return 0, BadArg
	}
	var ns C.int64_t
	if err := check(C.fpl_crossthread(C.long(n), C.size_t(size), &ns)); err != nil {
		return 0, err
	}
	return time.Duration(ns), nil
}

// Background is cross-thread malloc/free traffic on two pthreads, running
// until Stop.
type Background struct{ bg *C.fpl_bg }

// StartBackground starts the traffic with blocks of size bytes.
func StartBackground(size int) (*Background, error) {
	if size <= 0 {
		return nil, BadArg
	}
	bg := C.fpl_bg_start(C.size_t(size))
	if bg == nil {
		return nil, errors.New("cannot start the background pthreads")
	}
	return &Background{bg: bg}, nil
}

// Stop stops and joins the two threads and returns the pairs they moved and
// the first failure they saw.
func (b *Background) Stop() (pairs int64, err error) {
	var n C.long
	err = check(C.fpl_bg_stop(b.bg, &n))
	b.bg = nil
	return int64(n), err
}

// ChurnLocal is one churn step on the calling thread (fpl_churn_local):
// rounds of malloc/calloc/realloc/posix_memalign/free, each block written
// and verified; seed varies the sizes and calls.
func ChurnLocal(rounds int, seed uint32) error {
	return check(C.fpl_churn_local(C.int(rounds), C.uint(seed)))
}

// Block is a C block of Size bytes filled with Tag, made on one thread to
// be checked and freed on another.
type Block struct {
	p    unsafe.Pointer
	Size int
	Tag  byte
}

// NewBlock mallocs and fills a Block (fpl_churn_make).
func NewBlock(size int, tag byte) (Block, error) {
	if size <= 0 {
		return Block{}, BadArg
	}
	p := C.fpl_churn_make(C.size_t(size), C.uchar(tag))
	if p == nil {
		return Block{}, NoMem
	}
	return Block{p: p, Size: size, Tag: tag}, nil
}

// CheckFree verifies the block still holds its tag and frees it
// (fpl_churn_check_free): Corrupt if it changed. The block is freed either
// way.
func (b Block) CheckFree() error {
	return check(C.fpl_churn_check_free(b.p, C.size_t(b.Size), C.uchar(b.Tag)))
}
