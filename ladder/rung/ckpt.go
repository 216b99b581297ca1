package rung

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
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
	if c.Commit && c.Group == "" {
		return fmt.Errorf("commit=on: the reader was given no group")
	}
	cfg := source.Config{
		Path: consume.Path(c.Path), Bootstrap: c.Bootstrap, Props: c.Props, Topic: c.Topic,
		Partitions: c.Partitions, Start: restored.Start, Stop: stop, Batch: c.Batch, CRC: c.CRC,
		Keys: c.Keys, Decoder: c.Value(cell.Decoder), Codec: t.codec, Mem: mem, Timeout: StallTimeout(c.Timeout),
		Group: c.Group, Tuning: source.TuningOf(c.Cell),
	}
	// the harness first, then its memory (rss_linux.go)
	v := t.verifier(c.Batch)
	mark, err := markHarness()
	if err != nil {
		return err
	}
	var r consume.Reader
	if c.Subtasks > 0 {
		// A rescale cell's process: the range split over its subtasks.
		r, err = source.OpenSubtasks(ctx, cfg, c.Subtasks)
	} else {
		r, err = source.Open(ctx, cfg)
	}
	if err != nil {
		return err
	}
	defer r.Close()
	as, err := r.Assertions()
	if err != nil {
		return err
	}
	if as.CheckCRCs != c.CRC {
		return fmt.Errorf("cell claims check.crcs=%v but the client runs with %v (%s)", c.CRC, as.CheckCRCs, as.CheckCRCsSource)
	}
	vr := &verifyingReader{Reader: r, v: v}
	if c.Subtasks > 0 {
		vr.v.maxShorts = c.Subtasks // each subtask's last batch
	}
	opt := checkpointcost.ReaderOptions{
		Store: store, Output: output, Interval: c.Ckpt, Restored: restored, Plan: plan,
		Subtasks: source.SubtasksOf(r), // what the reader runs, not what it was asked
		Memory: func() (checkpointcost.Memory, error) {
			s, err := mark.split(mem)
			return checkpointcost.Memory{Peak: s.process, Harness: s.harness, Path: s.path, Arrow: s.arrow}, err
		},
	}
	if c.Failures == 0 {
		// No kill to place: progress every 100 ms, not a write(2) per batch.
		opt.Progress = progressEvery
	}
	if c.Commit {
		cm, ok := r.(consume.Committer)
		if !ok {
			return fmt.Errorf("commit=on: path %s's reader cannot commit offsets", c.Path)
		}
		opt.Commit = cm
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
		return fmt.Errorf("topic %q does not hold the %d-record corpus in %d partitions as its layout places it", c.Topic, c.Records, c.Partitions)
	}
	dir := c.CkptDir
	if dir == "" {
		if dir, err = os.MkdirTemp("", "fplab-ckpt-"); err != nil {
			return err
		}
		defer os.RemoveAll(dir)
	}
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	store, output := ckptDirs(dir)
	start, stop := t.layout.Bounds()
	reader := *c
	reader.Role, reader.CkptDir = rungargs.RoleReader, dir
	if c.Commit {
		// one group for the cell's every reader, gone after the cell
		reader.Group = fmt.Sprintf("fplab-ckpt-%s-%s", c.Path, strconv.FormatInt(time.Now().UnixNano(), 36))
		defer func() {
			dctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
			defer cancel()
			if err := clusters.DeleteGroup(dctx, cl, reader.Group); err != nil {
				fmt.Fprintf(os.Stderr, "commit: group %s left behind: %v\n", reader.Group, err)
			}
		}()
	}
	readerArgv := func(i int) []string {
		r := reader
		if !c.Rescale.IsZero() {
			r.Subtasks = c.Rescale.Subtasks(i)
		}
		return rungargs.WrapArgv(append([]string{exe, "rung"}, r.Args()...))
	}
	res, err := checkpointcost.Supervise(ctx, checkpointcost.SuperviseOptions{
		Store: store, Output: output, Start: start, Stop: stop, Holes: t.layout.Holes,
		Failures: c.Failures, Seed: killSeed(c),
		ReaderArgv:   readerArgv,
		ReaderFiles:  func(int) ([]*os.File, error) { return reader.SecretFiles() },
		StallTimeout: StallTimeout(c.Timeout),
		Stderr:       os.Stderr,
	})
	if err != nil {
		return err
	}
	if res.Read == 0 || res.Window <= 0 {
		return fmt.Errorf("checkpointed readers reported no measured window")
	}
	if err := checkSubtasks(c, res.Subtasks); err != nil {
		return err
	}
	if res.Memory.Harness <= 0 {
		return fmt.Errorf("no reader reported its memory (the done event's harness and path figures)")
	}
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_CHILDREN, &ru)
	cpu := time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	recs := float64(res.Read)
	figs := []results.Metric{
		{Value: res.RecPerSec(), Unit: results.UnitRecPerSec},
		{Value: float64(res.Window.Nanoseconds()) / recs, Unit: results.UnitNsPerRec},
		{Value: float64(cpu.Nanoseconds()) / recs, Unit: results.UnitCPUNsPerRec},
		{Value: float64(res.Memory.Peak) / (1 << 20), Unit: results.UnitPeakRSSMB},
	}
	mem := memSplit{harness: res.Memory.Harness, path: res.Memory.Path, arrow: res.Memory.Arrow}
	figs = append(figs, mem.metrics()...)
	figs = append(figs, []results.Metric{
		{Value: ms(res.Startup), Unit: results.UnitStartupMs},
		{Value: ms(res.Window), Unit: results.UnitWindowMs},
		{Value: ms(res.CkptP50), Unit: "ckpt-p50-ms"},
		{Value: ms(res.CkptP99), Unit: results.UnitCkptP99},
		{Value: ms(res.CkptMax), Unit: "ckpt-max-ms"},
		{Value: ms(res.AlignP99), Unit: "align-p99-ms"},
		{Value: ms(res.SnapshotP99), Unit: "snapshot-p99-ms"},
		{Value: ms(res.PauseP99), Unit: "pause-p99-ms"},
		{Value: float64(res.Ckpts), Unit: "ckpts"},
		{Value: float64(res.StateBytes), Unit: "state-bytes"},
		{Value: float64(len(res.Failures)), Unit: "failures"},
		{Value: res.ReplayRec, Unit: results.UnitReplayRec},
		{Value: float64(res.Verdict.Lost), Unit: results.UnitLostRec},
		{Value: float64(res.Verdict.Dup), Unit: results.UnitDupRec},
	}...)
	if c.Commit {
		more, err := checkCommitted(ctx, cl, reader.Group, c, &res, stop)
		if err != nil {
			return err
		}
		figs = append(figs, more...)
	}
	if len(res.Failures) > 0 {
		figs = append(figs,
			results.Metric{Value: ms(res.Recover), Unit: results.UnitRecoverMs},
			results.Metric{Value: ms(res.RecoverStartup), Unit: "recover-startup-ms"},
			results.Metric{Value: ms(res.RecoverCatchup), Unit: "recover-catchup-ms"},
			results.Metric{Value: ms(res.KillWait), Unit: "kill-wait-ms"},
			results.Metric{Value: float64(res.Forced), Unit: "ckpts-forced"})
	}
	return WriteResult(w, c, b, source.ClientOf(consume.Path(c.Path)), res.Read, figs)
}

