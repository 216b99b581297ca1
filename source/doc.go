// Package source is the system under test: the consume paths that turn a
// Kafka topic into Arrow record batches.
//
// Where it sits in the flow:
//
//	spec -> cells -> child process (fplab rung) -> [source] -> result -> journal -> tables/plots/report
//
// Its API is Config, Open (a consume.Reader for Config.Path) and ClientOf.
// The types a reader hands out (consume.Reader, consume.Batch,
// consume.Stats, consume.Path, ...) are package source/consume, which links
// no Kafka client and no C, so a caller that only drives a Reader
// (checkpointcost) builds without cgo; source owns the paths behind them:
// rowwise and shallow (confluent-kafka-go Poll), fast (librdkafka drained
// in bulk through source/internal/drain, the only cgo under source) and
// franz (franz-go). A reader emits batches of Config.Batch rows with the
// split state after each, reads each partition's range [start, stop)
// (stop: the high watermark at open unless Config.Stop says otherwise;
// start: Config.Start, else where Apache Flink's KafkaSource starts by
// Config.StartAt: the log start, the high watermark at open, the first
// record at or after Config.StartTime, or Config.Group's committed offset
// with Config.Reset where it is absent or out of range), adds
// key and headers columns with Config.Keys, and ends with io.EOF or one
// error line. With Config.Live a columnar path reads unbounded instead,
// from the end of the log at open, handing over a batch that is not full
// once Config.Linger has passed since its first row; it never ends with
// io.EOF; with Config.Discovery it joins partitions added to the topic
// from their start. With Config.Stats a librdkafka path samples
// librdkafka's own statistics into Config.OnStats (off by default).
// OpenSubtasks reads a bounded range with n readers at once, each over
// the partitions SplitOwner (Flink's assignment rule) gives it, behind
// one consume.Reader whose split is their union (merge.go).
//
// What else the upstream acceptance gate asks of a reader, every path's
// reader does: a Next whose context ends returns at once, waking a wait
// in librdkafka (wake.go), and the reader stays usable; it is a
// consume.Pauser (partitions paused and resumed one by one, pause.go) and
// a consume.Committer (a split state committed as Config.Group's offsets,
// commit.go).
//
// How the paths read (bounded and live reads, tombstones, keys and
// headers, the buffer pool, the shared librdkafka configuration, which
// failures are fatal, the statistics' routes) is docs/paths.md.
package source
