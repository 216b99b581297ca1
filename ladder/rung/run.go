package rung

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"syscall"
	"time"

	"github.com/fastpathlab/fplab/alloc"
	"github.com/fastpathlab/fplab/cell"
	"github.com/fastpathlab/fplab/ladder/rungargs"
	"github.com/fastpathlab/fplab/results"
	"github.com/fastpathlab/fplab/source"
	"github.com/fastpathlab/fplab/source/consume"
	"github.com/fastpathlab/fplab/workloads"
)

// Run measures one cell and writes its result to w in Go benchmark format.
// It returns an error, and writes nothing, if any of the cell's claims does
// not hold.
func Run(ctx context.Context, c rungargs.Cell, b Build, w io.Writer) error {
	if err := c.Validate(); err != nil {
		return err
	}
	if err := b.check(); err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, c.Timeout)
	defer cancel()

	if alloc.Name() != c.Alloc {
		return fmt.Errorf("rung: cell claims alloc=%s but this binary is built for alloc=%s (run bin/fplab-%s)", c.Alloc, alloc.Name(), c.Alloc)
	}
	if _, err := alloc.Proof(); err != nil {
		return fmt.Errorf("rung: alloc=%s not in force: %w", c.Alloc, err)
	}
	switch c.Path {
	case cell.PathJava:
		return runJavaRefCell(ctx, &c, b, w, JavaSteady)
	case cell.PathFlink:
		return runJavaRefCell(ctx, &c, b, w, JavaFlink)
	case cell.PathJavaPerf:
		return runJavaPerf(ctx, &c, b, w)
	case cell.PathCeiling:
		return runCeiling(ctx, &c, b, w)
	}
	schema, err := workloads.SchemaByName(c.Schema)
	if err != nil {
		return err
	}
	codec, err := workloads.NewCodec(workloads.Format(c.Format), schema)
	if err != nil {
		return err
	}
	corpus := workloads.NewCorpus(schema, codec, c.Seed, c.Records, workloads.CorpusOptsOf(c.Cell)...)
	layout, err := workloads.NewLayout(c.Seed, c.Records, c.Partitions, workloads.ShapeOf(c.Cell))
	if err != nil {
		return fmt.Errorf("rung: %w", err)
	}
	expected, err := expectedHashes(corpus, c.HashCache)
	if err != nil {
		return err
	}
	t := &target{corpus: corpus, codec: codec, expected: expected, layout: layout}

	cl, err := checkBrokers(ctx, &c)
	if err != nil {
		return err
	}
	// The supervisor that started a reader checked; a denied cell's user
	// may not read the topic, which is the point.
	if c.Role != rungargs.RoleReader && c.Case != cell.CaseDenied {
		if err := checkCompression(ctx, cl, &c); err != nil {
			return err
		}
	}

	mem := &countingAllocator{mem: alloc.Allocator()}
	switch {
	case c.Role == rungargs.RoleReader:
		err = runReader(ctx, &c, mem, t, w)
	case c.Ckpt > 0:
		err = runSupervised(ctx, &c, b, cl, t, w)
	case cell.SpecialRead(c.Case):
		err = runCase(ctx, &c, b, cl, mem, t, w)
	default:
		var m *measurement
		if m, err = measure(ctx, &c, mem, t); err == nil {
			err = checkBalanced(mem)
		}
		if err == nil {
			err = writeResult(w, &c, b, m.asserts.Client, m.stats.Records, m.metrics())
		}
	}
	return err
}

// checkBalanced fails a cell whose Arrow buffers were not all released.
func checkBalanced(mem *countingAllocator) error {
	if out := mem.outstanding.Load(); out != 0 {
		return fmt.Errorf("rung: %d Arrow bytes still allocated after the cell (leak)", out)
	}
	return nil
}

// measurement is what one drain produced.
type measurement struct {
	stats    consume.Stats
	asserts  consume.Assertions
	startup  time.Duration
	window   time.Duration
	verify   time.Duration // the rung's checks of the batches inside the window
	cpu      time.Duration
	goBytes  uint64
	goAllocs uint64
	peakRSS  int64 // bytes
	fault    []metric
}

