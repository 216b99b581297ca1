// Package source is the system under test: the consume paths that turn a
// Kafka topic into Arrow record batches.
//
// Where it sits in the flow:
//
//	spec -> cells -> child process (fplab rung) -> [source] -> result -> journal -> tables/plots/report
//
// A cell's child process opens one Reader for its path and drains it to the
// end of the corpus. Every path emits batches of Config.Batch rows (the last
// may be short) together with the split state after the batch (per partition,
// the offset after the last emitted record), which is what a checkpoint
// stores.
//
// The paths, from least to most native:
//
//   - rowwise: confluent-kafka-go Consumer.Poll per record, each record
//     decoded into a Go row, rows transposed into Arrow.
//   - shallow: Poll per record, the payloads collected, one columnar decode
//     per batch.
//   - fast: the librdkafka bundled by confluent-kafka-go, drained in bulk
//     through this package's own small cgo layer (drain.c) with
//     rd_kafka_consume_callback_queue: one cgo crossing per drain, payloads
//     copied once into a contiguous C buffer with an end-offset array, and
//     decoded inline into Arrow builders with no per-record Go allocation.
//   - franz: franz-go PollFetches with the same columnar decoder, the peer a
//     Go user would pick instead.
//
// All librdkafka paths share one configuration (librdkafkaConfig): explicit
// assignment from the beginning of every partition after a metadata warm-up,
// fetch.queue.backoff.ms lowered from librdkafka's 1000 ms default, and the
// cell's check.crcs. Each reader proves what it claims (Assertions): the
// effective check.crcs is read back from librdkafka, and the fast path counts
// its crossings so a per-record fallback cannot pass as a bulk drain.
//
// cgo is confined to drain.go/drain.c (and rdkconf.go for configuration
// read-back); nothing else in the tree calls C except alloc/.
package source
