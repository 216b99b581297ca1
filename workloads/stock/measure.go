package stock

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"syscall"
	"time"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fastpathlab/fplab/cell"
	"github.com/fastpathlab/fplab/workloads"
	"github.com/fastpathlab/fplab/workloads/recycle"
)

// BatchRows is the rows per Arrow batch Measure cuts, as the consume
// paths do at batch=8192.
const BatchRows = 8192

// The allocators Measure can give the routes (Options.Mem): MemGo is Go's
// allocator alone, every batch fresh, zeroed memory; MemPool is the
// consume paths' own, a workloads/recycle pool over Go's allocator that
// hands a released batch's buffers to the next batch. A lab decoder takes
// a pooled buffer unzeroed where it writes every byte it reads
// (workloads.Columnar); the stock routes' Arrow builders take theirs
// zeroed.
const (
	MemGo   = cell.DecodeMemGo
	MemPool = cell.DecodeMemPool
)

// Defaults of Options.
const (
	DefaultRecords = 8 * BatchRows
	DefaultMinTime = time.Second
	DefaultSchema  = "bid"
)

// Options select what Measure runs. The zero value measures every route
// of every format on DefaultRecords records of schema bid.
type Options struct {
	// Formats to measure; empty means Formats().
	Formats []workloads.Format
	// Libs to measure in each format ("lab" and stock names); empty means
	// every route of the format. Each must be a route of every format.
	Libs []string
	// Schema names the record schema; "" means DefaultSchema.
	Schema string
	// Records is the corpus size; <= 0 means DefaultRecords.
	Records int
	// Size scales the records to about Size bytes each
	// (workloads.ValueSize); <= 110 keeps the natural ~100 B records.
	Size int
	// Seed is the corpus seed.
	Seed uint64
	// MinTime is the least time spent decoding per route (whole passes
	// over the corpus); <= 0 means DefaultMinTime.
	MinTime time.Duration
	// Mem is the allocator every route's batches come from (MemGo or
	// MemPool); "" means MemGo.
	Mem string
}

// Result is one measured route.
type Result struct {
	Format  workloads.Format
	Lib     string
	Library string
	Schema  string
	// Size is Options.Size: 0 for the natural records.
	Size int
	// Mem is the allocator the batches came from (MemGo or MemPool).
	Mem string
	// Records is how many records the timed passes decoded.
	Records int64
	// NsPerRec is wall time per record; RecPerSec its inverse.
	NsPerRec  float64
	RecPerSec float64
	// CPUNsPerRec is the process's CPU time (user + system, every thread:
	// a route that decodes on goroutines of its own pays them here) per
	// record; 1e9/CPUNsPerRec is records per second per core.
	CPUNsPerRec float64
	// BytesPerRec and AllocsPerRec are Go heap bytes and allocations per
	// record (runtime.MemStats deltas over the timed passes).
	BytesPerRec  float64
	AllocsPerRec float64
}

// Name is the result's ladder name, micro=decode/format=<f>/lib=<lib>
// (cell.DecodeName).
func (r Result) Name() string { return cell.DecodeName(string(r.Format), r.Lib, r.Size, r.Mem) }

