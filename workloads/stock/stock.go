package stock

import (
	"errors"
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fastpathlab/fplab/workloads"
)

// Decoder is one route from message bytes to Arrow record batches of a
// codec's schema (Codec.Schema().Arrow), so workloads.BatchChecksum and
// RowHash compare its batches with the lab's directly.
type Decoder interface {
	// Append decodes one message into the batch being built. A message
	// that does not parse returns an error wrapping workloads.ErrParse and
	// appends nothing. A batch route (Route.Batch) may only buffer the
	// message and report a bad one from NewRecordBatch instead.
	Append(msg []byte) error
	// NewRecordBatch returns the rows appended since the last call and
	// starts a new batch. A batch route parses here: an error wraps
	// workloads.ErrParse and discards every message of the batch.
	NewRecordBatch() (arrow.RecordBatch, error)
	// Release frees the decoder's builders.
	Release()
}

// Route is one library's way from a format's message bytes to Arrow.
type Route struct {
	Format workloads.Format
	// Lib names the route in the ladder (micro=decode/.../lib=<Lib>):
	// "lab" for the lab's own columnar decoder.
	Lib string
	// Library is what the route runs on, with the module version.
	Library string
	// Batch routes parse a whole batch at once in NewRecordBatch
	// (arrow-go's readers take a stream, not single messages).
	Batch bool
	// Normalize, if set, maps a corpus row to the row this route decodes
	// it to where the library differs from the lab by design (arrow-csv:
	// encoding/csv turns CRLF inside quoted fields into LF). Measure
	// verifies the route against the normalized rows; nil means the route
	// must give the corpus's own rows.
	Normalize func(r *workloads.Row)
	// New returns a decoder for schema s (the codec's schema of the
	// route's format) whose Arrow buffers come from mem.
	New func(s *workloads.Schema, mem memory.Allocator) (Decoder, error)
}

// Lab is the lib name of the lab's own decoder.
const Lab = "lab"

// The stock libs, by format.
const (
	LibEncodingJSON   = "encoding-json"   // encoding/json into a struct
	LibGoccy          = "goccy"           // goccy/go-json into a struct
	LibSonic          = "sonic"           // bytedance/sonic into a struct
	LibArrowUnmarshal = "arrow-unmarshal" // RecordBuilder.UnmarshalJSON per message
	LibArrowJSON      = "arrow-json"      // array.NewJSONReader over the batch as NDJSON
	LibArrowCSV       = "arrow-csv"       // arrow/csv.Reader over the batch as lines
	LibHamba          = "hamba"           // hamba/avro/v2 into a struct
	LibGoavro         = "goavro"          // linkedin/goavro/v2 to native maps
	LibArrowOCF       = "arrow-ocf"       // arrow/avro.OCFReader over the batch as one OCF block
	LibProtoGen       = "protobuf-gen"    // protoc-gen-go types (bid.pb.go), proto.Unmarshal
	LibDynamicPB      = "dynamicpb"       // dynamicpb.Message, proto.Unmarshal
	LibVTProto        = "vtprotobuf"      // vtprotobuf's generated UnmarshalVTUnsafe (bid_vtproto.pb.go)
)

// routes lists every route of every format; the lab's comes first.
var routes = []Route{
	{Format: workloads.FormatJSON, Lib: Lab, Library: "workloads (lab)", New: newLab(workloads.FormatJSON)},
	{Format: workloads.FormatJSON, Lib: LibEncodingJSON, Library: "encoding/json (Go standard library)", New: newStdJSON},
	{Format: workloads.FormatJSON, Lib: LibGoccy, Library: "github.com/goccy/go-json v0.10.6", New: newGoccy},
	{Format: workloads.FormatJSON, Lib: LibSonic, Library: sonicLibrary(), New: newSonic},
	{Format: workloads.FormatJSON, Lib: LibArrowUnmarshal, Library: "github.com/apache/arrow-go/v18 v18.8.0 array.RecordBuilder.UnmarshalJSON", New: newArrowUnmarshal},
	{Format: workloads.FormatJSON, Lib: LibArrowJSON, Library: "github.com/apache/arrow-go/v18 v18.8.0 array.NewJSONReader", Batch: true, New: newArrowJSON},

	{Format: workloads.FormatAvro, Lib: Lab, Library: "workloads (lab)", New: newLab(workloads.FormatAvro)},
	{Format: workloads.FormatAvro, Lib: LibHamba, Library: "github.com/hamba/avro/v2 v2.31.0", New: newHamba},
	{Format: workloads.FormatAvro, Lib: LibGoavro, Library: "github.com/linkedin/goavro/v2 v2.15.0", New: newGoavro},
	{Format: workloads.FormatAvro, Lib: LibArrowOCF, Library: "github.com/apache/arrow-go/v18 v18.8.0 arrow/avro.OCFReader (github.com/twmb/avro)", Batch: true, New: newArrowOCF},

	{Format: workloads.FormatProtobuf, Lib: Lab, Library: "workloads (lab)", New: newLab(workloads.FormatProtobuf)},
	{Format: workloads.FormatProtobuf, Lib: LibProtoGen, Library: "google.golang.org/protobuf v1.36.12 (protoc-gen-go types)", New: newProtoGen},
	{Format: workloads.FormatProtobuf, Lib: LibVTProto, Library: "github.com/planetscale/vtprotobuf v0.6.0 (UnmarshalVTUnsafe)", New: newVTProto},
	{Format: workloads.FormatProtobuf, Lib: LibDynamicPB, Library: "google.golang.org/protobuf v1.36.12 dynamicpb", New: newDynamicPB},

	{Format: workloads.FormatCSV, Lib: Lab, Library: "workloads (lab)", New: newLab(workloads.FormatCSV)},
	{Format: workloads.FormatCSV, Lib: LibArrowCSV, Library: "github.com/apache/arrow-go/v18 v18.8.0 arrow/csv.Reader (encoding/csv)", Batch: true, Normalize: crlfToLF, New: newArrowCSV},
}

