package checkpointcost

import (
	"slices"
	"time"
)

// Result is one cell's checkpoint and recovery figures. The lead prints
// them in benchmark format; the names in brackets are the suggested units.
type Result struct {
	// Checkpoints lists every completed checkpoint of every reader, final
	// ones included, in the order they completed.
	Checkpoints []Checkpoint
	// Ckpts counts completed periodic checkpoints [ckpts]. The figures
	// below are over periodic checkpoints only: a final checkpoint is taken
	// at the end of input, so its alignment is zero by construction.
	Ckpts int
	// CkptP50, CkptP99, CkptMax: end-to-end duration, trigger to
	// completion [ckpt-p50-ms, ckpt-p99-ms, ckpt-max-ms]. Percentiles are
	// nearest-rank: the smallest value with at least p% of the values at or
	// below it (with fewer than 100 checkpoints p99 is the maximum).
	CkptP50, CkptP99, CkptMax time.Duration
	// AlignP99: trigger to the batch boundary where the barrier was taken
	// [align-p99-ms]. SnapshotP99: boundary to completion, i.e. sink
	// pre-commit plus serialising and durably writing the state
	// [snapshot-p99-ms].
	AlignP99, SnapshotP99 time.Duration
	// PauseP99: how long the read path stopped for a checkpoint's
	// synchronous part (closing the sink's transaction, copying the state)
	// [pause-p99-ms]; the durable writes run while reading goes on.
	PauseP99 time.Duration
	// StateBytes is the largest checkpoint written, in bytes [state-bytes].
	StateBytes int64
	// FailedCheckpoints counts checkpoint attempts whose state could not be
	// written [ckpt-failed]; FailedErr is the first one's error.
	FailedCheckpoints int
	FailedErr         string

	// Failures lists the injected reader kills, in order.
	Failures []Failure
	// ReplayRec is the mean of Failure.Replay [replay-rec]; Recover,
	// RecoverStartup and RecoverCatchup are the means of the matching
	// Failure fields [recover-ms, recover-startup-ms, recover-catchup-ms].
	ReplayRec                               float64
	Recover, RecoverStartup, RecoverCatchup time.Duration
	// KillWait is the mean of Failure.Wait [kill-wait-ms]: time spent at
	// failure points waiting for a reader's first checkpoint, outside
	// every measured window. Forced counts the checkpoints taken there
	// [ckpts-forced]; they are not in the percentiles above.
	KillWait time.Duration
	Forced   int

	// Verdict is the verifier's finding [lost, dup]; a cell is only valid
	// with Lost = Dup = Extra = 0.
	Verdict Verdict

	// Steady state. Readers is the number of reader processes. Read counts
	// every row the readers reported, replayed rows included; Window sums
	// each reader's window from its first record to its last reported batch
	// (start-up excluded, checkpoint pauses included). RecPerSec is
	// Read/Window [rec/s]: the rate at which the readers read while they
	// were reading, under checkpointing. Replayed rows count because reading
	// them is work inside those windows; their cost is reported separately
	// as replay-rec and recover-ms.
	Readers int
	// Subtasks is, per reader process, the subtasks it reported running
	// (0: one reader, not split); a rescale restores with another number.
	Subtasks []int
	// Memory is the largest of each figure over the reader processes
	// that finished (ReaderOptions.Memory; zero without it): a killed
	// reader reports none.
	Memory Memory
	Read   int64
	Window time.Duration
	// Startup is the first reader's process start to first record.
	Startup time.Duration

	// Offsets lists every offset commit of completed checkpoints
	// (ReaderOptions.Commit), in the order the readers reported them.
	// From it: OffsetCommits that succeeded [offset-commits],
	// OffsetFailed [offset-commit-failed] with the first error in
	// OffsetErr, OffsetSkipped checkpoints whose commit a newer one
	// superseded before it was sent [offset-commit-skipped], and the
	// commit durations OffsetP50, OffsetMax [offset-commit-p50-ms,
	// offset-commit-max-ms]. LastOffsets is the last successful commit's
	// positions (checkpoint LastOffsetsID): what the group holds after the
	// cell.
	Offsets                                    []OffsetCommit
	OffsetCommits, OffsetFailed, OffsetSkipped int
	OffsetErr                                  string
	OffsetP50, OffsetMax                       time.Duration
	LastOffsets                                []int64
	LastOffsetsID                              int
}

