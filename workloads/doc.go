// Package workloads owns what the lab's records look like: the schemas (bid,
// bid-wide), the seeded corpus generator, and the five wire formats (json,
// avro, protobuf, csv, raw) with their encoders, rowwise decoders and
// zero-allocation columnar decoders into Arrow, plus the row hashes that
// verify every consumed batch against the corpus.
//
// It is the pure-Go floor under the consume side of the import graph; of
// the project it imports only the vocabulary, cell:
//
//	cmd -> ladder, ladder/rung -> {source, clusters, workloads/stock} -> workloads -> cell
//
// In the flow spec -> cells -> child process -> result -> journal ->
// tables/plots/report, a cell names a schema and a format; the loader in
// clusters/ encodes the corpus with a Codec into the cell's topic (named by
// Corpus.ID), and inside the child process the consume paths in source/
// decode it: the rowwise rung with Codec.DecodeRow and a RowBuilder, the
// shallow and fast rungs with a Columnar, which writes the Arrow buffers
// itself (colWriter; rawColumnar for raw) where the rowwise side goes
// through Arrow's builders as a Go program without the lab would. Each emitted batch is checked with
// BatchChecksum against the checksum of the records it covers (Corpus.Checksum,
// or O(1) from the precomputed Corpus.Hashes inside a measured loop).
//
// A keyed corpus (Keys, a cell's keys=on) gives every record a Kafka key
// and two headers besides its value; the paths read them into a key and a
// headers column after the value columns (KeyedSchema, KeyColumns), and
// the row hashes cover them (Corpus.Hash, Corpus.NullHash for a tombstone,
// which keeps its key and headers).
//
// The package knows nothing of Kafka, processes or results, uses no cgo,
// and never panics on message bytes: a bad message is an error wrapping
// ErrParse and appends nothing.
package workloads
