// Package crc measures what CRC32C (the checksum Kafka puts on every record
// batch, checked by librdkafka when check.crcs=true) costs on the host's
// architecture. It is a micro-benchmark beside the ladder's cells, in a
// child process of its own (fplab micro --bench crc32c, a spec's
// micro: [crc32c]):
//
//	spec -> micro child process -> [crc] -> result -> journal -> tables/plots/report
//
// and complements the crc=on/off axis: the ladder says what check.crcs
// costs a real consume cell end to end, this package says what the checksum
// itself costs per message and per MiB, with and without hardware help.
//
// Two implementations are compared (Impls):
//
//   - go-castagnoli: hash/crc32 with the Castagnoli table. Go uses the
//     CPU's CRC32C instructions where it has them (SSE4.2 on amd64, the
//     CRC32 extension on arm64); HardwareCRC says whether this host has them.
//   - sw-slicing8: a portable slicing-by-8 table implementation, the
//     algorithm librdkafka falls back to where it has no hardware path
//     (its only path on ARM).
//
// Measure runs every implementation over the sizes asked for (corpus-sized
// messages of ~100-150 B and a 1 MiB batch-sized buffer by default) and
// WriteBench prints the results in Go benchmark format with key=value names
// (BenchmarkCRC32C/impl=go-castagnoli/size=128), so benchstat can compare
// an x86 and an ARM host. The package is pure Go; it owns no process, file
// or Kafka state.
package crc