// OffsetCommit is one offset commit a reader reported.
type OffsetCommit struct {
	ID, Reader int
	Split      []int64
	Dur        time.Duration
	Err        string
	Skipped    int
}

// RecPerSec is the steady-state read rate, Read/Window (0 with no window).
func (r *Result) RecPerSec() float64 {
	if r.Window <= 0 {
		return 0
	}
	return float64(r.Read) / r.Window.Seconds()
}

// Checkpoint is one completed checkpoint as its reader reported it.
type Checkpoint struct {
	ID                        int
	Reader                    int // index of the reader process, from 0
	Final                     bool
	Forced                    bool
	Align, Snapshot, Duration time.Duration
	Pause                     time.Duration
	Bytes                     int64
}

// Failure is one injected reader kill and the recovery from it.
type Failure struct {
	// Reader is the index of the killed reader process.
	Reader int
	// Pre is the killed reader's position: the split state of the last
	// batch it reported. Restored is the split state the next reader
	// restored, from checkpoint RestoredID.
	Pre, Restored []int64
	RestoredID    int
	// Replay is the records read again: sum over partitions of
	// Pre - Restored.
	Replay int64
	// Wait is how long the killed reader waited at its failure point for
	// a checkpoint of its own before it halted (0 when it had one).
	Wait time.Duration
	// Recover runs from the new reader's process start until it reported a
	// batch at or past Pre on every partition; Startup is the part until its
	// first record, Catchup the rest.
	Recover, Startup, Catchup time.Duration
}

// summarise fills the aggregate figures from the lists.
func (r *Result) summarise() {
	var dur, align, snap, pause []time.Duration
	r.Ckpts, r.StateBytes, r.Forced = 0, 0, 0
	for _, c := range r.Checkpoints {
		r.StateBytes = max(r.StateBytes, c.Bytes)
		if c.Forced {
			r.Forced++
		}
		if c.Final || c.Forced {
			continue
		}
		r.Ckpts++
		dur = append(dur, c.Duration)
		align = append(align, c.Align)
		snap = append(snap, c.Snapshot)
		pause = append(pause, c.Pause)
	}
	r.CkptP50, r.CkptP99, r.CkptMax = percentile(dur, 50), percentile(dur, 99), percentile(dur, 100)
	r.AlignP99, r.SnapshotP99, r.PauseP99 = percentile(align, 99), percentile(snap, 99), percentile(pause, 99)
	var odur []time.Duration
	r.OffsetCommits, r.OffsetFailed, r.OffsetSkipped, r.OffsetErr = 0, 0, 0, ""
	for _, o := range r.Offsets {
		r.OffsetSkipped += o.Skipped
		odur = append(odur, o.Dur)
		if o.Err != "" {
			if r.OffsetFailed == 0 {
				r.OffsetErr = o.Err
			}
			r.OffsetFailed++
			continue
		}
		r.OffsetCommits++
		r.LastOffsets, r.LastOffsetsID = o.Split, o.ID
	}
	r.OffsetP50, r.OffsetMax = percentile(odur, 50), percentile(odur, 100)
	if n := len(r.Failures); n > 0 {
		var replay int64
		var rec, st, cu, wait time.Duration
		for _, f := range r.Failures {
			replay += f.Replay
			wait += f.Wait
			rec += f.Recover
			st += f.Startup
			cu += f.Catchup
		}
		r.ReplayRec = float64(replay) / float64(n)
		d := time.Duration(n)
		r.Recover, r.RecoverStartup, r.RecoverCatchup = rec/d, st/d, cu/d
		r.KillWait = wait / d
	}
}

// percentile is the nearest-rank percentile p (0 < p <= 100) of v; 0 for
// no values.
func percentile(v []time.Duration, p int) time.Duration {
	if len(v) == 0 {
		return 0
	}
	s := slices.Clone(v)
	slices.Sort(s)
	rank := (p*len(s) + 99) / 100 // ceil(p/100 * n)
	return s[max(rank, 1)-1]
}

// Memory is a reader process's memory, bytes: its own peak resident set,
// what the harness held resident when the path opened, the path's peak
// resident set from then on, and the most bytes its Arrow buffers held at
// once.
type Memory struct {
	Peak, Harness, Path, Arrow int64
}

// max is the larger of each figure of m and o.
func (m Memory) max(o Memory) Memory {
	return Memory{Peak: max(m.Peak, o.Peak), Harness: max(m.Harness, o.Harness), Path: max(m.Path, o.Path), Arrow: max(m.Arrow, o.Arrow)}
}
