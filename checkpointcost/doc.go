// Package checkpointcost measures what checkpointing costs a consume path
// whose checkpoint state advances once per emitted Arrow batch: checkpoint
// duration and recovery replay at a cell's batch size, next to the
// steady-state read rate of the same run, proven exactly-once through a
// committing sink and a verifier. It links no C (it drives a
// consume.Reader), so it builds and tests with CGO_ENABLED=0.
//
// Where it sits in the flow:
//
//	spec -> cells -> child process (fplab rung) -> [checkpointcost] -> source
//	                                           -> result -> journal -> tables/plots/report
//
// The API, by process:
//
//   - Supervisor (the rung of a checkpoint cell): Supervise with
//     SuperviseOptions starts, plans and kills the reader processes and
//     returns a Result (the figures, the Failures, the Verdict).
//   - Reader (fplab rung --role reader): ReadPlan reads the Plan the
//     supervisor wrote on stdin, Restore returns the Restored start
//     offsets to open the source at, and RunReader reads it with
//     ReaderOptions, checkpointing every Interval and writing Events on
//     stdout; it returns ErrHalted at its planned failure.
//   - Verify checks a committed output against its range (Holes: the
//     offsets that hold no record a reader delivers) and returns a Verdict.
//
// The definitions (split state, trigger, alignment, the two-part snapshot,
// the committing sink, failure injection, replay, recovery, the steady-state
// window, the verifier) and the events protocol between reader and
// supervisor are in docs/checkpoint.md; the units are in docs/metrics.md.
package checkpointcost
