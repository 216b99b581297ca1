package checkpointcost

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/fastpathlab/fplab/source/consume"
)

// DefaultInterval is the checkpoint interval when ReaderOptions.Interval
// is zero.
const DefaultInterval = time.Second

// ReaderOptions configure one reader process.
type ReaderOptions struct {
	// Store is the checkpoint store directory; Output is the sink's
	// directory (staging/ and committed/ below it).
	Store, Output string
	// Interval is the checkpoint interval (0: DefaultInterval).
	Interval time.Duration
	// Restored is what Restore returned; the source must have been opened
	// with Config.Start = Restored.Start.
	Restored Restored
	// Progress is how often batch events are written. 0 writes one per
	// batch, which a supervisor placing kills needs (it times recovery
	// from the first batch event back at the killed reader's position).
	// A positive value writes at most one batch event per Progress,
	// covering every batch since the previous one (and always one before
	// each checkpoint and at the end), so a cell that kills no reader does
	// not pay a write(2) per batch on its read path.
	Progress time.Duration

	// Subtasks is how many subtasks the reader reads with (the source's
	// concurrent readers behind the one consume.Reader, as a Flink job's
	// parallelism); it is reported in the start event (0: one reader, not
	// split).
	Subtasks int

	// Memory, when set, is called at the end of the read and its figures
	// go in the done event (Result.Memory): the reader process's memory
	// split into the harness's and the path's, which only its caller can
	// take (it marks the path's open). An error fails the reader.
	Memory func() (Memory, error)

	// Plan is this reader's planned failure, as the supervisor wrote it
	// (ReadPlan); the zero Plan runs to the end.
	Plan Plan

	// Commit, when set, commits every completed checkpoint's positions
	// for the source's consumer group (offsets.go), each within
	// CommitTimeout (0: DefaultCommitTimeout).
	Commit        consume.Committer
	CommitTimeout time.Duration

	// fs replaces the operating system's file system (tests).
	fs fileSystem
	// trigger replaces the checkpoint coordinator (tests).
	trigger trigger
	// awaitSnapshot makes the barrier wait for the checkpoint's
	// asynchronous part (tests that fix how many checkpoints a run takes,
	// whatever the speed of the disk against the reader).
	awaitSnapshot bool
	// afterComplete runs once checkpoint id is durable and before its
	// transactions are committed (tests: a crash in that window).
	afterComplete func(id int)
}

// reader is the state of one RunReader call.
type reader struct {
	opt     ReaderOptions
	fs      fileSystem
	ev      eventWriter
	sink    *sink
	coord   trigger
	split   []int64
	nextID  int
	batches int64
	rows    int64
	last    time.Time
	// unreported rows, read since the last batch event; lastEv is that
	// event's time.
	unreported int64
	lastEv     time.Time
	// inflight is the checkpoint whose asynchronous part runs (see
	// async.go); jobDone hands it back.
	inflight *ckptJob
	jobDone  chan *ckptJob
	// completed counts this reader's completed periodic (or forced)
	// checkpoints: a planned failure waits for the first.
	completed int
	// offsets commits completed checkpoints' positions (nil: off).
	offsets *offsetCommitter
}

// ErrHalted is what RunReader returns when the reader stopped at its
// planned failure and its context ended before the supervisor killed it.
var ErrHalted = errors.New("reader halted at its planned failure")

// RunReader drains r to its end under checkpointing and writes progress
// events (docs/checkpoint.md) to events. Between two Next
// calls it takes a barrier if the coordinator has triggered one; each
// batch's record ids are staged in the committing sink. At the end it
// takes a final checkpoint so every record is committed. A failed
// checkpoint write is reported as a ckpt-failed event and reading goes on
// (its transactions stay pending for the next checkpoint); a failed final
// checkpoint, a sink failure or a read error ends the reader with an error.
// The caller owns r (and closes it).
func RunReader(ctx context.Context, r consume.Reader, opt ReaderOptions, events io.Writer) error {
	if opt.Store == "" || opt.Output == "" {
		return fmt.Errorf("reader needs a store and an output directory")
	}
	if opt.Restored.Start == nil {
		return fmt.Errorf("reader needs its start offsets (ReaderOptions.Restored from Restore)")
	}
	if opt.Interval < 0 {
		return fmt.Errorf("negative checkpoint interval %v", opt.Interval)
	}
	if opt.Progress < 0 {
		return fmt.Errorf("negative progress interval %v", opt.Progress)
	}
	if opt.Interval == 0 {
		opt.Interval = DefaultInterval
	}
	if err := opt.Plan.validate(len(opt.Restored.Start)); err != nil {
		return err
	}
	fsys := opt.fs
	if fsys == nil {
		fsys = osFS{}
	}
	rd := &reader{
		opt: opt, fs: fsys, ev: eventWriter{w: events},
		sink:    newSink(fsys, opt.Output),
		split:   append([]int64(nil), opt.Restored.Start...),
		nextID:  opt.Restored.ID + 1,
		jobDone: make(chan *ckptJob, 1),
	}
	defer rd.sink.close()
	if opt.Commit != nil {
		rd.offsets = newOffsetCommitter(opt.Commit, opt.CommitTimeout)
		defer rd.offsets.finish()
	}
	err := rd.run(ctx, r)
	if rd.inflight != nil {
		// Reading failed while a checkpoint was in flight: let it end, so
		// nothing writes to the directories after RunReader returned.
		<-rd.jobDone
		rd.inflight = nil
	}
	if err != nil && !errors.Is(err, ErrHalted) {
		_ = rd.ev.emit(&Event{Ev: EvError, T: time.Now().UnixNano(), Err: err.Error()})
	}
	return err
}

