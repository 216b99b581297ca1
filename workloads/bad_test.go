package workloads

import (
	"errors"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
)

// appendBad appends msg, which must fail with ErrParse and append nothing.
func appendBad(t *testing.T, col Columnar, c Codec, msg []byte) {
	t.Helper()
	before := col.Len()
	err := col.Append(msg)
	if err == nil {
		t.Errorf("%s: Append(%q) succeeded", c.Format(), msg)
		return
	}
	if !errors.Is(err, ErrParse) || !strings.HasPrefix(err.Error(), ErrParse.Error()+": ") || strings.Contains(err.Error(), "\n") {
		t.Errorf("%s: Append(%q) error %q is not a one-line ErrParse", c.Format(), msg, err)
	}
	if col.Len() != before {
		t.Errorf("%s: failed Append(%q) changed Len from %d to %d", c.Format(), msg, before, col.Len())
	}
	for i, n := range builderLens(col) {
		if n != before {
			t.Errorf("%s: failed Append(%q) left column %d with %d rows, want %d", c.Format(), msg, i, n, before)
		}
	}
	var r Row
	if err := c.DecodeRow(msg, &r); !errors.Is(err, ErrParse) {
		t.Errorf("%s: DecodeRow(%q) = %v, want ErrParse", c.Format(), msg, err)
	}
}

// badInputs are malformed "bid" messages per format (also fuzz seeds).
func badInputs() map[Format][]string {
	return map[Format][]string{
		FormatJSON: {
			``, ` `, `[]`, `null`, `"x"`, `{`, `{}`, `{"auction":1}`, `nonsense`, "\xff\xfe",
			`{"auction":1,"bidder":2,"price":3,"channel":"c","url":"u","date_time":4,"extra":"e"}x`,
			`{"auction":1,"bidder":2,"price":3,"channel":"c","url":"u","date_time":4,"extra":"e",}`,
			`{"auction":1,"bidder":2,"price":3,"channel":"c","url":"u","date_time":4,"extra":"e"`,
			`{"auction":1 "bidder":2,"price":3,"channel":"c","url":"u","date_time":4,"extra":"e"}`,
			`{"auction":"1","bidder":2,"price":3,"channel":"c","url":"u","date_time":4,"extra":"e"}`,
			`{"auction":1.5,"bidder":2,"price":3,"channel":"c","url":"u","date_time":4,"extra":"e"}`,
			`{"auction":1e3,"bidder":2,"price":3,"channel":"c","url":"u","date_time":4,"extra":"e"}`,
			`{"auction":01,"bidder":2,"price":3,"channel":"c","url":"u","date_time":4,"extra":"e"}`,
			`{"auction":null,"bidder":2,"price":3,"channel":"c","url":"u","date_time":4,"extra":"e"}`,
			`{"auction":9223372036854775808,"bidder":2,"price":3,"channel":"c","url":"u","date_time":4,"extra":"e"}`,
			`{"auction":1,"bidder":2,"price":3,"channel":7,"url":"u","date_time":4,"extra":"e"}`,
			`{"auction":1,"bidder":2,"price":3,"channel":null,"url":"u","date_time":4,"extra":"e"}`,
			`{"auction":1,"bidder":2,"price":3,"channel":"c","url":"u","date_time":"2015-07-15","extra":"e"}`,
			`{"auction":1,"bidder":2,"price":3,"channel":"c\x","url":"u","date_time":4,"extra":"e"}`,
			`{"auction":1,"bidder":2,"price":3,"channel":"c\u12","url":"u","date_time":4,"extra":"e"}`,
			"{\"auction\":1,\"bidder\":2,\"price\":3,\"channel\":\"c\nd\",\"url\":\"u\",\"date_time\":4,\"extra\":\"e\"}",
			"{\"auction\":1,\"bidder\":2,\"price\":3,\"channel\":\"\xff\",\"url\":\"u\",\"date_time\":4,\"extra\":\"e\"}",
			"{\"auction\":1,\"bidder\":2,\"price\":3,\"channel\":\"\xbf\\b\",\"url\":\"u\",\"date_time\":4,\"extra\":\"e\"}",
			`{"auction":1,"bidder":2,"price":3,"channel":"c","url":"u","date_time":4,"extra":"e","x":[1,}`,
			`{"auction":1,"bidder":2,"price":3,"channel":"c","url":"u","date_time":4,"extra":"e","x":tru}`,
			`{"auction":1,"bidder":2,"price":3,"channel":"c","url":"u","date_time":4,"extra":"e","x":-}`,
			`{"auction":1,"bidder":2,"price":3,"channel":"c","url":"u","date_time":4,"extra":"e","x":` +
				strings.Repeat("[", 100) + strings.Repeat("]", 100) + `}`,
		},
		FormatAvro: {
			"", "\x02", "\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01",
			"\x02\x04\x06\x01c\x02u\x08\x02e",     // negative string length
			"\x02\x04\x06\x02c\x02u\x08\x40e",     // string longer than the message
			"\x02\x04\x06\x02c\x02u\x08\x02e\x00", // trailing byte
			"\x02\x04\x06\x02\xff\x02u\x08\x02e",  // invalid UTF-8
		},
		FormatProtobuf: {
			"\x08", "\x08\xff", "\x00\x01", // truncated varint, field 0
			"\x08\xff\xff\xff\xff\xff\xff\xff\xff\xff\x7f", // varint overflow
			"\x0a\x01x",        // field 1 (int64) with wire type 2
			"\x20\x05",         // field 4 (string) with wire type 0
			"\x22\x05abc",      // string longer than the message
			"\x22\x01\xff",     // invalid UTF-8
			"\x23\x24",         // group wire types
			"\xf8\x01\x80",     // unknown varint field, truncated
			"\xf9\x01\x01\x02", // unknown fixed64 field, truncated
			"\xfd\x01\x01",     // unknown fixed32 field, truncated
			"\xfa\x01\x09ab",   // unknown bytes field, truncated
		},
		FormatCSV: {
			"", "1,2,3,c,u,4", "1,2,3,c,u,4,e,x", "x,2,3,c,u,4,e", "1.5,2,3,c,u,4,e",
			"1,2,3,c\"d,u,4,e", "1,2,3,\"c,u,4,e", "1,2,3,\"c\"d,u,4,e", "1,2,3,c\rd,u,4,e",
			"1,2,3,c,u,4,e\n\n", "1,2,3,c,u,99999999999999999999,e", "1,2,3,\xff,u,4,e",
		},
	}
}