// killSeed is the seed of a cell's kill positions.
func killSeed(c *rungargs.Cell) uint64 {
	if c.KillSeed != 0 {
		return c.KillSeed
	}
	return c.Seed
}

// checkCommitted holds a commit=on cell to what committing on completed
// checkpoints promises: commits were made, the last successful one is the
// final checkpoint's positions (the range's stop: every partition,
// finished ones included), and the group on the broker holds exactly
// that. Failed commits are counted, not fatal (recovery reads checkpoint
// state only). It returns the cell's offset units.
func checkCommitted(ctx context.Context, cl clusters.Cluster, group string, c *rungargs.Cell, res *checkpointcost.Result, stop []int64) ([]results.Metric, error) {
	if res.OffsetCommits == 0 {
		return nil, fmt.Errorf("commit=on: no offset commit succeeded (%d failed; first: %s)", res.OffsetFailed, res.OffsetErr)
	}
	if !slices.Equal(res.LastOffsets, stop) {
		return nil, fmt.Errorf("commit=on: the last offsets committed (checkpoint %d) are %v, not the final checkpoint's %v", res.LastOffsetsID, res.LastOffsets, stop)
	}
	held, err := clusters.CommittedOffsets(ctx, cl, group, c.Topic, c.Partitions)
	if err != nil {
		return nil, fmt.Errorf("commit=on: %w", err)
	}
	if !slices.Equal(held, res.LastOffsets) {
		return nil, fmt.Errorf("commit=on: group %s holds %v on the broker, but checkpoint %d committed %v", group, held, res.LastOffsetsID, res.LastOffsets)
	}
	return []results.Metric{
		{Value: float64(res.OffsetCommits), Unit: results.UnitOffsetCommits},
		{Value: float64(res.OffsetFailed), Unit: results.UnitOffsetFailed},
		{Value: float64(res.OffsetSkipped), Unit: results.UnitOffsetSkipped},
		{Value: ms(res.OffsetP50), Unit: results.UnitOffsetP50},
		{Value: ms(res.OffsetMax), Unit: results.UnitOffsetMax},
	}, nil
}

// checkSubtasks holds a cell to the parallelism it claims: every reader
// process reported the subtasks its rescale gives it (none without one).
func checkSubtasks(c *rungargs.Cell, got []int) error {
	for i, n := range got {
		if want := c.Rescale.Subtasks(i); n != want {
			return fmt.Errorf("cell claims rescale=%s but reader process %d ran %d subtasks, want %d", c.Value(cell.RescaleKey), i, n, want)
		}
	}
	return nil
}
