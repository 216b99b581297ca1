// Package consume is the consume API: what a consume path hands its caller,
// without the paths themselves. It links no Kafka client and no C, so code
// that only drives a Reader (checkpointcost's reader role) builds and tests
// with CGO_ENABLED=0.
//
// Where it sits in the flow:
//
//	spec -> cells -> child process (fplab rung) -> [source -> consume.Reader] -> result -> journal -> tables/plots/report
//
// Package source implements this API (source.Open returns a Reader for a
// Path); a caller that only reads batches imports consume alone. The path
// names are cell's (cell.PathFast, ...), the one vocabulary a spec,
// a cell name and a table share; consume imports nothing else of the lab.
//
// What is in it:
//
//   - Path, its values (PathRowwise, PathShallow, PathFast, PathFranz, each
//     the cell vocabulary's name), Paths and ParsePath: the paths a Reader
//     can run (the counting references, cell.CountingPath, are not).
//   - Reader: Next, Stats, Assertions, Close.
//   - Batch: one Arrow record batch with per-row partition and offset and
//     the split state after it (what a checkpoint stores).
//   - Stats and Assertions: a reader's counters and the facts it read back
//     from its client.
//   - ParseFailure: where the first record that did not decode lies.
//
// Its errors (ParsePath's, ParseFailure's text) carry no package prefix;
// only the CLI adds one.
package consume
