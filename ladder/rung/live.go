package rung

import (
	"context"
	"fmt"
	"io"
	"os"
	"strconv"
	"syscall"
	"time"

	"github.com/fastpathlab/fplab/alloc"
	"github.com/fastpathlab/fplab/cell"
	"github.com/fastpathlab/fplab/clusters"
	"github.com/fastpathlab/fplab/ladder/rungargs"
	"github.com/fastpathlab/fplab/results"
	"github.com/fastpathlab/fplab/source"
	"github.com/fastpathlab/fplab/source/consume"
)

// runLive measures a live cell (mode=live). It makes a fresh topic, opens
// the path on it unbounded from its end (source.Config.Live, with the
// cell's linger), then starts the producer process, which writes the
// cell's records at its rate from T0: a warm-up, then the measured
// window. The path reads until every record the producer wrote is handed
// over; each batch is verified as a bounded cell's are (row checksums
// against the corpus, positions) and, live, every partition's offsets
// must follow each other without a gap or a repeat. The cell fails when a
// record is missing or repeated, when the producer achieved less than 95%
// of its rate, or when no message arrives for the stall timeout. The topic
// is deleted at the end, whatever happened.
func runLive(ctx context.Context, c *rungargs.Cell, b Build, cl clusters.Cluster, t *target, w io.Writer) error {
	lc := *c
	lc.Topic = c.Topic + "-" + strconv.FormatInt(time.Now().UnixNano(), 36)
	if err := clusters.CreateTopic(ctx, cl, lc.Topic, c.Partitions); err != nil {
		return fmt.Errorf("live: %w", err)
	}
	defer func() {
		// The cell's context may have ended: the topic goes all the same.
		dctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
		defer cancel()
		if err := clusters.DeleteTopic(dctx, cl, lc.Topic); err != nil {
			fmt.Fprintf(os.Stderr, "live: topic %s left behind: %v\n", lc.Topic, err)
		}
	}()

	mem := &countingAllocator{mem: alloc.Allocator()}
	r, err := source.Open(ctx, source.Config{
		Path: consume.Path(c.Path), Bootstrap: c.Bootstrap, Props: c.Props, Topic: lc.Topic,
		Partitions: c.Partitions, Batch: c.Batch, CRC: c.CRC, Keys: c.Keys, Decoder: c.Value(cell.Decoder),
		Codec: t.codec, Mem: mem, Timeout: StallTimeout(c.Timeout), Live: true, Linger: c.Linger,
	})
	if err != nil {
		return err
	}
	defer r.Close()

	t0 := time.Now().Add(producerLead(c.Records))
	prod, err := startProducer(ctx, &lc, t0)
	if err != nil {
		return err
	}
	defer prod.stop()
	warm := rungargs.LiveRecords(c.Rate, c.Warmup)
	rec := newLiveRecorder(t0, c.Rate, c.Records, warm, c.Partitions, c.Warmup)
	v := t.verifier(c.Batch)
	v.live = true
	ck := newChecker(v, behind(c.Batch))
	defer ck.wait()

	cpu0 := cpuTime()
	for v.rows < int64(c.Records) {
		b, err := r.Next(ctx)
		if err != nil {
			return fmt.Errorf("after %d of %d records: %w", v.rows, c.Records, err)
		}
		rec.batch(time.Now(), b.Partitions, b.Offsets)
		if err := ck.check(b); err != nil {
			return err
		}
	}
	if err := ck.wait(); err != nil {
		return err
	}
	cpu := cpuTime() - cpu0
	rep, err := prod.wait(ctx)
	if err != nil {
		return err
	}
	st := r.Stats()
	as, err := r.Assertions()
	if err != nil {
		return err
	}
	if err := checkClaims(c, st, as, v); err != nil {
		return err
	}
	if err := rec.complete(); err != nil {
		return err
	}
	if err := checkProducer(c, rep); err != nil {
		return err
	}
	if err := checkCompression(ctx, cl, &lc); err != nil {
		return err
	}
	r.Close()
	if err := checkBalanced(mem); err != nil {
		return err
	}
	if err := writeLive(c, rec); err != nil {
		return err
	}
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	figs := append(rec.metrics(),
		results.Metric{Value: float64(cpu.Nanoseconds()) / float64(v.rows), Unit: results.UnitCPUNsPerRec},
		results.Metric{Value: float64(ru.Maxrss) / 1024, Unit: results.UnitPeakRSSMB},
		results.Metric{Value: rep.Achieved, Unit: results.UnitProduceRecPerSec},
		results.Metric{Value: ms(time.Duration(rep.MaxBehind)), Unit: results.UnitProducerBehindMs},
	)
	if st.NonEmpty > 0 {
		figs = append(figs, results.Metric{Value: float64(st.Records) / float64(st.NonEmpty), Unit: results.UnitRecPerCrossing})
	}
	return WriteResult(w, c, b, as.Client, rec.measured, figs,
		[2]string{"live-topic", lc.Topic}, [2]string{"producer", "franz-go (clusters.ProducePaced), own process"})
}

// writeLive keeps the cell's latency histogram and lag series in its live
// directory (none given: kept nowhere, as a rung run by hand).
func writeLive(c *rungargs.Cell, rec *liveRecorder) error {
	if c.LiveDir == "" {
		return nil
	}
	name := c.Name()
	if err := results.WriteLatency(results.LatencyPath(c.LiveDir, name, c.Rep), results.LatencyFile{
		Cell: name, Rep: c.Rep, Rate: c.Rate, Warmup: rec.warm,
	}, rec.hist); err != nil {
		return err
	}
	f, err := os.Create(results.LagPath(c.LiveDir, name, c.Rep))
	if err != nil {
		return fmt.Errorf("live: %w", err)
	}
	if err := rec.writeLag(f); err != nil {
		f.Close()
		return fmt.Errorf("live: %w", err)
	}
	return f.Close()
}
