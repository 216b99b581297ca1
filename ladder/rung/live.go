package rung

import (
	"context"
	"fmt"
	"io"
	"os"
	"strconv"
	"time"

	"github.com/fastpathlab/fplab/alloc"
	"github.com/fastpathlab/fplab/cell"
	"github.com/fastpathlab/fplab/clusters"
	"github.com/fastpathlab/fplab/ladder/rungargs"
	"github.com/fastpathlab/fplab/results"
	"github.com/fastpathlab/fplab/source"
	"github.com/fastpathlab/fplab/source/consume"
)

// runLive measures a live cell (mode=live): one liveTrial at the cell's
// rate, which must hold its rate (checkProducer), then its figures, and
// its histogram and lag series kept in its live directory.
func runLive(ctx context.Context, c *rungargs.Cell, b Build, cl clusters.Cluster, t *target, w io.Writer) error {
	tr, err := runTrial(ctx, c, cl, t, 0)
	if err != nil {
		return err
	}
	if err := checkProducer(c, tr.prod); err != nil {
		return err
	}
	if err := writeLive(c, c.Rate, tr.rec); err != nil {
		return err
	}
	figs := liveFigures(c, tr.rec, tr.cpu, tr.stats.Records, tr.mem.process>>10, tr.prod, tr.compressed)
	figs = append(figs, tr.mem.metrics()...)
	if st := tr.stats; st.NonEmpty > 0 {
		figs = append(figs, results.Metric{Value: float64(st.Records) / float64(st.NonEmpty), Unit: results.UnitRecPerCrossing})
	}
	figs = append(figs, tr.wake...)
	cfg := [][2]string{{"live-topic", tr.topic}, {"producer", producerName}, {"client-buffering", tr.buffering}}
	if tr.rdk != nil {
		line, err := tr.rdk.write(c, tr.stats)
		if err != nil {
			return err
		}
		cfg = append(cfg, line)
	}
	return WriteResult(w, c, b, tr.client, tr.rec.measured, figs, cfg...)
}

// liveTrial is what one live read measured.
type liveTrial struct {
	topic  string
	rec    *liveRecorder
	prod   producerReport
	stats  consume.Stats
	client string
	// buffering is the client's prefetch bounds (Assertions.Buffering)
	buffering string
	cpu       time.Duration // the reader process's, from the producer's start
	// rdk holds librdkafka's statistics of a measured librdkafka live
	// cell, nil otherwise (sampleStats)
	rdk *rdkStats
	// compressed is the share of records in batches of the cell's codec
	// (checkLiveCompression)
	compressed float64
	// wake are a wake cell's figures (waker), nil otherwise
	wake []results.Metric
	// mem is the read's memory, the harness's and the path's
	mem memSplit
}

