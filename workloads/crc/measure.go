package crc

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"time"
)

// DefaultSizes are corpus-sized messages (the bid schema encodes to about
// 100-150 B) and a batch-sized buffer (1 MiB, librdkafka's default
// fetch.max.bytes per partition is of that order).
var DefaultSizes = []int{100, 128, 150, 1 << 20}

// Options tune Measure. The zero value measures DefaultSizes with every
// implementation for DefaultMinTime each.
type Options struct {
	// Sizes are the message sizes in bytes; empty means DefaultSizes.
	Sizes []int
	// Impls are the implementation names to run; empty means all of Impls.
	Impls []string
	// MinTime is the least time spent measuring each (impl, size);
	// <= 0 means DefaultMinTime.
	MinTime time.Duration
	// Seed fills the buffers (the checksum's cost does not depend on the
	// bytes; a fixed seed keeps runs identical).
	Seed uint64
}

// DefaultMinTime is Measure's time per (impl, size).
const DefaultMinTime = 300 * time.Millisecond

// Result is one measured (impl, size).
type Result struct {
	Impl string
	Size int
	// Iters is how many messages were checksummed in the timed loop.
	Iters int64
	// NsPerMsg is the time per message; MBps the throughput in 10^6 bytes
	// per second (as Go's benchmark MB/s).
	NsPerMsg float64
	MBps     float64
}

// Name is the benchmark name without "BenchmarkCRC32C/".
func (r Result) Name() string { return fmt.Sprintf("impl=%s/size=%d", r.Impl, r.Size) }

// Measure times every selected implementation over every size. It checks
// first that all implementations agree on each buffer, so a figure is never
// reported for a wrong checksum.
func Measure(ctx context.Context, opt Options) ([]Result, error) {
	sizes := opt.Sizes
	if len(sizes) == 0 {
		sizes = DefaultSizes
	}
	minTime := opt.MinTime
	if minTime <= 0 {
		minTime = DefaultMinTime
	}
	impls := Impls()
	if len(opt.Impls) > 0 {
		impls = impls[:0:0]
		for _, n := range opt.Impls {
			im, err := ImplByName(n)
			if err != nil {
				return nil, err
			}
			impls = append(impls, im)
		}
	}
	rng := rand.New(rand.NewPCG(opt.Seed, opt.Seed^0x9e3779b97f4a7c15))
	var out []Result
	for _, size := range sizes {
		if size <= 0 || size > 1<<30 {
			return nil, fmt.Errorf("size %d out of range (1 B .. 1 GiB)", size)
		}
		buf := make([]byte, size)
		for i := range buf {
			buf[i] = byte(rng.Uint32())
		}
		if err := agree(buf); err != nil {
			return nil, err
		}
		for _, im := range impls {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			out = append(out, timeOne(im, buf, minTime))
		}
	}
	return out, nil
}

// agree checks every implementation against the first on buf.
func agree(buf []byte) error {
	all := Impls()
	want := all[0].Sum(buf)
	for _, im := range all[1:] {
		if got := im.Sum(buf); got != want {
			return fmt.Errorf("%s gives %#08x, %s %#08x on a %d-byte buffer", im.Name, got, all[0].Name, want, len(buf))
		}
	}
	return nil
}

// timeOne grows the iteration count until one timed loop lasts minTime,
// as testing.B does, and reports that loop.
func timeOne(im Impl, buf []byte, minTime time.Duration) Result {
	n := int64(1)
	for {
		start := time.Now()
		var acc uint32
		for range n {
			acc ^= im.Sum(buf)
		}
		d := time.Since(start)
		runtime.KeepAlive(acc) // the checksums are used: the loop stays
		if d >= minTime || n >= 1<<40 {
			ns := float64(d.Nanoseconds()) / float64(n)
			return Result{Impl: im.Name, Size: len(buf), Iters: n, NsPerMsg: ns, MBps: float64(len(buf)) / ns * 1e3}
		}
		next := n * 2
		if d > 0 {
			// aim 20% past minTime, at most 100x per step
			est := int64(float64(n) * 1.2 * float64(minTime) / float64(d))
			next = min(max(est, n+1), 100*n)
		}
		n = next
	}
}

// errNoResults is returned by WriteBench for an empty result list.
var errNoResults = errors.New("no results to write")
