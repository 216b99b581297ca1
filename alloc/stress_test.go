package alloc_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/fastpathlab/fplab/alloc"
)

func TestCrossThread(t *testing.T) {
	for _, size := range []int{256, 64 << 10} {
		ops, err := alloc.CrossThread(20000, size)
		if err != nil {
			t.Fatal(err)
		}
		if ops <= 0 {
			t.Fatalf("size %d: %v pairs/s", size, ops)
		}
	}
	for _, bad := range [][2]int{{0, 256}, {10, 0}, {-1, -1}} {
		if _, err := alloc.CrossThread(bad[0], bad[1]); err == nil {
			t.Errorf("CrossThread(%d, %d) succeeded; want error", bad[0], bad[1])
		}
	}
}

// The stability question for every variant (upstream's v3 crashed on the
// first allocation of a thread created outside mimalloc): 2,560 locked Go
// threads that exit locked, alongside C threads. A crash fails the binary.
func TestChurnThreadsSurvives(t *testing.T) {
	n := 2560
	if testing.Short() {
		n = 256
	}
	before, err := alloc.Counters()
	if err != nil {
		t.Fatal(err)
	}
	existing := osThreads(t)
	if err := alloc.ChurnThreads(context.Background(), n); err != nil {
		t.Fatal(err)
	}
	after, err := alloc.Counters()
	if err != nil {
		t.Fatal(err)
	}
	// mimalloc counts every thread that entered it: each churned thread
	// did. A churned goroutine may land on one of the process's threads
	// that existed before, which mimalloc may have counted already (each
	// such thread dies with its goroutine, so at most once): the count
	// rises by n less those at least.
	if alloc.Name() != "go" {
		if d := after.Threads - before.Threads; d < int64(n-existing) {
			t.Fatalf("mimalloc thread count rose %d over %d churned threads (%d threads existed before)", d, n, existing)
		}
	}
}

func TestChurnThreadsHonoursContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	err := alloc.ChurnThreads(ctx, 1000)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("ChurnThreads on a cancelled context = %v, want context.Canceled", err)
	}
	if err := alloc.ChurnThreads(context.Background(), 0); err == nil {
		t.Fatal("ChurnThreads(0) succeeded; want error")
	}
}

// go test -bench CrossThread -tags mimalloc2 ./alloc/
func BenchmarkCrossThread(b *testing.B) {
	for _, size := range []int{256, 64 << 10} {
		b.Run(fmt.Sprintf("alloc=%s/size=%d", alloc.Name(), size), func(b *testing.B) {
			ops, err := alloc.CrossThread(b.N, size)
			if err != nil {
				b.Fatal(err)
			}
			b.ReportMetric(ops, "pairs/s")
		})
	}
}

func BenchmarkArrowAllocator(b *testing.B) {
	mem := alloc.Allocator()
	for _, size := range []int{256, 64 << 10} {
		b.Run(fmt.Sprintf("alloc=%s/size=%d", alloc.Name(), size), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				buf := mem.Allocate(size)
				buf[0] = byte(i)
				mem.Free(buf)
			}
		})
	}
}

// osThreads is how many threads the process runs (/proc/self/status).
func osThreads(t *testing.T) int {
	t.Helper()
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(line, "Threads:"); ok {
			n, err := strconv.Atoi(strings.TrimSpace(v))
			if err != nil {
				t.Fatal(err)
			}
			return n
		}
	}
	t.Fatal("no Threads line in /proc/self/status")
	return 0
}