// runTrial is one live read of c at c.Rate. It makes a fresh topic, opens
// the path on it unbounded from its end (source.Config.Live, with the
// cell's linger), then starts the producer process, which writes c's
// records at its rate from T0: a warm-up, then the measured window. The
// path reads until every record the producer wrote is handed over; each
// batch is verified as a bounded cell's are (row checksums against the
// corpus, positions) and, live, every partition's offsets must follow
// each other without a gap or a repeat. It fails when a record is missing
// or repeated, when a claim of the cell does not hold, or when no message
// arrives for the stall timeout; whether the producer held its rate is
// the caller's to judge. With readBy > 0 the reader must hand over the
// last record within readBy of T0, or the trial fails with errTooSlow. The
// topic is deleted at the end, whatever happened.
func runTrial(ctx context.Context, c *rungargs.Cell, cl clusters.Cluster, t *target, readBy time.Duration) (*liveTrial, error) {
	tr := &liveTrial{topic: c.Topic + "-" + strconv.FormatInt(time.Now().UnixNano(), 36)}
	lc := *c
	lc.Topic = tr.topic
	if err := clusters.CreateTopic(ctx, cl, lc.Topic, c.Partitions); err != nil {
		return nil, fmt.Errorf("live: %w", err)
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
	cfg := source.Config{
		Path: consume.Path(c.Path), Bootstrap: c.Bootstrap, Props: c.Props, Topic: lc.Topic,
		Partitions: c.Partitions, Batch: c.Batch, CRC: c.CRC, Keys: c.Keys, Decoder: c.Value(cell.Decoder),
		Codec: t.codec, Mem: mem, Timeout: StallTimeout(c.Timeout), Live: true, Linger: c.Linger,
		Discovery: c.Discover, Tuning: source.TuningOf(c.Cell),
	}
	tr.rdk = sampleStats(c, &cfg)
	// the harness first, then its memory (rss_linux.go)
	v := t.verifier(c.Batch)
	v.live = true
	mark, err := markHarness()
	if err != nil {
		return nil, err
	}
	r, err := source.Open(ctx, cfg)
	if err != nil {
		return nil, err
	}
	if err := tr.read(ctx, &lc, cl, r, t, v, readBy); err != nil {
		r.Close()
		return nil, err
	}
	if tr.mem, err = mark.split(mem); err != nil {
		r.Close()
		return nil, err
	}
	tr.stats = r.Stats()
	as, err := r.Assertions()
	r.Close()
	if err != nil {
		return nil, err
	}
	tr.client, tr.buffering = as.Client, as.Buffering
	if err := checkPath(c, tr.stats, as); err != nil {
		return nil, err
	}
	if tr.compressed, err = checkLiveCompression(ctx, cl, &lc, tr.prod); err != nil {
		return nil, err
	}
	if err := checkBalanced(mem); err != nil {
		return nil, err
	}
	return tr, nil
}

// read starts the producer and reads every record it writes, each batch
// verified and measured.
func (tr *liveTrial) read(ctx context.Context, c *rungargs.Cell, cl clusters.Cluster, r consume.Reader, t *target, v *verifier, readBy time.Duration) error {
	t0 := time.Now().Add(rungargs.ProducerLead(c.Records))
	prod, err := startProducer(ctx, c, t0)
	if err != nil {
		return err
	}
	defer prod.stop()
	rctx := ctx
	if readBy > 0 {
		var cancel context.CancelFunc
		rctx, cancel = context.WithDeadline(ctx, t0.Add(readBy))
		defer cancel()
	}
	warm := rungargs.LiveRecords(c.Rate, c.Warmup)
	tr.rec = newLiveRecorder(t0, c.Rate, c.Records, warm, c.Partitions, c.Warmup)
	ck := newChecker(v, behind(c.Batch))
	defer ck.wait()
	rd, fig, err := cellReader(c, r)
	if err != nil {
		return err
	}
	if c.Discover > 0 {
		// cellReader returned r itself: a discover cell neither wakes nor pauses
		probe := min(discoverProbe, c.Records)
		v.expectAdded(c.Partitions, probe)
		d := newDiscoverer(ctx, rd, c, probe, growTopic(cl, c.Topic, c.Partitions, probe, t.corpus.Message))
		rd, fig = d, d
	}
	defer fig.close()

	cpu0 := cpuTime()
	for v.rows < int64(c.Records) || fig.pending() {
		b, err := rd.Next(rctx)
		if err != nil {
			if rctx.Err() != nil && ctx.Err() == nil {
				return fmt.Errorf("%w: %d of %d records handed over %v after T0", errTooSlow, v.rows, c.Records, readBy)
			}
			return fmt.Errorf("after %d of %d records: %w", v.rows, c.Records, err)
		}
		tr.rec.batch(time.Now(), b.Partitions, b.Offsets)
		if err := ck.check(b); err != nil {
			return err
		}
	}
	if err := ck.wait(); err != nil {
		return err
	}
	tr.cpu = cpuTime() - cpu0
	if tr.wake, err = fig.figures(); err != nil {
		return err
	}
	if tr.prod, err = prod.wait(ctx); err != nil {
		return err
	}
	start, stop := v.layout.Bounds()
	if err := checkParsed(r.Stats()); err != nil {
		return err
	}
	if err := v.checkEnd(r.Stats(), start, stop); err != nil {
		return err
	}
	if err := v.checkAdded(); err != nil {
		return err
	}
	return tr.rec.complete()
}

// writeLive keeps the cell's latency histogram and lag series in its live
// directory (none given: kept nowhere, as a rung run by hand).
func writeLive(c *rungargs.Cell, rate int, rec *liveRecorder) error {
	if c.LiveDir == "" {
		return nil
	}
	name := c.Name()
	if err := results.WriteLatency(results.LatencyPath(c.LiveDir, name, c.Rep), results.LatencyFile{
		Cell: name, Rep: c.Rep, Rate: rate, Warmup: rec.warm,
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
