package alloc

// #include "sys.h"
import "C"

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow/memory"
)

// churnParallel bounds how many locked goroutines (hence OS threads) exist
// at once; each exits locked, so Go terminates its thread and starts another.
const churnParallel = 64

// handoff is a C block passed from a (soon dead) thread to another one, so
// frees land on heaps whose owner thread has exited.
type handoff struct {
	p    unsafe.Pointer
	size int
	tag  byte
}

// ChurnThreads is the stability stress for the allocator in force: n
// goroutines each lock an OS thread, malloc/calloc/realloc/posix_memalign/
// free through C and allocate/free through Allocator(), pass a C block to a
// later thread to free, and return without unlocking, so Go terminates the
// thread (a thread born outside the allocator, dying with blocks freed
// elsewhere). Meanwhile two pthreads run cross-thread malloc/free traffic.
// It returns nil if every block came back intact; a crash is the failure it
// exists to provoke. Cancelling ctx stops launching threads and returns
// ctx's error after the running ones finish.
func ChurnThreads(ctx context.Context, n int) error {
	if n <= 0 {
		return fmt.Errorf("alloc: ChurnThreads: n must be positive, got %d", n)
	}
	bg := C.fpl_bg_start(256)
	if bg == nil {
		return errors.New("alloc: ChurnThreads: cannot start background C threads")
	}
	mem := Allocator()
	pass := make(chan handoff, churnParallel)
	sem := make(chan struct{}, churnParallel)
	errs := make(chan error, n)
	var wg sync.WaitGroup
	var launchErr error
	for i := 0; i < n; i++ {
		select {
		case <-ctx.Done():
			launchErr = fmt.Errorf("alloc: ChurnThreads: stopped after %d of %d threads: %w", i, n, ctx.Err())
		case sem <- struct{}{}:
		}
		if launchErr != nil {
			break
		}
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			defer func() { <-sem }()
			// Deliberately no UnlockOSThread: the thread dies with the goroutine.
			runtime.LockOSThread()
			if err := churnOne(i, mem, pass); err != nil {
				errs <- err
			}
		}(i)
	}
	wg.Wait()
	close(pass)
	var rest error
	for h := range pass {
		if rc := C.fpl_churn_check_free(h.p, C.size_t(h.size), C.uchar(h.tag)); rc != 0 {
			rest = fmt.Errorf("alloc: ChurnThreads: handed-off block: %s", C.GoString(C.fpl_xt_strerror(rc)))
		}
	}
	var pairs C.long
	bgErr := error(nil)
	if rc := C.fpl_bg_stop(bg, &pairs); rc != 0 {
		bgErr = fmt.Errorf("alloc: ChurnThreads: background C threads: %s", C.GoString(C.fpl_xt_strerror(rc)))
	}
	close(errs)
	all := []error{launchErr, rest, bgErr}
	for err := range errs {
		all = append(all, err)
		if len(all) > 8 {
			break
		}
	}
	return errors.Join(all...)
}

// churnOne is the body of one locked goroutine.
func churnOne(i int, mem memory.Allocator, pass chan handoff) error {
	if rc := C.fpl_churn_local(2, C.uint(i)); rc != 0 {
		return fmt.Errorf("alloc: ChurnThreads: thread %d: %s", i, C.GoString(C.fpl_xt_strerror(rc)))
	}
	for _, sz := range [...]int{280, 64 << 10} {
		b := mem.Allocate(sz)
		if len(b) != sz {
			return fmt.Errorf("alloc: ChurnThreads: thread %d: Allocate(%d) returned %d bytes", i, sz, len(b))
		}
		b[0], b[sz-1] = byte(i), byte(i)
		mem.Free(b)
	}
	// Free a block an earlier (probably exited) thread allocated.
	select {
	case h := <-pass:
		if rc := C.fpl_churn_check_free(h.p, C.size_t(h.size), C.uchar(h.tag)); rc != 0 {
			return fmt.Errorf("alloc: ChurnThreads: thread %d freeing a handed-off block: %s", i, C.GoString(C.fpl_xt_strerror(rc)))
		}
	default:
	}
	size := 232 + i%64
	tag := byte(i)
	p := C.fpl_churn_make(C.size_t(size), C.uchar(tag))
	if p == nil {
		return fmt.Errorf("alloc: ChurnThreads: thread %d: malloc(%d) returned NULL", i, size)
	}
	select {
	case pass <- handoff{p: p, size: size, tag: tag}:
	default:
		C.fpl_churn_check_free(p, C.size_t(size), C.uchar(tag))
	}
	return nil
}
