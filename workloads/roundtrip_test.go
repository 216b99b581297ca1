package workloads

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

const roundTripRows = 2000

// TestRoundTrip encodes a corpus in every schema x format and checks that
// the columnar decoder, DecodeRow, the RowBuilder and every hash agree with
// the generated rows.
func TestRoundTrip(t *testing.T) {
	for _, cb := range combos(t) {
		t.Run(cb.name(), func(t *testing.T) {
			s := cb.codec.Schema()
			cp := NewCorpus(cb.schema, cb.codec, 7, roundTripRows)
			msgs := make([][]byte, cp.Count())
			for i := range msgs {
				msgs[i] = cp.Message(nil, i)
			}
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)

			rec := decodeAll(t, cb.codec, mem, msgs)
			defer rec.Release()
			if !rec.Schema().Equal(s.Arrow) {
				t.Fatalf("batch schema %v, want %v", rec.Schema(), s.Arrow)
			}
			for k, col := range rec.Columns() {
				if err := array.ValidateFull(col); err != nil {
					t.Fatalf("column %d: %v", k, err)
				}
			}

			rb := NewRowBuilder(s, mem)
			defer rb.Release()
			var sum uint64
			for i, m := range msgs {
				var want Row
				cp.Row(i, &want)
				if got := cb.codec.Encode(nil, &want); !bytes.Equal(got, m) {
					t.Fatalf("row %d: Encode(Row(i)) = %q, Message(i) = %q", i, got, m)
				}
				if got := rowFromRecord(t, s, rec, i); !rowsEqual(logical(s, got), logical(s, want)) {
					t.Fatalf("row %d columnar:\n got %+v\nwant %+v", i, got, want)
				}
				var dec Row
				if err := cb.codec.DecodeRow(m, &dec); err != nil {
					t.Fatalf("row %d DecodeRow: %v", i, err)
				}
				if !rowsEqual(logical(s, dec), logical(s, want)) {
					t.Fatalf("row %d DecodeRow:\n got %+v\nwant %+v", i, dec, want)
				}
				h := cp.Hash(i)
				if rh := RowHash(rec, i); rh != h {
					t.Fatalf("row %d: RowHash %x, Corpus.Hash %x", i, rh, h)
				}
				if hr := HashRow(s, &dec); hr != h {
					t.Fatalf("row %d: HashRow(decoded) %x, Corpus.Hash %x", i, hr, h)
				}
				rb.Add(&dec)
				sum += h
			}
			if got := BatchChecksum(rec); got != sum {
				t.Errorf("BatchChecksum = %x, sum of Corpus.Hash = %x", got, sum)
			}
			if got := cp.Checksum(0, cp.Count()); got != sum {
				t.Errorf("Corpus.Checksum = %x, sum of Corpus.Hash = %x", got, sum)
			}
			if rb.Len() != len(msgs) {
				t.Fatalf("RowBuilder.Len = %d", rb.Len())
			}
			rowRec := rb.NewRecordBatch()
			defer rowRec.Release()
			if !array.RecordEqual(rowRec, rec) {
				t.Error("RowBuilder batch differs from the columnar batch")
			}
			if rb.Len() != 0 {
				t.Errorf("RowBuilder.Len after NewRecordBatch = %d", rb.Len())
			}
		})
	}
}

// rowsEqual compares rows, taking a nil and an empty payload as equal.
func rowsEqual(a, b Row) bool {
	if !bytes.Equal(a.Payload, b.Payload) {
		return false
	}
	a.Payload, b.Payload = nil, nil
	return reflect.DeepEqual(a, b)
}

// TestCorpusHasOddities checks the corpus exercises escaping and quoting:
// some extra values hold quotes, commas, line breaks and non-ASCII text.
func TestCorpusHasOddities(t *testing.T) {
	c := mustCodec(t, FormatJSON, "bid")
	cp := NewCorpus(c.Schema(), c, 7, roundTripRows)
	found := map[string]bool{}
	var r Row
	for i := 0; i < cp.Count(); i++ {
		cp.Row(i, &r)
		for _, odd := range []string{`"`, ",", "\n", "é"} {
			if strings.Contains(r.Extra, odd) {
				found[odd] = true
			}
		}
	}
	if len(found) != 4 {
		t.Errorf("corpus extra values contain only %v of quote, comma, newline, é", found)
	}
}

