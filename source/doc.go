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
// (checkpointcost) builds without cgo; source owns the paths behind them.
//
// A cell's child process opens one consume.Reader for its path and drains
// it to the end of the corpus. Every path emits batches of Config.Batch rows
// (the last may be short, none is empty) together with the split state
// after the batch (per partition, its position), which is what a
// checkpoint stores.
//
// # Bounded reads
//
// A reader reads, per partition, the range [start, stop): start is
// Config.Start or the log start, stop is Config.Stop or the high watermark
// captured when the reader opens. The semantics are those of Flink's
// KafkaPartitionSplitReader, the same on every path:
//
//   - A partition ends by the consumer's position, not by its last
//     delivered record. The position is the offset of the next record the
//     client would deliver; it passes every delivered record, and also
//     whatever read_committed never delivers (aborted records, transaction
//     markers) once the client proves it: on franz a control record
//     (kept with kgo.KeepControlRecords, never a row) moves it past itself;
//     on librdkafka (enable.partition.eof=true) a partition-EOF event
//     carries it (the fast path's drain records EOF events apart from
//     errors and applies them after the messages of the same crossing),
//     and so does rd_kafka_position, asked when a poll or crossing brings
//     nothing: librdkafka moves it past the markers it handles itself, a
//     fetch wait before the EOF event comes. A
//     record at or past the stop (appended after the stop was captured) is
//     never emitted and proves the position passed the stop. A partition is
//     finished when its position reaches its stop, so a range whose tail is
//     aborted transactions ends there, not at the stall timeout. Both
//     clients read committed data (isolation.level=read_committed, which
//     the lab pins for librdkafka, and kgo.ReadCommitted for franz).
//   - The split carried by a batch is the positions when it was emitted: it
//     includes positions that control records and EOF events proved by
//     then, and never exceeds the stop. A batch is never emitted for a
//     position alone, so when the last batch was full the invisible tail
//     after it is in no split; a restore from it reads only that tail.
//   - A partition whose start is at or past its stop is finished before it
//     is read (it is not even assigned); a read of only such partitions
//     returns io.EOF at once.
//   - A record whose value is null (a tombstone) is one all-null row at its
//     position (workloads.Columnar.AppendNull, RowBuilder.AddNull) on every
//     path: never dropped, never a parse failure, counted in Stats.Nulls and
//     in Stats.Records. An empty value is not null: it is decoded like any
//     other (for JSON a parse failure, located in Stats).
//
// # Keys and headers
//
// With Config.Keys every path adds each row's Kafka key and headers as two
// columns after the value columns (workloads.KeyedSchema, built by a
// workloads.KeyColumns next to the value decoder and joined per batch by
// KeyColumns.Attach): key, binary, null for a record without key; headers,
// list<struct<key: utf8, value: binary>>, empty for a record without. A
// tombstone keeps its key and headers (only its value columns are null);
// a record that does not decode has no row, key columns included. rowwise
// and shallow take them from kafka.Message.Key and Headers, franz from
// kgo.Record.Key and Headers, and fast from the drain, which then copies
// keys and headers (rd_kafka_message_headers) into buffers of their own
// in the same crossing (drain.KeyViews). Without Keys no path reads them:
// the fast path's drain never asks librdkafka for a message's headers.
//
// # Failures
//
// A read ends with one error line, never a hang or a silent skip. Errors a
// client retries by itself (a broker restarting, a leader moving) are
// counted in Stats.ConsumerErrors; every other one is fatal, among them:
//
//   - a position below the partition's log start (records deleted):
//     librdkafka runs with auto.offset.reset=error and franz with
//     kgo.NoResetOffset, and the error names partition and offset
//     ("source: fast: partition 0: offset 0 is out of range (records
//     deleted?): ...");
//   - topic, group and cluster authorization and SASL authentication
//     failures, at open or at any fetch;
//   - an unknown topic, or a bootstrap no broker answers on, at open within
//     Config.Timeout;
//   - no progress for Config.Timeout while the range is unfinished.
//
// The paths, from least to most native:
//
//   - rowwise: confluent-kafka-go Consumer.Poll per record, each record
//     decoded into a Go row, rows transposed into Arrow.
//   - shallow: Poll per record, the payloads collected, one columnar decode
//     per batch.
//   - fast: the librdkafka bundled by confluent-kafka-go, drained in bulk
//     through the lab's own small cgo layer (source/internal/drain) with
//     rd_kafka_consume_callback_queue: one cgo crossing per drain of the
//     queue's backlog, payloads copied once into a contiguous C buffer
//     with an end-offset array, and decoded inline into Arrow builders
//     with no per-record Go allocation. A column that holds payloads as
//     they are (raw: workloads.Direct) has the crossing copy them straight
//     into its Arrow data instead (an arena that the batches slice), so a
//     raw payload is copied once in all; the crossing ends at the first
//     payload that does not fit there, which goes through the C buffer.
//   - franz: franz-go PollFetches with the same columnar decoder, the peer a
//     Go user would pick instead.
//
// The three columnar paths (shallow, fast, franz) build their batches
// through a buffer pool over Config.Mem (source/internal/recycle): once
// the consumer releases a batch, its Arrow buffers serve the next one, so
// steady state allocates, zeroes fresh pages and collects almost nothing
// per batch. Rowwise allocates afresh, as a consumer written row by row
// does. Config.Mem still backs every buffer, so the cell's allocator
// (Go, mimalloc v2, v3) and its accounting stay what the cell claims.
//
// All librdkafka paths share one configuration (librdkafkaConfig): explicit
// assignment from the start of every partition after a metadata warm-up,
// fetch.queue.backoff.ms lowered from librdkafka's 1000 ms default, the
// cell's check.crcs, and the bounded-read settings above. The franz path
// takes no client properties except a SASL_PLAINTEXT cluster's PLAIN ones. Each reader proves what it claims (consume.Assertions):
// the effective check.crcs is read back from librdkafka, and the fast path
// counts its crossings so a per-record fallback cannot pass as a bulk drain.
//
// The lab's C under source is confined to source/internal/drain (the drain
// and the configuration read-back); this package calls C only through it and
// through the client libraries.
package source
