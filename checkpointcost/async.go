package checkpointcost

import (
	"slices"
	"time"
)

// A checkpoint runs in two parts, as Flink's checkpoints do. The
// synchronous part runs on the read path at the barrier: it closes the
// sink's open transaction (its buffered ids written to the file, not yet
// synced) and copies the split state and the pending transactions; how
// long reading stops for it is the pause. The asynchronous part runs on
// its own goroutine while reading goes on: it makes the closed transaction
// durable, writes the snapshot durably and, once that completed, commits
// the transactions the snapshot lists. The reader takes its outcome at a
// later batch boundary (reportJob) and only then triggers the next one, so
// at most one checkpoint is in flight.

// ckptJob is one checkpoint's asynchronous part and, once done, its
// outcome. The goroutine running it owns every field until it sends the
// job back.
type ckptJob struct {
	id                int
	final, forced     bool
	trigger, boundary time.Time
	pause             time.Duration
	snap              snapshot
	closed            *closing // the transaction closed at this barrier, if any

	// Outcome.
	done      time.Time // completion: the snapshot durable
	bytes     int
	werr      error // the snapshot could not be written: a failed checkpoint
	fatal     error // pre-commit or commit failed: exactly-once cannot be kept
	recs      int64 // records made visible by the commit
	committed time.Time
	commitDur time.Duration
}

// begin takes the barrier: the synchronous part, then the asynchronous
// part on its own goroutine.
func (rd *reader) begin(trigger time.Time, final, forced bool) error {
	boundary := time.Now()
	closed, err := rd.sink.rotate()
	if err != nil {
		return err
	}
	job := &ckptJob{
		id: rd.nextID, final: final, forced: forced, trigger: trigger, boundary: boundary, closed: closed,
		snap: snapshot{Version: snapshotVersion, ID: rd.nextID, Split: slices.Clone(rd.split),
			Pending: append([]txn{}, rd.sink.pending...)},
	}
	rd.nextID++
	job.pause = time.Since(boundary)
	rd.inflight = job
	go rd.runJob(job)
	if rd.opt.awaitSnapshot && !final {
		return rd.poll(true)
	}
	return nil
}

// runJob is the asynchronous part. It uses only the job, the file system
// and the directories, never the reader's state.
func (rd *reader) runJob(job *ckptJob) {
	defer func() { rd.jobDone <- job }()
	if job.closed != nil {
		if job.fatal = job.closed.durable(rd.fs, rd.opt.Output); job.fatal != nil {
			return
		}
	}
	job.bytes, job.werr = writeSnapshot(rd.fs, rd.opt.Store, &job.snap)
	job.done = time.Now()
	if job.werr != nil {
		return
	}
	if rd.opt.afterComplete != nil {
		rd.opt.afterComplete(job.id)
	}
	job.recs, job.fatal = commitTxns(rd.fs, rd.opt.Output, job.snap.Pending)
	job.committed = time.Now()
	job.commitDur = job.committed.Sub(job.done)
}

// poll reports the checkpoint in flight if it finished (or, with wait,
// once it finishes). It returns an error only when exactly-once can no
// longer be kept, or when the final checkpoint failed.
func (rd *reader) poll(wait bool) error {
	if rd.inflight == nil {
		return nil
	}
	var job *ckptJob
	if wait {
		job = <-rd.jobDone
	} else {
		select {
		case job = <-rd.jobDone:
		default:
			return nil
		}
	}
	rd.inflight = nil
	return rd.reportJob(job)
}

// reportJob writes a finished checkpoint's events, drops what its commit
// made visible from the sink's pending list and lets the coordinator
// schedule the next trigger.
func (rd *reader) reportJob(job *ckptJob) error {
	if job.fatal != nil && job.done.IsZero() {
		return job.fatal // pre-commit failed before the snapshot was tried
	}
	ev := Event{
		Ev: EvCkpt, T: job.done.UnixNano(), ID: job.id, Split: job.snap.Split, Final: job.final, Forced: job.forced,
		Trigger: job.trigger.UnixNano(), AlignNS: int64(job.boundary.Sub(job.trigger)),
		SnapshotNS: int64(job.done.Sub(job.boundary)), DurNS: int64(job.done.Sub(job.trigger)),
		PauseNS: int64(job.pause), Bytes: int64(job.bytes),
	}
	if job.werr != nil {
		ev.Ev, ev.Err = EvCkptFailed, job.werr.Error()
		if err := rd.ev.emit(&ev); err != nil {
			return err
		}
		rd.coord.finished(job.done)
		if job.final {
			return fmtFinal(job.werr)
		}
		return nil
	}
	if err := rd.ev.emit(&ev); err != nil {
		return err
	}
	if job.fatal != nil {
		return job.fatal
	}
	if !job.final {
		rd.completed++
	}
	rd.sink.committed(len(job.snap.Pending))
	if err := rd.ev.emit(&Event{Ev: EvCommit, T: job.committed.UnixNano(), ID: job.id,
		Txns: len(job.snap.Pending), Rec: job.recs, CommitNS: int64(job.commitDur)}); err != nil {
		return err
	}
	rd.coord.finished(job.committed)
	if rd.offsets != nil {
		rd.offsets.post(job.id, job.snap.Split)
	}
	return rd.emitOffsets()
}
