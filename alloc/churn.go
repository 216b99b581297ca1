package alloc

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fastpathlab/fplab/alloc/internal/cthreads"
)

// churnParallel bounds how many locked goroutines (hence OS threads) exist
// at once; each exits locked, so Go terminates its thread and starts another.
const churnParallel = 64

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
		return fmt.Errorf("ChurnThreads: n must be positive, got %d", n)
	}
	bg, err := cthreads.StartBackground(256)
	if err != nil {
		return fmt.Errorf("ChurnThreads: background C threads: %w", err)
	}
	mem := Allocator()
	// pass carries C blocks from a (soon dead) thread to another one, so
	// frees land on heaps whose owner thread has exited.
	pass := make(chan cthreads.Block, churnParallel)
	sem := make(chan struct{}, churnParallel)
	errs := make(chan error, n)
	var wg sync.WaitGroup
	var launchErr error
	for i := 0; i < n; i++ {
		select {
		case <-ctx.Done():
			launchErr = fmt.Errorf("ChurnThreads: stopped after %d of %d threads: %w", i, n, ctx.Err())
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
	for b := range pass {
		if err := b.CheckFree(); err != nil {
			rest = fmt.Errorf("ChurnThreads: handed-off block: %w", err)
		}
	}
	var bgErr error
	if _, err := bg.Stop(); err != nil {
		bgErr = fmt.Errorf("ChurnThreads: background C threads: %w", err)
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
func churnOne(i int, mem memory.Allocator, pass chan cthreads.Block) error {
	if err := cthreads.ChurnLocal(2, uint32(i)); err != nil {
		return fmt.Errorf("ChurnThreads: thread %d: %w", i, err)
	}
	for _, sz := range [...]int{280, 64 << 10} {
		b := mem.Allocate(sz)
		if len(b) != sz {
			return fmt.Errorf("ChurnThreads: thread %d: Allocate(%d) returned %d bytes", i, sz, len(b))
		}
		b[0], b[sz-1] = byte(i), byte(i)
		mem.Free(b)
	}
	// Free a block an earlier (probably exited) thread allocated.
	select {
	case b := <-pass:
		if err := b.CheckFree(); err != nil {
			return fmt.Errorf("ChurnThreads: thread %d freeing a handed-off block: %w", i, err)
		}
	default:
	}
	size := 232 + i%64
	b, err := cthreads.NewBlock(size, byte(i))
	if err != nil {
		return fmt.Errorf("ChurnThreads: thread %d: block of %d bytes: %w", i, size, err)
	}
	select {
	case pass <- b:
	default:
		// Nobody to hand it to: free it here; a changed block is still
		// a failure.
		if err := b.CheckFree(); err != nil {
			return fmt.Errorf("ChurnThreads: thread %d: own block: %w", i, err)
		}
	}
	return nil
}
