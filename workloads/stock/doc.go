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
//	          (goccy/go-json into the struct) | sonic (bytedance/sonic into
//	          the struct: its JIT on amd64, optdec on arm64) | arrow-unmarshal (arrow-go
//	          RecordBuilder.UnmarshalJSON per message) | arrow-json (arrow-go
//	          JSONReader over the batch as NDJSON)
//	avro      lab | hamba (hamba/avro/v2 Reader into a struct) | goavro
//	          (linkedin/goavro/v2 to a native map) | arrow-ocf (arrow-go
//	          arrow/avro OCFReader over the batch framed as one OCF block:
//	          arrow-go reads Avro from container files only)
//	protobuf  lab | protobuf-gen (google.golang.org/protobuf into the
//	          protoc-gen-go types of bid.proto) | vtprotobuf
//	          (planetscale/vtprotobuf's generated UnmarshalVTUnsafe into
//	          the same types) | dynamicpb (google.golang.org/protobuf into
//	          a dynamicpb.Message)
//	csv       lab | arrow-csv (arrow-go arrow/csv Reader over the batch as
//	          lines; encoding/csv underneath)
//
// The struct and per-message routes parse in Append and append a row only
// once it parsed; arrow-go's readers take a stream, so their routes
// (Route.Batch) buffer the batch and parse it in NewRecordBatch, where a
// bad message fails the batch. A bad message is an error wrapping
// workloads.ErrParse, never a panic: the three library panics on bad
// input that fuzzing found are recovered and made errors.
//
// Where it sits in the flow (spec -> cells -> child process -> result ->
// journal -> tables/plots/report), twice, both inside the child process:
//
//   - Measure is the decode micro-benchmark (fplab micro --bench decode,
//     the ladder's micro: [decode]): every route decodes the same corpus
//     into verified 8192-row batches; ns, CPU ns, heap bytes and
//     allocations per record.
//   - Best and NewColumnar give source's shallow and fast paths the
//     format's fastest per-message stock route as a workloads.Columnar,
//     for a cell's decoder=stock: Best measures the candidates on the host
//     (Measure, three alternating rounds) once per process, before the
//     cell's window, and the cell reports them (stock-pick).
//
// Where the libraries accept or read differently from the lab, by design,
// and the library panics the routes recover: docs/decoders.md.
package stock
