package workloads

import (
	"encoding/json"
	"errors"
	"strconv"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
)

// Fuzz targets, one per decoder. Each checks that a message never panics,
// that a failure wraps ErrParse and leaves every column at the same length,
// that the columnar decoder and DecodeRow agree on success and on the
// values (by hash), and that re-encoding a decoded row decodes to the same
// row. Seeds are corpus messages of both schemas.

func FuzzJSON(f *testing.F)     { fuzzDecoder(f, FormatJSON) }
func FuzzAvro(f *testing.F)     { fuzzDecoder(f, FormatAvro) }
func FuzzProtobuf(f *testing.F) { fuzzDecoder(f, FormatProtobuf) }
func FuzzCSV(f *testing.F)      { fuzzDecoder(f, FormatCSV) }
func FuzzRaw(f *testing.F)      { fuzzDecoder(f, FormatRaw) }

func fuzzDecoder(f *testing.F, format Format) {
	for _, name := range SchemaNames() {
		c := mustCodec(f, format, name)
		cp := NewCorpus(c.Schema(), c, 1, 40)
		for i := 0; i < cp.Count(); i++ {
			f.Add(cp.Message(nil, i))
		}
	}
	for _, m := range badInputs()[format] {
		f.Add([]byte(m))
	}
	for _, v := range variants() {
		if v.f == format {
			f.Add([]byte(v.msg))
		}
	}
	c := mustCodec(f, format, "bid")
	s := c.Schema()
	cp := NewCorpus(s, c, 2, 2)
	good0, good1 := cp.Message(nil, 0), cp.Message(nil, 1)

	f.Fuzz(func(t *testing.T, msg []byte) {
		col := c.NewColumnar(memory.DefaultAllocator)
		defer col.Release()
		if err := col.Append(good0); err != nil {
			t.Fatal(err)
		}
		err := col.Append(msg)
		var r Row
		rowErr := c.DecodeRow(msg, &r)
		if (err == nil) != (rowErr == nil) {
			t.Fatalf("Append error %v but DecodeRow error %v", err, rowErr)
		}
		want := 2
		if err != nil {
			want = 1
			if !errors.Is(err, ErrParse) || !errors.Is(rowErr, ErrParse) {
				t.Fatalf("errors %v / %v do not wrap ErrParse", err, rowErr)
			}
		}
		for i, n := range builderLens(col) {
			if n != want {
				t.Fatalf("column %d has %d rows after Append error %v, want %d", i, n, err, want)
			}
		}
		if err := col.Append(good1); err != nil {
			t.Fatal(err)
		}
		rec := col.NewRecordBatch()
		defer rec.Release()
		if int(rec.NumRows()) != want+1 || col.Len() != 0 {
			t.Fatalf("batch has %d rows, Len %d; want %d, 0", rec.NumRows(), col.Len(), want+1)
		}
		extra := BatchChecksum(rec) - cp.Checksum(0, 2)
		if err != nil {
			if extra != 0 {
				t.Fatal("good rows around a failed message hash differently")
			}
			return
		}
		if h := HashRow(s, &r); h != extra || RowHash(rec, 1) != h {
			t.Fatalf("DecodeRow hash %x, batch row hash %x", h, RowHash(rec, 1))
		}
		// Re-encoding the row decodes to the same row.
		var again Row
		if err := c.DecodeRow(c.Encode(nil, &r), &again); err != nil || HashRow(s, &again) != HashRow(s, &r) {
			t.Fatalf("re-encoded row does not decode to itself: %v\n%+v\n%+v", err, r, again)
		}
		if format == FormatJSON {
			checkAgainstEncodingJSON(t, s, msg, &r)
		}
	})
}

// checkAgainstEncodingJSON: what our JSON decoder accepts, encoding/json
// accepts too, with the same values.
func checkAgainstEncodingJSON(t *testing.T, s *Schema, msg []byte, r *Row) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(msg, &m); err != nil {
		t.Fatalf("accepted a message encoding/json rejects: %v", err)
	}
	for _, c := range s.cols {
		raw := m[c.name]
		switch c.kind {
		case kindString:
			var v string
			if err := json.Unmarshal(raw, &v); err != nil || v != *r.strField(c.field) {
				t.Fatalf("%s: encoding/json reads %q (%v), we read %q", c.name, v, err, *r.strField(c.field))
			}
		default:
			v, err := strconv.ParseInt(string(raw), 10, 64)
			if err != nil || v != *r.intField(c.field) {
				t.Fatalf("%s: encoding/json reads %s, we read %d", c.name, raw, *r.intField(c.field))
			}
		}
	}
}
