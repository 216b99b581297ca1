// Package stock puts the lab's columnar decoders (workloads) beside the
// stock Go libraries a consumer would otherwise use for the same job: from
// one Kafka message value to a row of the same Arrow record batch (the
// codec's schema, Codec.Schema().Arrow), so workloads.BatchChecksum and
// RowHash compare the two directly. Raw has no route: its value is the
// row, there is nothing to decode.
//
// Every route is a Decoder (Append a message, NewRecordBatch, Release),
// listed by Routes(format) with the lab's first; one file per format:
//
//	json      lab | encoding-json (encoding/json into a struct) | goccy
//	          (goccy/go-json into the struct) | arrow-unmarshal (arrow-go
//	          RecordBuilder.UnmarshalJSON per message) | arrow-json (arrow-go
//	          JSONReader over the batch as NDJSON)
//	avro      lab | hamba (hamba/avro/v2 Reader into a struct) | goavro
//	          (linkedin/goavro/v2 to a native map) | arrow-ocf (arrow-go
//	          arrow/avro OCFReader over the batch framed as one OCF block:
//	          arrow-go reads Avro from container files only)
//	protobuf  lab | protobuf-gen (google.golang.org/protobuf into the
//	          protoc-gen-go types of bid.proto) | dynamicpb (the same
//	          library into a dynamicpb.Message)
//	csv       lab | arrow-csv (arrow-go arrow/csv Reader over the batch as
//	          lines; encoding/csv underneath)
//
// The struct and per-message routes parse in Append and append a row only
// once it parsed; arrow-go's readers take a stream, so their routes
// (Route.Batch) buffer the batch and parse it in NewRecordBatch, where a
// bad message fails the batch. A bad message is an error wrapping
// workloads.ErrParse, never a panic: three library panics on bad input
// are recovered and made errors (found by the seeds and FuzzJSON, kept as
// seeds): arrow-go v18.8.0 RecordBuilder.UnmarshalJSON and JSONReader on a
// non-string token where a key belongs (`{0`), goccy/go-json v0.10.6 on
// some truncated objects (`{"\0`), and arrow-go v18.8.0 arrow/csv on a
// line with more or fewer fields than the schema.
//
// Measure is the decode micro-benchmark (fplab micro --bench decode, the
// ladder's micro: [decode]): every route decodes the same corpus into
// verified 8192-row batches; ns, CPU ns, heap bytes and allocations per
// record.
//
// # Where the libraries differ from the lab
//
// The fuzz targets (FuzzJSON, FuzzAvro, FuzzProtobuf, FuzzCSV) feed the same
// bytes to the lab and to every stock route of the format and require the
// same Arrow values where both accept, and that the lab accepts nothing
// every stock route rejects. Where one side accepts and the other rejects,
// the rules differ by design; TestDisagreements counts these classes on
// the seeds (go test -v -run Disagreements):
//
//   - json, stock accepts, lab rejects: a column missing (encoding/json and
//     goccy leave the zero value, arrow-go appends null); a column null
//     (the same); an integer column given as a JSON string or, for the
//     timestamp, as ISO-8601 text (arrow-go); invalid UTF-8 in a string
//     (every library, replaced by U+FFFD); nesting deeper than the lab's
//     64 levels in the value of an unknown key; bytes after the object
//     (arrow-unmarshal reads one value and stops; goccy on some inputs);
//     an invalid escape in the value of an unknown key (goccy skips it
//     unchecked).
//   - json, lab accepts, stock rejects: a repeated key (arrow-go rejects,
//     the lab keeps the last value as encoding/json does); a key that is a
//     column's name in other case, with a value of another type (encoding/json
//     and goccy match keys case-insensitively).
//   - json, both accept with other values: a key that folds to a column's
//     name ("AUCTION", "ſtate") sets that column in encoding/json and goccy
//     and is an unknown key to the lab.
//   - avro: invalid UTF-8 in a string is accepted by hamba, goavro and
//     arrow-ocf, rejected by the lab.
//   - protobuf: google.golang.org/protobuf keeps a known field with the
//     wrong wire type, and a group, as unknown fields (the column keeps
//     its last or zero value); the lab rejects both.
//   - csv: arrow-csv accepts a leading '+' on an integer, "(null)" and
//     ISO-8601 text for the timestamp, and a bare CR in an unquoted field;
//     it reads CRLF inside a quoted field as LF (a value the corpus has:
//     Route.Normalize, which Measure verifies arrow-csv against).
package stock