// Formats lists the formats that have stock routes: every format but raw,
// whose messages are opaque bytes with nothing to decode.
func Formats() []workloads.Format {
	return []workloads.Format{workloads.FormatJSON, workloads.FormatAvro, workloads.FormatProtobuf, workloads.FormatCSV}
}

// Routes lists format f's routes, the lab's first; none for raw.
func Routes(f workloads.Format) []Route {
	var out []Route
	for _, r := range routes {
		if r.Format == f {
			out = append(out, r)
		}
	}
	return out
}

// Libs lists the lib names of format f's routes, "lab" first.
func Libs(f workloads.Format) []string {
	var out []string
	for _, r := range Routes(f) {
		out = append(out, r.Lib)
	}
	return out
}

// Lookup returns format f's route named lib.
func Lookup(f workloads.Format, lib string) (Route, error) {
	rs := Routes(f)
	if len(rs) == 0 {
		return Route{}, fmt.Errorf("format %q has no decode routes (want %s)", string(f), joinFormats(Formats()))
	}
	for _, r := range rs {
		if r.Lib == lib {
			return r, nil
		}
	}
	return Route{}, fmt.Errorf("unknown lib %q for format %s (want %s)", lib, f, strings.Join(Libs(f), ", "))
}

func joinFormats(fs []workloads.Format) string {
	s := make([]string, len(fs))
	for i, f := range fs {
		s[i] = string(f)
	}
	return strings.Join(s, ", ")
}

// parseError wraps a library's error so errors.Is(err, workloads.ErrParse)
// holds.
type parseError struct {
	lib string
	err error
}

func (e *parseError) Error() string {
	return workloads.ErrParse.Error() + ": " + e.lib + ": " + e.err.Error()
}

func (e *parseError) Unwrap() []error { return []error{workloads.ErrParse, e.err} }

func parseErr(lib string, err error) error { return &parseError{lib: lib, err: err} }

func parseErrf(lib, format string, args ...any) error {
	return &parseError{lib: lib, err: fmt.Errorf(format, args...)}
}

// recoverParse turns a library's panic on bad input into a parse error.
// Only the routes whose library is known to panic on some bad input defer
// it (docs/decoders.md lists them).
func recoverParse(lib string, err *error) {
	if p := recover(); p != nil {
		*err = parseErrf(lib, "library panicked: %v", p)
	}
}

// The schemas' columns in order, as the stock routes hard-code them.
var (
	bidColumns  = []string{"auction", "bidder", "price", "channel", "url", "date_time", "extra"}
	wideColumns = []string{"seller", "category", "reserve", "initial_bid", "item_name", "city", "state", "email"}
)

// checkSchema reports whether s is bid or bid-wide with the columns the
// struct routes hard-code, so a schema change fails loudly instead of
// filling the wrong columns.
func checkSchema(s *workloads.Schema) (wide bool, err error) {
	if s == nil || s.IsRaw() {
		return false, errors.New("a stock route needs a logical schema (bid or bid-wide)")
	}
	want := bidColumns
	if s.NumColumns() > len(bidColumns) {
		want = append(append([]string(nil), bidColumns...), wideColumns...)
		wide = true
	}
	fs := s.Arrow.Fields()
	if len(fs) != len(want) {
		return false, fmt.Errorf("schema %s has %d columns, the stock routes know %d", s.Name, len(fs), len(want))
	}
	for i, f := range fs {
		if f.Name != want[i] {
			return false, fmt.Errorf("schema %s column %d is %q, the stock routes expect %q", s.Name, i, f.Name, want[i])
		}
	}
	return wide, nil
}

// builders are a schema's typed Arrow builders by column index.
type builders struct {
	rb   *array.RecordBuilder
	ints []*array.Int64Builder
	ts   []*array.TimestampBuilder
	strs []*array.StringBuilder
}

func newBuilders(s *workloads.Schema, mem memory.Allocator) builders {
	b := builders{rb: array.NewRecordBuilder(mem, s.Arrow)}
	n := s.NumColumns()
	b.ints = make([]*array.Int64Builder, n)
	b.ts = make([]*array.TimestampBuilder, n)
	b.strs = make([]*array.StringBuilder, n)
	for i := range n {
		switch f := b.rb.Field(i).(type) {
		case *array.Int64Builder:
			b.ints[i] = f
		case *array.TimestampBuilder:
			b.ts[i] = f
		case *array.StringBuilder:
			b.strs[i] = f
		}
	}
	return b
}