// Measure times every selected route decoding the same corpus into Arrow
// batches of BatchRows rows. Every batch of every pass, the untimed warm-up
// pass and the timed ones, is checked with workloads.BatchChecksum against
// the corpus (normalized as the route declares): a route that decodes a
// single value wrongly fails with an error instead of reporting a number.
func Measure(ctx context.Context, opt Options) ([]Result, error) {
	formats := opt.Formats
	if len(formats) == 0 {
		formats = Formats()
	}
	name := opt.Schema
	if name == "" {
		name = DefaultSchema
	}
	s, err := workloads.SchemaByName(name)
	if err != nil {
		return nil, err
	}
	n := opt.Records
	if n <= 0 {
		n = DefaultRecords
	}
	minTime := opt.MinTime
	if minTime <= 0 {
		minTime = DefaultMinTime
	}
	memName := opt.Mem
	if memName == "" {
		memName = MemGo
	}
	if memName != MemPool && memName != MemGo {
		return nil, fmt.Errorf("stock: unknown allocator %q (%s or %s)", memName, MemPool, MemGo)
	}
	type job struct {
		route Route
		cp    *workloads.Corpus
	}
	var jobs []job
	for _, f := range formats {
		var rs []Route
		if len(opt.Libs) == 0 {
			rs = Routes(f)
			if len(rs) == 0 {
				_, err := Lookup(f, Lab)
				return nil, err
			}
		}
		for _, lib := range opt.Libs {
			r, err := Lookup(f, lib)
			if err != nil {
				return nil, err
			}
			rs = append(rs, r)
		}
		c, err := workloads.NewCodec(f, s)
		if err != nil {
			return nil, err
		}
		var copts []workloads.CorpusOpt
		if opt.Size > 0 {
			copts = append(copts, workloads.ValueSize(opt.Size))
		}
		cp := workloads.NewCorpus(c.Schema(), c, opt.Seed, n, copts...)
		for _, r := range rs {
			jobs = append(jobs, job{r, cp})
		}
	}
	var out []Result
	msgs := map[*workloads.Corpus][][]byte{}
	for _, j := range jobs {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		m, ok := msgs[j.cp]
		if !ok {
			m = make([][]byte, j.cp.Count())
			for i := range m {
				m[i] = j.cp.Message(nil, i)
			}
			msgs = map[*workloads.Corpus][][]byte{j.cp: m} // keep one corpus in memory
		}
		r, err := measureOne(ctx, j.route, j.cp, m, minTime, memName)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, nil
}

// expectation is what a route must decode a corpus to: each record's row
// hash and each batch's checksum.
type expectation struct {
	hashes []uint64
	sums   []uint64 // per batch of BatchRows
}

func expected(r Route, cp *workloads.Corpus) (expectation, error) {
	s := cp.Codec().Schema()
	e := expectation{hashes: make([]uint64, cp.Count())}
	var row workloads.Row
	for i := range e.hashes {
		if r.Normalize == nil {
			e.hashes[i] = cp.Hash(i)
			continue
		}
		cp.Row(i, &row)
		r.Normalize(&row)
		e.hashes[i] = workloads.HashRow(s, &row)
	}
	for from := 0; from < len(e.hashes); from += BatchRows {
		var sum uint64
		for _, h := range e.hashes[from:min(from+BatchRows, len(e.hashes))] {
			sum += h
		}
		e.sums = append(e.sums, sum)
	}
	if r.Normalize == nil && len(e.sums) > 0 && e.sums[0] != cp.Checksum(0, min(BatchRows, cp.Count())) {
		return e, fmt.Errorf("corpus hashes disagree with its checksum")
	}
	return e, nil
}

func measureOne(ctx context.Context, r Route, cp *workloads.Corpus, msgs [][]byte, minTime time.Duration, memName string) (Result, error) {
	res := Result{Format: r.Format, Lib: r.Lib, Library: r.Library, Schema: cp.Codec().Schema().Name, Size: cp.ValueSize(), Mem: memName}
	fail := func(err error) (Result, error) {
		return res, fmt.Errorf("%s/%s: %w", r.Format, r.Lib, err)
	}
	exp, err := expected(r, cp)
	if err != nil {
		return fail(err)
	}
	var mem memory.Allocator = memory.NewGoAllocator()
	var pool *recycle.Allocator
	if memName == MemPool {
		pool = recycle.New(mem, recycle.DefaultLimits)
		defer pool.Close()
		mem = pool
	}
	d, err := r.New(cp.Codec().Schema(), mem)
	if err != nil {
		return fail(err)
	}
	defer d.Release()

	// pass decodes the corpus once, verifying every batch, and returns the
	// wall and CPU time spent decoding (verification excluded).
	pass := func() (wall, cpu time.Duration, err error) {
		for b, from := 0, 0; from < len(msgs); b, from = b+1, from+BatchRows {
			to := min(from+BatchRows, len(msgs))
			c0, t0 := cpuTime(), time.Now()
			for i := from; i < to; i++ {
				if err := d.Append(msgs[i]); err != nil {
					return 0, 0, fmt.Errorf("record %d: %w", i, err)
				}
			}
			rec, err := d.NewRecordBatch()
			wall += time.Since(t0)
			cpu += cpuTime() - c0
			if err != nil {
				return 0, 0, fmt.Errorf("batch %d: %w", b, err)
			}
			rows, sum := int(rec.NumRows()), workloads.BatchChecksum(rec)
			rec.Release()
			if rows != to-from {
				return 0, 0, fmt.Errorf("batch %d has %d rows, want %d", b, rows, to-from)
			}
			if sum != exp.sums[b] {
				return 0, 0, fmt.Errorf("batch %d (records %d..%d) checksum %#x, the corpus's %#x: a decoded value is wrong", b, from, to-1, sum, exp.sums[b])
			}
		}
		return wall, cpu, nil
	}
	if _, _, err := pass(); err != nil { // warm-up: builders sized, code paged in
		return fail(err)
	}
	runtime.GC()
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	var wall, cpu time.Duration
	for wall < minTime || res.Records == 0 {
		if err := ctx.Err(); err != nil {
			return fail(err)
		}
		w, c, err := pass()
		if err != nil {
			return fail(err)
		}
		wall, cpu = wall+w, cpu+c
		res.Records += int64(len(msgs))
	}
	runtime.ReadMemStats(&m1)
	if pool != nil && pool.Stats().Hits == 0 {
		return fail(errors.New("the pool served no buffer from a released batch: measured as Go's allocator, not the paths'"))
	}
	n := float64(res.Records)
	res.NsPerRec = float64(wall.Nanoseconds()) / n
	res.RecPerSec = n / wall.Seconds()
	res.CPUNsPerRec = float64(cpu.Nanoseconds()) / n
	res.BytesPerRec = float64(m1.TotalAlloc-m0.TotalAlloc) / n
	res.AllocsPerRec = float64(m1.Mallocs-m0.Mallocs) / n
	if !(res.NsPerRec > 0) {
		return fail(errors.New("measured nothing"))
	}
	return res, nil
}

// cpuTime is the process's user plus system CPU time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
