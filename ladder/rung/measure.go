package rung

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"syscall"
	"time"

	"github.com/fastpathlab/fplab/cell"
	"github.com/fastpathlab/fplab/ladder/rungargs"
	"github.com/fastpathlab/fplab/results"
	"github.com/fastpathlab/fplab/source"
	"github.com/fastpathlab/fplab/source/consume"
)

// checkBalanced fails a cell whose Arrow buffers were not all released.
func checkBalanced(mem *countingAllocator) error {
	if out := mem.outstanding.Load(); out != 0 {
		return fmt.Errorf("%d Arrow bytes still allocated after the cell (leak)", out)
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
	host     []results.Metric // the machine's CPU over the same span as cpu (hostFigures)
	goBytes  uint64
	goAllocs uint64
	mem      memSplit // the process's, the harness's and the path's (rss_linux.go)
	fault    []results.Metric
	wake     []results.Metric
	// rdk holds an rdkstats cell's librdkafka statistics (nil otherwise);
	// read once the reader is closed
	rdk *rdkStats
}

// metrics are a plain cell's figures, in the order they are printed.
func (m *measurement) metrics() []results.Metric {
	st := m.stats
	recs := float64(st.Records)
	secs := m.window.Seconds()
	out := []results.Metric{
		{Value: recs / secs, Unit: results.UnitRecPerSec},
		{Value: float64(st.Bytes) / secs / 1e6, Unit: results.UnitMBPerSec},
		{Value: float64(m.window.Nanoseconds()) / recs, Unit: results.UnitNsPerRec},
		{Value: float64(m.cpu.Nanoseconds()) / recs, Unit: results.UnitCPUNsPerRec},
		{Value: float64(m.verify.Nanoseconds()) / recs, Unit: results.UnitVerifyNsPerRec},
		{Value: float64(m.goBytes) / recs, Unit: results.UnitBytesPerRec},
		{Value: float64(m.goAllocs) / recs, Unit: results.UnitAllocsPerRec},
		{Value: float64(m.mem.process) / (1 << 20), Unit: results.UnitPeakRSSMB},
	}
	out = append(out, m.mem.metrics()...)
	out = append(out,
		results.Metric{Value: ms(m.startup), Unit: results.UnitStartupMs},
		results.Metric{Value: ms(m.window), Unit: results.UnitWindowMs})
	if st.NonEmpty > 0 {
		out = append(out, results.Metric{Value: recs / float64(st.NonEmpty), Unit: results.UnitRecPerCrossing})
	}
	out = append(out, m.host...)
	out = append(out, m.wake...)
	if m.rdk != nil {
		out = append(out, m.rdk.sum.metrics()...)
	}
	return append(out, m.fault...)
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1e3 }

// measure is a plain cell's measured read: open the path, read the whole
// corpus with every batch checked (checker), then the cell's claims.
func measure(ctx context.Context, c *rungargs.Cell, mem *countingAllocator, t *target) (*measurement, error) {
	// the harness first, then its memory (rss_linux.go)
	v := t.verifier(c.Batch)
	mark, err := markHarness()
	if err != nil {
		return nil, err
	}
	t0 := time.Now()
	cfg := source.Config{
		Path: consume.Path(c.Path), Bootstrap: c.Bootstrap, Props: c.Props, Topic: c.Topic,
		Partitions: c.Partitions, Batch: c.Batch, CRC: c.CRC, Keys: c.Keys, Decoder: c.Value(cell.Decoder),
		Codec: t.codec, Mem: mem, Timeout: StallTimeout(c.Timeout), Tuning: source.TuningOf(c.Cell),
	}
	rdk := sampleStats(c, &cfg)
	r, err := source.Open(ctx, cfg)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	rd, fig, err := cellReader(c, r)
	if err != nil {
		return nil, err
	}
	defer fig.close()

	// The host's /proc/stat is read just around the CPU span and outside
	// the Go memory span: its reads allocate, which B/rec must not count.
	var ms0, ms1 runtime.MemStats
	host0, err := readHost()
	if err != nil {
		return nil, err
	}
	runtime.ReadMemStats(&ms0)
	cpu0 := cpuTime()

	fault, err := openFault(ctx, c)
	if err != nil {
		return nil, err
	}
	defer fault.close()
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
		b, err := rd.Next(ctx)
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
	host1, err := readHost()
	if err != nil {
		return nil, err
	}
	split, err := mark.split(mem)
	if err != nil {
		return nil, err
	}
	woke, err := fig.figures()
	if err != nil {
		return nil, err
	}

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
		return nil, fmt.Errorf("empty measured window (%d records arrived in one instant)", st.Records)
	}
	return &measurement{
		stats: st, asserts: as,
		startup:  st.First.Sub(t0),
		window:   last.Sub(st.First),
		verify:   verify,
		cpu:      cpu1 - cpu0,
		host:     hostFigures(host0, host1, st.Records),
		goBytes:  ms1.TotalAlloc - ms0.TotalAlloc,
		goAllocs: ms1.Mallocs - ms0.Mallocs,
		mem:      split,
		fault:    fault.metrics(),
		wake:     woke,
		rdk:      rdk,
	}, nil
}

// StallTimeout is how long a reader of a cell with the given timeout may
// go without a message: a fraction of the cell's budget, so a stall is
// reported as such, not as a kill.
func StallTimeout(cellTimeout time.Duration) time.Duration {
	d := cellTimeout / 3
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