// TestJSONAgreesWithEncodingJSON decodes every corpus message with
// encoding/json as an independent reference.
func TestJSONAgreesWithEncodingJSON(t *testing.T) {
	for _, name := range SchemaNames() {
		c := mustCodec(t, FormatJSON, name)
		cp := NewCorpus(c.Schema(), c, 3, 500)
		for i := 0; i < cp.Count(); i++ {
			var want, got Row
			cp.Row(i, &want)
			if err := json.Unmarshal(cp.Message(nil, i), (*jsonRow)(&got)); err != nil {
				t.Fatalf("encoding/json rejects message %d: %v", i, err)
			}
			if !rowsEqual(got, want) {
				t.Fatalf("message %d: encoding/json reads %+v, want %+v", i, got, want)
			}
		}
	}
}

// jsonRow is Row with the schema's JSON keys, for encoding/json.
type jsonRow struct {
	Auction    int64  `json:"auction"`
	Bidder     int64  `json:"bidder"`
	Price      int64  `json:"price"`
	Channel    string `json:"channel"`
	URL        string `json:"url"`
	DateTime   int64  `json:"date_time"`
	Extra      string `json:"extra"`
	Seller     int64  `json:"seller"`
	Category   int64  `json:"category"`
	Reserve    int64  `json:"reserve"`
	InitialBid int64  `json:"initial_bid"`
	ItemName   string `json:"item_name"`
	City       string `json:"city"`
	State      string `json:"state"`
	Email      string `json:"email"`
	Payload    []byte `json:"-"`
}

// TestCSVAgreesWithEncodingCSV reads every corpus line with encoding/csv.
func TestCSVAgreesWithEncodingCSV(t *testing.T) {
	c := mustCodec(t, FormatCSV, "bid")
	cp := NewCorpus(c.Schema(), c, 3, 500)
	for i := 0; i < cp.Count(); i++ {
		var want Row
		cp.Row(i, &want)
		rd := csv.NewReader(bytes.NewReader(cp.Message(nil, i)))
		rec, err := rd.Read()
		if err != nil {
			t.Fatalf("encoding/csv rejects line %d: %v", i, err)
		}
		if len(rec) != 7 || rec[3] != want.Channel || rec[4] != want.URL || rec[6] != strings.ReplaceAll(want.Extra, "\r\n", "\n") {
			t.Fatalf("line %d: encoding/csv reads %q, want %+v", i, rec, want)
		}
	}
}

// variant is a valid "bid" message the encoder would not write.
type variant struct {
	f   Format
	msg string
}

// variants all decode to the same row (see TestDecodeAcceptsVariants); they
// are fuzz seeds too.
func variants() []variant {
	return []variant{
		{FormatJSON, ` { "extra" : "", "url":"u\/\u00e9\ud83d\ude00", "date_time":1436918400000,"channel":"a\"b",` +
			`"x":[1,{"y":null},-0.5e+3,true,false,"\n"],"price":3,"bidder":-2,"auction":1} `},
		{FormatJSON, `{"auction":9,"bidder":-2,"price":3,"channel":"a\u0022b","url":"u/é😀","date_time":1436918400000,"extra":"","auction":1}`},
		{FormatJSON, "{\"auc\\u0074ion\":1,\"bidder\":-2,\"Price\":7,\"price\":3,\"channel\":\"a\\\"b\",\"url\":\"u/é😀\",\"date_time\":1436918400000,\"extra\":\"\"}\n"},
		{FormatCSV, "1,-2,3,\"a\"\"b\",\"u/é😀\",1436918400000,\r\n"},
		{FormatCSV, "\"1\",-2,3,\"a\"\"b\",u/é😀,1436918400000,\"\"\n"},
	}
}

