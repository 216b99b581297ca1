// Package checkpointcost measures what checkpointing costs a consume path
// whose checkpoint state advances once per emitted Arrow batch: checkpoint
// duration and recovery replay at a cell's batch size, reported next to the
// steady-state read rate of the same run, and proven exactly-once through
// a committing sink and a verifier.
//
// Where it sits in the flow:
//
//	spec -> cells -> child process (fplab rung) -> [checkpointcost] -> source
//	                                           -> result -> journal -> tables/plots/report
//
// The rung process of a checkpoint cell calls Supervise, which starts the
// reader processes (argv from the rung, typically the same binary in a
// reader role). Each reader process calls Restore, opens a consume.Reader
// with Config.Start = Restored.Start, and hands it to RunReader with its
// stdout as the event stream. The package owns the coordinator, the
// checkpoint store, the committing sink, failure injection, the verifier
// and the figures (Result); the rung owns the cell, the source and the
// printing.
//
// # Definitions
//
// Split state: per partition, the offset after the last record of the last
// batch the reader emitted (consume.Batch.Split). A record is read once the
// batch holding it has been reported in a batch event; position is the
// split state of the last reported batch.
//
// Trigger: the coordinator triggers checkpoints on a fixed grid, reader
// start + k*Interval (default 1 s), one at a time: a grid point passing
// while a checkpoint is pending or running is skipped, not queued.
//
// Barrier and alignment wait: the reader takes the barrier only at a batch
// boundary, between two Next calls (never before its first batch), at the
// first boundary at or after the trigger. Alignment wait = boundary time -
// trigger time: how long the barrier waited behind the batch in flight.
//
// Snapshot, in two parts as Flink takes them. Synchronous, on the read
// path at the boundary: the sink closes its open transaction (its buffered
// ids written to the file) and the split state and the list of pending
// transactions are copied; pause = how long reading stopped for it.
// Asynchronous, on its own goroutine while reading goes on: the closed
// transaction is made durable (fsync of the file and of the staging
// directory), then the copied state is serialised (JSON) and written
// durably to the checkpoint store: temporary file, fsync, rename to
// ckpt-<id>.json, fsync of the directory. Snapshot time = completion time
// - boundary time (both parts). The reader takes the outcome at a later
// batch boundary; the next trigger waits for it (one checkpoint in flight
// at a time).
//
// Completion and duration: a checkpoint is complete once its file is
// renamed and the directory synced; its commit (below) follows on the same
// goroutine. Duration (end to end) = completion
// time - trigger time = alignment + snapshot. State size = bytes of the
// checkpoint file. A checkpoint whose file cannot be written is failed: it
// is reported (ckpt-failed event, Result.FailedCheckpoints), its sink
// transaction stays pending and is covered by the next checkpoint, and
// reading goes on. At the end of input the reader takes a final
// checkpoint (so all records commit); if that one fails the reader fails.
// The percentile figures cover periodic checkpoints only.
//
// Committing sink (two-phase commit, as Flink's TwoPhaseCommitSinkFunction):
// each batch's record ids (partition, offset) are appended, as runs of
// consecutive offsets, to the open transaction, a file under
// <output>/staging. Pre-commit happens in the snapshot (closed at the
// barrier, made durable before the state is written); commit, after
// completion, renames every transaction the checkpoint lists as pending
// into <output>/committed and syncs that directory. Committed files are the output the verifier
// reads. Commit is idempotent: a transaction already in committed/ is left
// alone, so Restore can commit the restored checkpoint's pending
// transactions again without harm (the crash window between completion
// and commit), and then deletes every other staged transaction (data after
// the restored checkpoint, which is read again).
//
// Failure: the supervisor draws Failures distinct kill targets (seeded,
// records read since the range start, in the first 90% of the range) and
// hands each reader its Plan on standard input: halt at the first batch
// boundary at or past the next target, once back at the previous killed
// reader's position. The reader stops itself there, so where a kill lands
// depends on the seed and the batch boundaries, never on the host's speed
// or load. A kill needs a completed checkpoint of the reader's own (else
// it would only replay the previous reader's): if it has none yet, it
// takes one at that boundary (forced, left out of the percentiles) and
// waits for it; that wait is outside every measured window and reported as
// Failure.Wait. A checkpoint still in flight when the reader already has
// one is left running, as at a real crash. The reader then writes a halt
// event and reads nothing more; the supervisor kills it with SIGKILL on
// that event, and the next reader restores the last completed checkpoint.
// Every planned kill therefore lands; a failure count the range cannot
// hold (more than 90% of its records) is refused up front.
//
// Replay = records read again after the restore that were read before the
// failure = sum over partitions of (killed reader's position - restored
// split state). A kill that lands between Next returning and the batch
// event being written loses at most that one batch from the count.
//
// Recovery = new reader's process start (the supervisor's clock just before
// exec) until its first batch event at or past the killed reader's
// position on every partition. Start-up = process start until its first
// record (exec, connect, metadata, assignment, first fetch: source
// Stats.First); catch-up = the rest. Figures are means over failures.
//
// Steady state: each reader's window runs from its first record to its
// last reported batch (start-up excluded, checkpoint pauses included);
// rec/s = all rows reported by all readers, replayed rows included, over the
// sum of the windows. Replayed rows count because reading them is real work
// inside those windows; their cost is the separate replay and recovery
// figures.
//
// Verifier: the committed output must hold every record of the bounded
// range [Start[p], Stop[p]) exactly once, gap-free per partition. Lost,
// duplicate and out-of-range counts are in Result.Verdict; any non-zero one
// fails the cell.
//
// # Events protocol (reader stdout -> supervisor)
//
// One JSON object per line, each written with one write(2) so a killed
// reader leaves whole lines; nothing else may be printed on stdout (a line
// that is not an event fails the run). "t" is wall-clock Unix nanoseconds
// (the processes share the host); *_ns fields are durations from the
// reader's monotonic clock.
//
//	{"ev":"start","t":..,"pid":..,"restored":<ckpt id or 0>,"split":[..]}   first line
//	{"ev":"first","t":<first record>}                                      before the first batch
//	{"ev":"batch","t":..,"rec":<rows>,"split":[..]}                        see below
//	{"ev":"ckpt","t":..,"id":..,"trigger":..,"align_ns":..,"snapshot_ns":..,"dur_ns":..,"bytes":..,"split":[..],"final":bool}
//	{"ev":"ckpt-failed", same fields, "err":".."}
//	{"ev":"commit","t":..,"id":..,"txns":..,"rec":<records made visible>,"commit_ns":..}
//	{"ev":"halt","t":..,"split":[..],"wait_ns":..}                         last line of a reader at its planned failure
//	{"ev":"done","t":<last batch>,"rec":<rows read>}                       last line of a reader that finished
//	{"ev":"error","t":..,"err":".."}                                       before a non-zero exit
//
// Before any event, the supervisor writes the reader's Plan as one JSON
// line on its standard input and closes it.
//
// A batch event covers the batches read since the previous one: "rec" is
// their rows, "t" the last one's time, "split" the position after it. With
// ReaderOptions.Progress 0 (what a supervisor placing kills needs) there is
// one per batch, written before the batch is staged: a write(2) per batch
// on the read path, and a wake-up of the supervisor. With a Progress
// interval there is at most one per interval, plus one before each
// checkpoint event (so a checkpoint's split is the last reported
// position) and one at the end; the rung uses 100 ms when its cell kills
// no reader, so the cells that measure what checkpointing costs do not
// also pay for the kill machinery. A last line cut short by a kill is
// dropped.
//
// A reader exits 0 after done; the supervisor treats any other exit it did
// not cause as a failed run. A reader that sends no event for StallTimeout
// is killed and fails the run. Readers get Pdeathsig=SIGKILL, so none
// outlives the supervisor's process.
package checkpointcost
