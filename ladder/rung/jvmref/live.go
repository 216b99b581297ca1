package jvmref

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/fastpathlab/fplab/cell"
	"github.com/fastpathlab/fplab/ladder/rung"
	"github.com/fastpathlab/fplab/ladder/rungargs"
)

// runLive measures a live cell (mode=live) of the path's program with the
// Go paths' live machinery (rung.LiveRead): a fresh topic, the program
// started on it with --live, the producer started once the program prints
// FPLAB-READY, each FPLAB-R range fed to the same latency and lag recorder
// and checked for gaps and repeats as it arrives, and at the end each
// partition's count and checksum checked against the corpus. The figures
// are a Go path's live cell's; cpu-ns/rec is the JVM's process CPU from
// ready to the last record (the JVM measures it); peak-RSS-MB,
// path-peak-RSS-MB and harness-RSS-MB are the JVM's own figures, split
// where its client or job opens (Mem), before FPLAB-READY.
func (p refPath) runLive(ctx context.Context, c *rungargs.Cell, b rung.Build, java, jar string, w io.Writer) error {
	if why := cell.WhyNotLive(c.Path, c.Mode); why != "" {
		return fmt.Errorf("path=%s cannot read live: %s", c.Path, why)
	}
	lr, err := rung.OpenLiveRead(ctx, c)
	if err != nil {
		return err
	}
	defer lr.Close()
	o, cleanup, err := p.opts(ctx, c, lr.Topic())
	if err != nil {
		return err
	}
	defer cleanup()
	// A live read's warm-up is the producer's first live_warmup of records.
	o.Live, o.WarmupRecords, o.WarmupRuns = true, 0, 0
	r, live, err := RunLive(ctx, java, jar, o, liveRead{lr})
	if err != nil {
		return fmt.Errorf("%w (%d of %d records handed over)", err, lr.Handed(), c.Records)
	}
	if err := lr.Finish(ctx, live.Sums); err != nil {
		return err
	}
	if err := lr.WriteLive(); err != nil {
		return err
	}
	cfg := append(lr.FileConfig(), p.jvmConfig(r)...)
	cfg = append(cfg, [2]string{"java-ready", fmt.Sprintf("%v after the JVM's start", r.Startup.Round(time.Millisecond))})
	// Figures takes the process's peak (peak-RSS-MB, KiB) as a Go
	// reader's; the split follows it as it follows a Go path's figures.
	figs := append(lr.Figures(live.CPU, r.Mem.Peak), r.Mem.split()...)
	return rung.WriteResult(w, c, b, p.client+"; live (fplab-java "+string(p.program)+" --live)",
		lr.Measured(), figs, cfg...)
}

// liveRead hands the program's live lines to a rung.LiveRead.
type liveRead struct{ lr *rung.LiveRead }

func (l liveRead) Ready(ctx context.Context) error { return l.lr.StartProducer(ctx) }

func (l liveRead) HandOver(at time.Time, rs []rung.LiveRange) error { return l.lr.HandOver(at, rs) }
