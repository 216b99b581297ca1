package alloc

import (
	"fmt"

	"github.com/fastpathlab/fplab/alloc/internal/cthreads"
)

// CrossThread measures the C allocator's cross-thread free path, the pattern
// librdkafka has per consumed message (op allocated on its broker thread,
// freed on the application thread): n malloc(size) on one pthread, the
// matching free on another, at most 512 blocks in flight. It returns
// malloc/free pairs per second of wall time. Sizes like librdkafka's op
// (~200-300 bytes) and Arrow buffers (64 KiB) are the interesting ones.
func CrossThread(n int, size int) (float64, error) {
	if n <= 0 {
		return 0, fmt.Errorf("CrossThread: n must be positive, got %d", n)
	}
	if size <= 0 {
		return 0, fmt.Errorf("CrossThread: size must be positive, got %d", size)
	}
	d, err := cthreads.CrossThread(int64(n), size)
	if err != nil {
		return 0, fmt.Errorf("CrossThread(n=%d, size=%d): %w", n, size, err)
	}
	if d <= 0 {
		d = 1
	}
	return float64(n) / d.Seconds(), nil
}