func TestBadInput(t *testing.T) {
	for f, msgs := range badInputs() {
		c := mustCodec(t, f, "bid")
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		col := c.NewColumnar(mem)
		cp := NewCorpus(c.Schema(), c, 1, len(msgs)+1)
		for i, m := range msgs {
			appendBad(t, col, c, []byte(m))
			if err := col.Append(cp.Message(nil, i)); err != nil { // good rows keep flowing
				t.Fatalf("%s: good message after a bad one: %v", f, err)
			}
		}
		rec := col.NewRecordBatch()
		if got, want := BatchChecksum(rec), cp.Checksum(0, len(msgs)); got != want {
			t.Errorf("%s: batch after bad input has checksum %x, want %x", f, got, want)
		}
		rec.Release()
		col.Release()
		mem.AssertSize(t, 0)
	}
}

// TestTruncated: every strict prefix of a json or avro message fails (all
// columns are required and the encodings are self-delimiting); for protobuf
// and csv a prefix may be a valid shorter record, so only cuts inside a
// value are checked there.
func TestTruncated(t *testing.T) {
	for _, f := range []Format{FormatJSON, FormatAvro} {
		for _, name := range SchemaNames() {
			c := mustCodec(t, f, name)
			cp := NewCorpus(c.Schema(), c, 11, 20)
			col := c.NewColumnar(memory.NewGoAllocator())
			for i := 0; i < cp.Count(); i++ {
				m := cp.Message(nil, i)
				for n := 0; n < len(m); n++ {
					appendBad(t, col, c, m[:n])
				}
			}
			col.Release()
		}
	}
	p := mustCodec(t, FormatProtobuf, "bid")
	msg := p.Encode(nil, &Row{Auction: 1 << 40, Channel: "Google"})
	col := p.NewColumnar(memory.NewGoAllocator())
	defer col.Release()
	for _, n := range []int{1, 3, 5, 8, 9, 10, 11} { // inside the varint or the string
		appendBad(t, col, p, msg[:n])
	}
	cc := mustCodec(t, FormatCSV, "bid")
	ccol := cc.NewColumnar(memory.NewGoAllocator())
	defer ccol.Release()
	line := cc.Encode(nil, &Row{Channel: "a,b", URL: "u", Extra: "e"})
	for n := 0; n < strings.LastIndexByte(string(line), ','); n++ {
		appendBad(t, ccol, cc, line[:n])
	}
}

func TestRawAcceptsAnything(t *testing.T) {
	c := mustCodec(t, FormatRaw, "bid")
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	col := c.NewColumnar(mem)
	defer col.Release()
	msgs := []string{"", "\x00\xff", "not json"}
	var sum uint64
	for _, m := range msgs {
		if err := col.Append([]byte(m)); err != nil {
			t.Fatalf("raw Append(%q): %v", m, err)
		}
		var r Row
		if err := c.DecodeRow([]byte(m), &r); err != nil || string(r.Payload) != m {
			t.Fatalf("raw DecodeRow(%q) = %q, %v", m, r.Payload, err)
		}
		sum += HashRow(c.Schema(), &r)
	}
	rec := col.NewRecordBatch()
	defer rec.Release()
	if BatchChecksum(rec) != sum {
		t.Error("raw batch checksum differs from HashRow of the payloads")
	}
	// DecodeRow copies: changing the message does not change the row.
	msg := []byte("abc")
	var r Row
	_ = c.DecodeRow(msg, &r)
	msg[0] = 'x'
	if string(r.Payload) != "abc" {
		t.Error("raw DecodeRow aliases the message")
	}
}