// metrics are a plain cell's figures, in the order they are printed.
func (m *measurement) metrics() []metric {
	st := m.stats
	recs := float64(st.Records)
	secs := m.window.Seconds()
	out := []metric{
		{recs / secs, results.UnitRecPerSec},
		{float64(st.Bytes) / secs / 1e6, results.UnitMBPerSec},
		{float64(m.window.Nanoseconds()) / recs, results.UnitNsPerRec},
		{float64(m.cpu.Nanoseconds()) / recs, results.UnitCPUNsPerRec},
		{float64(m.verify.Nanoseconds()) / recs, results.UnitVerifyNsPerRec},
		{float64(m.goBytes) / recs, results.UnitBytesPerRec},
		{float64(m.goAllocs) / recs, results.UnitAllocsPerRec},
		{float64(m.peakRSS) / (1 << 20), results.UnitPeakRSSMB},
		{ms(m.startup), results.UnitStartupMs},
		{ms(m.window), results.UnitWindowMs},
	}
	if st.NonEmpty > 0 {
		out = append(out, metric{recs / float64(st.NonEmpty), results.UnitRecPerCrossing})
	}
	return append(out, m.fault...)
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1e3 }

// target is what a cell reads: the corpus's codec and row hashes (keyed
// rows' for keys=on), placed in the topic by its layout.
type target struct {
	corpus   *workloads.Corpus
	codec    workloads.Codec
	expected []uint64
	layout   *workloads.Layout
}

func (t *target) verifier(batch int) *verifier {
	return newVerifier(batch, t.layout, t.corpus.NullHash, t.expected)
}

func measure(ctx context.Context, c *rungargs.Cell, mem *countingAllocator, t *target) (*measurement, error) {
	t0 := time.Now()
	r, err := source.Open(ctx, source.Config{
		Path: consume.Path(c.Path), Bootstrap: c.Bootstrap, Props: c.Props, Topic: c.Topic,
		Partitions: c.Partitions, Batch: c.Batch, CRC: c.CRC, Keys: c.Keys, Decoder: c.Value(cell.Decoder),
		Codec: t.codec, Mem: mem, Timeout: stallTimeout(c.Timeout),
	})
	if err != nil {
		return nil, err
	}
	defer r.Close()

	var ms0, ms1 runtime.MemStats
	runtime.ReadMemStats(&ms0)
	cpu0 := cpuTime()

	fault, err := openFault(ctx, c)
	if err != nil {
		return nil, err
	}
	defer fault.close()
	v := t.verifier(c.Batch)
	ck := newChecker(v, behind(c.Batch))
	defer ck.wait() // on a failure: end the checksum goroutine, release its batches
	// The window runs from the first record to the last batch's arrival
	// and every batch's checksum (checker). verify sums the time the
	// checks held the reader in it: each batch's position checks with any
	// wait for the checksum to catch up, and the wait for the last ones.
	var (
		last   time.Time
		verify time.Duration
	)
	for {
		b, err := r.Next(ctx)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		t := time.Now()
		err = ck.check(b)
		last = time.Now()
		verify += last.Sub(t)
		if err != nil {
			return nil, err
		}
		if err := fault.after(ctx, v.rows); err != nil {
			return nil, err
		}
	}
	if !last.IsZero() {
		t := time.Now()
		if err := ck.wait(); err != nil {
			return nil, err
		}
		last = time.Now()
		verify += last.Sub(t)
	}
	cpu1 := cpuTime()
	runtime.ReadMemStats(&ms1)

	st := r.Stats()
	as, err := r.Assertions()
	if err != nil {
		return nil, err
	}
	if err := checkClaims(c, st, as, v); err != nil {
		return nil, err
	}
	if err := fault.done(); err != nil {
		return nil, err
	}
	if !last.After(st.First) {
		return nil, fmt.Errorf("rung: empty measured window (%d records arrived in one instant)", st.Records)
	}
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return &measurement{
		stats: st, asserts: as,
		startup:  st.First.Sub(t0),
		window:   last.Sub(st.First),
		verify:   verify,
		cpu:      cpu1 - cpu0,
		goBytes:  ms1.TotalAlloc - ms0.TotalAlloc,
		goAllocs: ms1.Mallocs - ms0.Mallocs,
		peakRSS:  ru.Maxrss * 1024,
		fault:    fault.metrics(),
	}, nil
}

// stallTimeout is how long a reader may go without a message: a fraction
// of the cell's budget, so a stall is reported as such, not as a kill.
func stallTimeout(cell time.Duration) time.Duration {
	d := cell / 3
	if d > 30*time.Second {
		d = 30 * time.Second
	}
	if d < 200*time.Millisecond {
		d = 200 * time.Millisecond
	}
	return d
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