func (rd *reader) run(ctx context.Context, r consume.Reader) error {
	start := time.Now()
	if err := rd.ev.emit(&Event{Ev: EvStart, T: start.UnixNano(), PID: os.Getpid(), Restored: rd.opt.Restored.ID, Split: rd.split, Subtasks: rd.opt.Subtasks}); err != nil {
		return err
	}
	rd.coord = rd.opt.trigger
	if rd.coord == nil {
		rd.coord = newCoordinator(start, rd.opt.Interval)
	}
	for {
		if rd.batches > 0 {
			if rd.opt.Plan.reached(rd.split) {
				return rd.halt(ctx)
			}
			if err := rd.poll(false); err != nil {
				return err
			}
			if trig, ok := rd.coord.due(time.Now(), rd.batches); ok && rd.inflight == nil {
				if err := rd.flushProgress(); err != nil {
					return err
				}
				if err := rd.begin(trig, false, false); err != nil {
					return err
				}
			}
		}
		b, err := r.Next(ctx)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return fmt.Errorf("read: %w", err)
		}
		if err := rd.batch(r, b); err != nil {
			return err
		}
	}
	if rd.opt.Plan.reached(rd.split) {
		// The failure point is the end of the range: halt before the
		// final checkpoint, as at any other boundary.
		return rd.halt(ctx)
	}
	if err := rd.flushProgress(); err != nil {
		return err
	}
	if err := rd.poll(true); err != nil {
		return err
	}
	if err := rd.begin(time.Now(), true, false); err != nil {
		return err
	}
	if err := rd.poll(true); err != nil {
		return err
	}
	if rd.offsets != nil {
		// the final checkpoint's positions are committed before done
		rd.offsets.finish()
		if err := rd.emitOffsets(); err != nil {
			return err
		}
	}
	end := rd.last
	if end.IsZero() {
		end = time.Now()
	}
	done := &Event{Ev: EvDone, T: end.UnixNano(), Rec: rd.rows}
	if rd.opt.Memory != nil {
		m, err := rd.opt.Memory()
		if err != nil {
			return err
		}
		done.PeakBytes, done.HarnessBytes, done.PathBytes, done.ArrowBytes = m.Peak, m.Harness, m.Path, m.Arrow
	}
	return rd.ev.emit(done)
}

// batch reports one batch (before anything else happens to it, so a batch
// counts as read once its event is out; with a Progress interval, once the
// event covering it is out) and stages its ids.
func (rd *reader) batch(r consume.Reader, b *consume.Batch) error {
	if b.Rec != nil {
		defer b.Rec.Release()
	}
	now := time.Now()
	if rd.batches == 0 {
		first := r.Stats().First
		if first.IsZero() {
			first = now
		}
		if err := rd.ev.emit(&Event{Ev: EvFirst, T: first.UnixNano()}); err != nil {
			return err
		}
	}
	rd.batches++
	rd.rows += int64(len(b.Partitions))
	rd.last = now
	if len(b.Split) != len(rd.split) {
		return fmt.Errorf("batch has split state for %d partitions, the reader started with %d", len(b.Split), len(rd.split))
	}
	copy(rd.split, b.Split)
	rd.unreported += int64(len(b.Partitions))
	if rd.opt.Progress == 0 || now.Sub(rd.lastEv) >= rd.opt.Progress {
		if err := rd.flushProgress(); err != nil {
			return err
		}
	}
	return rd.sink.stage(rd.nextID, b.Partitions, b.Offsets)
}

// flushProgress writes the batch event covering every batch read since the
// last one, stamped with the last batch's time; with none it writes nothing.
func (rd *reader) flushProgress() error {
	if rd.unreported == 0 {
		return nil
	}
	if err := rd.ev.batch(rd.last.UnixNano(), rd.unreported, rd.split); err != nil {
		return err
	}
	rd.unreported, rd.lastEv = 0, rd.last
	return nil
}

// fmtFinal is the error of a final checkpoint whose snapshot could not be
// written.
func fmtFinal(err error) error {
	return fmt.Errorf("final checkpoint failed: %w", err)
}

// maxForced bounds the checkpoints a reader tries at its failure point:
// one that cannot be written is reported and retried, a store that keeps
// failing ends the reader.
const maxForced = 3

// halt stops the reader at its planned failure: every batch reported, at
// least one checkpoint of its own completed (taking one here if needed and
// waiting for it), then a halt event, and nothing more until the
// supervisor's SIGKILL arrives (or ctx ends: ErrHalted). A checkpoint
// still in flight when the reader already has one is left running, as it
// would be at a real crash.
func (rd *reader) halt(ctx context.Context) error {
	if err := rd.flushProgress(); err != nil {
		return err
	}
	t0 := time.Now()
	for tries := 0; rd.completed == 0; tries++ {
		if tries == maxForced {
			return fmt.Errorf("no checkpoint completed in %d tries at the planned failure", maxForced)
		}
		if rd.inflight == nil {
			if err := rd.begin(time.Now(), false, true); err != nil {
				return err
			}
		}
		if err := rd.poll(true); err != nil {
			return err
		}
	}
	if err := rd.ev.emit(&Event{Ev: EvHalt, T: time.Now().UnixNano(), Split: rd.split, WaitNS: int64(time.Since(t0))}); err != nil {
		return err
	}
	<-ctx.Done()
	return ErrHalted
}
