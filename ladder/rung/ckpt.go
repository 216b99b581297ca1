package rung

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"syscall"
	"time"

	"github.com/fastpathlab/fplab/cell"
	"github.com/fastpathlab/fplab/checkpointcost"
	"github.com/fastpathlab/fplab/clusters"
	"github.com/fastpathlab/fplab/ladder/rungargs"
	"github.com/fastpathlab/fplab/results"
	"github.com/fastpathlab/fplab/source"
	"github.com/fastpathlab/fplab/source/consume"
)

// ckptDirs returns the store and output directories of a checkpointing
// cell.
func ckptDirs(dir string) (store, output string) {
	return filepath.Join(dir, "store"), filepath.Join(dir, "output")
}

// progressEvery is how often a reader reports progress when its cell kills
// no reader (see checkpointcost.ReaderOptions.Progress).
const progressEvery = 100 * time.Millisecond

// runReader is one checkpointing reader process: take the failure plan the
// supervisor wrote on standard input, restore, open the source at the
// restored split state, and run the checkpointed read loop, events on w.
func runReader(ctx context.Context, c *rungargs.Cell, mem *countingAllocator, t *target, w io.Writer) error {
	plan, err := checkpointcost.ReadPlan(os.Stdin)
	if err != nil {
		return err
	}
	start, stop := t.layout.Bounds()
	store, output := ckptDirs(c.CkptDir)
	restored, err := checkpointcost.Restore(store, output, start)
	if err != nil {
		return err
	}
	r, err := source.Open(ctx, source.Config{
		Path: consume.Path(c.Path), Bootstrap: c.Bootstrap, Props: c.Props, Topic: c.Topic,
		Partitions: c.Partitions, Start: restored.Start, Stop: stop, Batch: c.Batch, CRC: c.CRC,
		Keys: c.Keys, Decoder: c.Value(cell.Decoder), Codec: t.codec, Mem: mem, Timeout: stallTimeout(c.Timeout),
	})
	if err != nil {
		return err
	}
	defer r.Close()
	as, err := r.Assertions()
	if err != nil {
		return err
	}
	if as.CheckCRCs != c.CRC {
		return fmt.Errorf("rung: cell claims check.crcs=%v but the client runs with %v (%s)", c.CRC, as.CheckCRCs, as.CheckCRCsSource)
	}
	vr := &verifyingReader{Reader: r, v: t.verifier(c.Batch)}
	opt := checkpointcost.ReaderOptions{
		Store: store, Output: output, Interval: c.Ckpt, Restored: restored, Plan: plan,
	}
	if c.Failures == 0 {
		// No kill to place: progress every 100 ms, not a write(2) per batch.
		opt.Progress = progressEvery
	}
	err = checkpointcost.RunReader(ctx, vr, opt, w)
	if err != nil {
		return err
	}
	if err := checkPath(c, r.Stats(), as); err != nil {
		return err
	}
	r.Close()
	return checkBalanced(mem)
}

// runSupervised measures a checkpointing cell: reader processes under a
// supervisor that kills Failures of them, then the exactly-once verdict.
func runSupervised(ctx context.Context, c *rungargs.Cell, b Build, cl clusters.Cluster, t *target, w io.Writer) error {
	ready, err := clusters.TopicHolds(ctx, cl, c.Topic, t.layout)
	if err != nil {
		return err
	}
	if !ready {
		return fmt.Errorf("rung: topic %q does not hold the %d-record corpus in %d partitions as its layout places it", c.Topic, c.Records, c.Partitions)
	}
	dir := c.CkptDir
	if dir == "" {
		if dir, err = os.MkdirTemp("", "fplab-ckpt-"); err != nil {
			return fmt.Errorf("rung: %v", err)
		}
		defer os.RemoveAll(dir)
	}
	exe, err := os.Executable()
	if err != nil {
		return fmt.Errorf("rung: %v", err)
	}
	store, output := ckptDirs(dir)
	start, stop := t.layout.Bounds()
	reader := *c
	reader.Role, reader.CkptDir = rungargs.RoleReader, dir
	argv := rungargs.WrapArgv(append([]string{exe, "rung"}, reader.Args()...))
	res, err := checkpointcost.Supervise(ctx, checkpointcost.SuperviseOptions{
		Store: store, Output: output, Start: start, Stop: stop, Holes: t.layout.Holes,
		Failures: c.Failures, Seed: killSeed(c),
		ReaderArgv:   func(int) []string { return argv },
		ReaderFiles:  func(int) ([]*os.File, error) { return reader.SecretFiles() },
		StallTimeout: stallTimeout(c.Timeout),
		Stderr:       os.Stderr,
	})
	if err != nil {
		return err
	}
	if res.Read == 0 || res.Window <= 0 {
		return fmt.Errorf("rung: checkpointed readers reported no measured window")
	}
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_CHILDREN, &ru)
	cpu := time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	recs := float64(res.Read)
	figs := []metric{
		{res.RecPerSec(), results.UnitRecPerSec},
		{float64(res.Window.Nanoseconds()) / recs, results.UnitNsPerRec},
		{float64(cpu.Nanoseconds()) / recs, results.UnitCPUNsPerRec},
		{float64(ru.Maxrss) / 1024, results.UnitPeakRSSMB},
		{ms(res.Startup), results.UnitStartupMs},
		{ms(res.Window), results.UnitWindowMs},
		{ms(res.CkptP50), "ckpt-p50-ms"},
		{ms(res.CkptP99), results.UnitCkptP99},
		{ms(res.CkptMax), "ckpt-max-ms"},
		{ms(res.AlignP99), "align-p99-ms"},
		{ms(res.SnapshotP99), "snapshot-p99-ms"},
		{ms(res.PauseP99), "pause-p99-ms"},
		{float64(res.Ckpts), "ckpts"},
		{float64(res.StateBytes), "state-bytes"},
		{float64(len(res.Failures)), "failures"},
		{res.ReplayRec, results.UnitReplayRec},
		{float64(res.Verdict.Lost), results.UnitLostRec},
		{float64(res.Verdict.Dup), results.UnitDupRec},
	}
	if len(res.Failures) > 0 {
		figs = append(figs,
			metric{ms(res.Recover), results.UnitRecoverMs},
			metric{ms(res.RecoverStartup), "recover-startup-ms"},
			metric{ms(res.RecoverCatchup), "recover-catchup-ms"},
			metric{ms(res.KillWait), "kill-wait-ms"},
			metric{float64(res.Forced), "ckpts-forced"})
	}
	return writeResult(w, c, b, source.ClientOf(consume.Path(c.Path)), res.Read, figs)
}

// killSeed is the seed of a cell's kill positions.
func killSeed(c *rungargs.Cell) uint64 {
	if c.KillSeed != 0 {
		return c.KillSeed
	}
	return c.Seed
}