func (b *builders) batch() (arrow.RecordBatch, error) { return b.rb.NewRecordBatch(), nil }

// truncate cuts every column back to its first n values (nulls kept). It
// rebuilds the columns that are longer, so it is only for the rare path
// where a library panicked halfway through a row.
func (b *builders) truncate(n int) {
	for i, fb := range b.rb.Fields() {
		if fb.Len() <= n {
			continue
		}
		arr := fb.NewArray() // resets fb
		for j := range n {
			if arr.IsNull(j) {
				fb.AppendNull()
				continue
			}
			switch a := arr.(type) {
			case *array.Int64:
				b.ints[i].Append(a.Value(j))
			case *array.Timestamp:
				b.ts[i].Append(a.Value(j))
			case *array.String:
				b.strs[i].Append(a.Value(j))
			}
		}
		arr.Release()
	}
}

func (b *builders) Release() { b.rb.Release() }

// AppendNull appends a tombstone's all-null row (workloads.Columnar's).
func (b *builders) AppendNull() {
	for _, fb := range b.rb.Fields() {
		fb.AppendNull()
	}
}

// row is a decoded record as Go values, the target of the struct routes
// (encoding/json, goccy, hamba): the bid columns, then the wide ones.
type row struct {
	bidFields
	wideFields
}

type bidFields struct {
	Auction  int64  `json:"auction" avro:"auction"`
	Bidder   int64  `json:"bidder" avro:"bidder"`
	Price    int64  `json:"price" avro:"price"`
	Channel  string `json:"channel" avro:"channel"`
	URL      string `json:"url" avro:"url"`
	DateTime int64  `json:"date_time" avro:"date_time"`
	Extra    string `json:"extra" avro:"extra"`
}

type wideFields struct {
	Seller     int64  `json:"seller" avro:"seller"`
	Category   int64  `json:"category" avro:"category"`
	Reserve    int64  `json:"reserve" avro:"reserve"`
	InitialBid int64  `json:"initial_bid" avro:"initial_bid"`
	ItemName   string `json:"item_name" avro:"item_name"`
	City       string `json:"city" avro:"city"`
	State      string `json:"state" avro:"state"`
	Email      string `json:"email" avro:"email"`
}

// appendRow appends r's columns (the wide ones too if wide).
func (b *builders) appendRow(r *row, wide bool) {
	b.appendBid(&r.bidFields)
	if wide {
		b.appendWide(&r.wideFields)
	}
}

func (b *builders) appendBid(r *bidFields) {
	b.ints[0].Append(r.Auction)
	b.ints[1].Append(r.Bidder)
	b.ints[2].Append(r.Price)
	b.strs[3].Append(r.Channel)
	b.strs[4].Append(r.URL)
	b.ts[5].Append(arrow.Timestamp(r.DateTime))
	b.strs[6].Append(r.Extra)
}

func (b *builders) appendWide(r *wideFields) {
	b.ints[7].Append(r.Seller)
	b.ints[8].Append(r.Category)
	b.ints[9].Append(r.Reserve)
	b.ints[10].Append(r.InitialBid)
	b.strs[11].Append(r.ItemName)
	b.strs[12].Append(r.City)
	b.strs[13].Append(r.State)
	b.strs[14].Append(r.Email)
}

// retype returns rec with the schema s (same columns, same order) and
// releases rec: the arrow-go readers name nullability and metadata their
// own way, the lab's schema marks every column nullable.
func retype(s *arrow.Schema, rec arrow.RecordBatch) (arrow.RecordBatch, error) {
	defer rec.Release()
	if int(rec.NumCols()) != s.NumFields() {
		return nil, fmt.Errorf("batch has %d columns, schema %d", rec.NumCols(), s.NumFields())
	}
	for i, f := range s.Fields() {
		if !arrow.TypeEqual(f.Type, rec.Column(i).DataType()) {
			return nil, fmt.Errorf("column %s is %s, want %s", f.Name, rec.Column(i).DataType(), f.Type)
		}
	}
	return array.NewRecordBatch(s, rec.Columns(), rec.NumRows()), nil
}

// lab is the lab's own columnar decoder as a route.
type lab struct{ col workloads.Columnar }

func newLab(f workloads.Format) func(s *workloads.Schema, mem memory.Allocator) (Decoder, error) {
	return func(s *workloads.Schema, mem memory.Allocator) (Decoder, error) {
		c, err := workloads.NewCodec(f, s)
		if err != nil {
			return nil, err
		}
		return &lab{col: c.NewColumnar(mem)}, nil
	}
}

func (d *lab) Append(msg []byte) error                    { return d.col.Append(msg) }
func (d *lab) NewRecordBatch() (arrow.RecordBatch, error) { return d.col.NewRecordBatch(), nil }
func (d *lab) Release()                                   { d.col.Release() }
