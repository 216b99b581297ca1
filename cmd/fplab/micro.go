package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/fastpathlab/fplab/alloc"
	"github.com/fastpathlab/fplab/ladder"
	"github.com/fastpathlab/fplab/workloads/crc"
)

// runMicro runs one micro-benchmark and prints it as one ladder result, so
// its rows land in the same journal and tables as the cells.
func runMicro(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("micro", stderr)
	bench := fs.String("bench", "", "crossthread or crc32c")
	size := fs.Int("size", 256, "block (crossthread) or message (crc32c) size in bytes")
	impl := fs.String("impl", "go-castagnoli", "crc32c implementation")
	n := fs.Int("n", 1_000_000, "crossthread: malloc/free pairs")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *size <= 0 {
		return fmt.Errorf("micro: --size must be > 0, got %d", *size)
	}
	var name string
	var metrics [][2]any
	var iters int64
	switch *bench {
	case ladder.MicroCrossThread:
		if _, err := alloc.Proof(); err != nil {
			return fmt.Errorf("micro: alloc=%s not in force: %v", alloc.Name(), err)
		}
		start := time.Now()
		rate, err := alloc.CrossThread(*n, *size)
		if err != nil {
			return err
		}
		if time.Since(start) <= 0 || rate <= 0 {
			return fmt.Errorf("micro: crossthread measured nothing")
		}
		name = fmt.Sprintf("micro=crossthread/size=%d/alloc=%s", *size, alloc.Name())
		iters = int64(*n)
		metrics = [][2]any{{rate, "pairs/s"}, {1e9 / rate, "ns/pair"}}
	case ladder.MicroCRC32C:
		rs, err := crc.Measure(ctx, crc.Options{Sizes: []int{*size}, Impls: []string{*impl}})
		if err != nil {
			return err
		}
		r := rs[0]
		name = fmt.Sprintf("micro=crc32c/impl=%s/size=%d", r.Impl, r.Size)
		iters = r.Iters
		metrics = [][2]any{{r.MBps, "crc-MB/s"}, {r.NsPerMsg, "crc-ns/msg"}}
	default:
		return fmt.Errorf("micro: unknown --bench %q (want %s or %s)", *bench, ladder.MicroCrossThread, ladder.MicroCRC32C)
	}
	fmt.Fprintf(stdout, "goos: linux\ngoarch: %s\nalloc-version: %s\ncrc32c-hardware: %s\n", goarch(), alloc.Version(), crc.HardwareCRC())
	fmt.Fprintf(stdout, "BenchmarkLadder/%s %d", name, iters)
	for _, m := range metrics {
		fmt.Fprintf(stdout, " %.6g %s", m[0], m[1])
	}
	fmt.Fprintln(stdout)
	return nil
}
