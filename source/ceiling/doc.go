// Package ceiling measures the broker's serving ceiling on the host: how
// fast the cluster hands a topic's bytes to one client that does nothing
// but fetch and count.
//
// Where it sits, as the ladder's path=ceiling (cell.PathCeiling):
//
//	spec -> cell -> child process (rung) -> ceiling.Read -> result row
//
// Its API is Config, Read and Result. Read sends raw Fetch requests built
// with kmsg over franz-go's connections (kgo is used for nothing else: no
// consumer, no record parsing), one Fetch in flight per leader broker at a
// time, each carrying all the topic's unfinished partitions that broker
// leads, and counts records from the v2 record-batch headers of each
// partition's RecordBatches bytes: base offset, batch length, attributes
// (codec, control bit), last offset delta and record count. Pure Go, no
// cgo, and of the project it imports nothing, so a rung links it alone.
//
// # What the figure means
//
// It is a serving ceiling, not a consume path: no decompression, no record
// parsing, no CRC check, no decoding into Arrow, no copy of the payloads. A
// consume path's rate near it is bound by the broker, not by its own
// work. Records counts the records of
// data batches (aborted transactions' included, as nothing is filtered),
// Bytes the batches' wire size, and Codecs how the corpus is stored.
//
// # Bounds
//
// Read captures per partition the start (ListOffsets earliest: the log
// start) and the stop (ListOffsets latest with read_uncommitted: the high
// watermark) when it opens, and fetches each partition from start until
// its position (the offset after its last complete batch) reaches stop.
// The lab's corpus is loaded before any cell runs and nothing produces
// during one, so every batch in range ends before the stop; one that
// extends past it is an error. Batches appended after the stop are never
// counted and end their partition, as on the consume paths. A batch cut
// short at the end of a response (a size limit) is fetched again, whole.
//
// # Failures
//
// Every failure is one error line prefixed "ceiling: ": an unknown topic,
// another partition count, a partition error in a Fetch response (named by
// kerr), a partition without leader after repeated metadata refreshes
// (leader moves and leader-epoch errors are refreshed and retried, a
// bounded number of times per partition between progress), no progress
// for Config.Timeout, or the caller's context ending.
package ceiling