// TestDecodeAcceptsVariants feeds each decoder valid messages that the
// encoder would not write: other key/field orders, whitespace, escapes,
// unknown fields, quoting.
func TestDecodeAcceptsVariants(t *testing.T) {
	want := Row{Auction: 1, Bidder: -2, Price: 3, Channel: "a\"b", URL: "u/é😀", DateTime: 1436918400000, Extra: ""}
	for _, tc := range variants() {
		c := mustCodec(t, tc.f, "bid")
		var got Row
		if err := c.DecodeRow([]byte(tc.msg), &got); err != nil {
			t.Errorf("%s %q: %v", tc.f, tc.msg, err)
			continue
		}
		if !rowsEqual(got, want) {
			t.Errorf("%s %q:\n got %+v\nwant %+v", tc.f, tc.msg, got, want)
		}
	}

	// Protobuf: fields reversed, an unknown field of each wire type, a
	// repeated field (last wins), an absent field (zero).
	c := mustCodec(t, FormatProtobuf, "bid")
	enc := c.Encode(nil, &want)
	var msg []byte
	msg = appendUvarint(msg, 99<<3|wireVarint)
	msg = appendUvarint(msg, 12345)
	msg = appendUvarint(msg, 100<<3|wireFixed64)
	msg = append(msg, 1, 2, 3, 4, 5, 6, 7, 8)
	msg = appendUvarint(msg, 101<<3|wireBytes)
	msg = append(msg, 2, 'h', 'i')
	msg = appendUvarint(msg, 102<<3|wireFixed32)
	msg = append(msg, 1, 2, 3, 4)
	msg = appendUvarint(msg, 1<<3|wireVarint) // auction = 77, overridden later
	msg = appendUvarint(msg, 77)
	msg = append(msg, enc...)
	var got Row
	if err := c.DecodeRow(msg, &got); err != nil || !rowsEqual(got, want) {
		t.Errorf("protobuf with unknown fields: %v\n got %+v\nwant %+v", err, got, want)
	}
	if err := c.DecodeRow(nil, &got); err != nil || !rowsEqual(got, Row{}) {
		t.Errorf("empty protobuf message: %v, %+v; want the zero row", err, got)
	}
}

func TestRawBulkMatchesAppend(t *testing.T) {
	codec := mustCodec(t, FormatRaw, "bid")
	c := NewCorpus(codec.Schema(), codec, 5, 300)
	var buf []byte
	var ends []uint32
	buf = append(buf, "junk-before"...)
	start := uint32(len(buf))
	for i := 0; i < c.Count(); i++ {
		buf = c.Message(buf, i)
		ends = append(ends, uint32(len(buf)))
	}
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	bulk := codec.NewColumnar(mem)
	defer bulk.Release()
	one := codec.NewColumnar(mem)
	defer one.Release()
	b, ok := bulk.(Bulk)
	if !ok {
		t.Fatal("raw columnar does not implement Bulk")
	}
	// two calls, to cross a call boundary
	if n, err := b.AppendBulk(buf, start, ends[:100]); n != 100 || err != nil {
		t.Fatalf("AppendBulk = %d, %v", n, err)
	}
	if n, err := b.AppendBulk(buf, ends[99], ends[100:]); n != 200 || err != nil {
		t.Fatalf("AppendBulk = %d, %v", n, err)
	}
	prev := start
	for _, e := range ends {
		if err := one.Append(buf[prev:e]); err != nil {
			t.Fatal(err)
		}
		prev = e
	}
	if bulk.Len() != one.Len() {
		t.Fatalf("len %d vs %d", bulk.Len(), one.Len())
	}
	rb, ro := bulk.NewRecordBatch(), one.NewRecordBatch()
	defer rb.Release()
	defer ro.Release()
	if BatchChecksum(rb) != BatchChecksum(ro) || BatchChecksum(rb) != c.Checksum(0, c.Count()) {
		t.Errorf("bulk checksum %x, per-message %x, corpus %x", BatchChecksum(rb), BatchChecksum(ro), c.Checksum(0, c.Count()))
	}
}
