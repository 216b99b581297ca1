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
// (the last may be short) together with the split state after the batch (per
// partition, the offset after the last emitted record), which is what a
// checkpoint stores.
//
// The paths, from least to most native:
//
//   - rowwise: confluent-kafka-go Consumer.Poll per record, each record
//     decoded into a Go row, rows transposed into Arrow.
//   - shallow: Poll per record, the payloads collected, one columnar decode
//     per batch.
//   - fast: the librdkafka bundled by confluent-kafka-go, drained in bulk
//     through the lab's own small cgo layer (source/internal/drain) with
//     rd_kafka_consume_callback_queue: one cgo crossing per drain, payloads
//     copied once into a contiguous C buffer with an end-offset array, and
//     decoded inline into Arrow builders with no per-record Go allocation.
//   - franz: franz-go PollFetches with the same columnar decoder, the peer a
//     Go user would pick instead.
//
// All librdkafka paths share one configuration (librdkafkaConfig): explicit
// assignment from the beginning of every partition after a metadata warm-up,
// fetch.queue.backoff.ms lowered from librdkafka's 1000 ms default, and the
// cell's check.crcs. Each reader proves what it claims (consume.Assertions):
// the effective check.crcs is read back from librdkafka, and the fast path
// counts its crossings so a per-record fallback cannot pass as a bulk drain.
//
// The lab's C under source is confined to source/internal/drain (the drain
// and the configuration read-back); this package calls C only through it and
// through the client libraries.
package source
