package stock

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fastpathlab/fplab/workloads"
)

// Differential fuzz targets, one per format with stock routes (raw has
// none: its message is the value, there is nothing to decode). Each feeds
// the same bytes, as a record of schema bid or bid-wide, to the lab's
// decoder and to every stock route of the format, and requires:
//
//   - no route panics (arrow-csv's known panic is recovered into an error,
//     csv.go), and every failure wraps workloads.ErrParse;
//   - a route that accepts gives exactly one row;
//   - where the lab and a stock route both accept, the same Arrow values
//     (row hash), unless the message has a feature with which that
//     library differs from the lab by design (valueClass);
//   - the lab accepts nothing that every stock route rejects.
//
// Where only one side accepts, the libraries' rules differ; those classes
// are counted and listed by TestDisagreements (docs/decoders.md documents them).
// Seeds: corpus records of both schemas and corrupted variants of them
// (seeds below), plus testdata/fuzz/<target>.

func FuzzJSON(f *testing.F)     { fuzzFormat(f, workloads.FormatJSON) }
func FuzzAvro(f *testing.F)     { fuzzFormat(f, workloads.FormatAvro) }
func FuzzProtobuf(f *testing.F) { fuzzFormat(f, workloads.FormatProtobuf) }
func FuzzCSV(f *testing.F)      { fuzzFormat(f, workloads.FormatCSV) }

func fuzzFormat(f *testing.F, format workloads.Format) {
	for _, sd := range seeds(f, format) {
		f.Add(sd.wide, sd.msg)
	}
	dfs := [2]*differ{newDiffer(f, format, "bid"), newDiffer(f, format, "bid-wide")}
	f.Fuzz(func(t *testing.T, wide bool, msg []byte) {
		d := dfs[0]
		if wide {
			d = dfs[1]
		}
		d.check(t, msg)
	})
}

// differ holds one decoder per route of a format for one schema; the
// decoders are reused across inputs, so a failed message must leave each
// usable.
type differ struct {
	format workloads.Format
	schema *workloads.Schema
	routes []Route
	decs   []Decoder
}

func newDiffer(t testing.TB, format workloads.Format, schema string) *differ {
	s, err := workloads.SchemaByName(schema)
	if err != nil {
		t.Fatal(err)
	}
	d := &differ{format: format, schema: s, routes: Routes(format)}
	for _, r := range d.routes {
		dec, err := r.New(s, memory.NewGoAllocator())
		if err != nil {
			t.Fatal(err)
		}
		d.decs = append(d.decs, dec)
	}
	return d
}

// outcome is one route's verdict on a message: its row hash, or an error.
type outcome struct {
	hash uint64
	err  error
}

// decode runs msg through route i.
func (d *differ) decode(t *testing.T, i int, msg []byte) outcome {
	dec, lib := d.decs[i], d.routes[i].Lib
	err := dec.Append(msg)
	if err != nil {
		if !errors.Is(err, workloads.ErrParse) {
			t.Fatalf("%s: error does not wrap ErrParse: %v", lib, err)
		}
		// The builders must be unchanged: the next batch has no row.
		rec, berr := dec.NewRecordBatch()
		if berr != nil || rec.NumRows() != 0 {
			t.Fatalf("%s: failed message left a row (batch err %v)", lib, berr)
		}
		rec.Release()
		return outcome{err: err}
	}
	rec, err := dec.NewRecordBatch()
	if err != nil {
		if !errors.Is(err, workloads.ErrParse) {
			t.Fatalf("%s: batch error does not wrap ErrParse: %v", lib, err)
		}
		return outcome{err: err}
	}
	defer rec.Release()
	if rec.NumRows() != 1 {
		t.Fatalf("%s: accepted one message as %d rows", lib, rec.NumRows())
	}
	return outcome{hash: workloads.RowHash(rec, 0)}
}

// check runs msg through every route and applies the rules above.
func (d *differ) check(t *testing.T, msg []byte) []outcome {
	outs := make([]outcome, len(d.routes))
	for i := range d.routes {
		outs[i] = d.decode(t, i, msg)
	}
	lab := outs[0]
	if lab.err != nil {
		return outs
	}
	anyStock := false
	for i, o := range outs[1:] {
		r := d.routes[i+1]
		if o.err != nil {
			continue
		}
		anyStock = true
		if o.hash != lab.hash {
			if c := valueClass(d.format, r.Lib, d.schema, msg); c != "" {
				continue
			}
			t.Fatalf("%s and the lab both accept %q but decode different values", r.Lib, msg)
		}
	}
	if !anyStock {
		var errs []string
		for i, o := range outs[1:] {
			errs = append(errs, fmt.Sprintf("%s: %v", d.routes[i+1].Lib, o.err))
		}
		t.Fatalf("the lab accepts %q, which every stock route rejects:\n%s", msg, strings.Join(errs, "\n"))
	}
	return outs
}

// valueClass names the feature of msg with which lib decodes values other
// than the lab's by design, or "" if it has none.
func valueClass(f workloads.Format, lib string, s *workloads.Schema, msg []byte) string {
	switch {
	case f == workloads.FormatJSON && (lib == LibEncodingJSON || lib == LibGoccy || lib == LibSonic):
		// All three match keys to struct fields case-insensitively (Unicode
		// simple folding, so "ſtate" is state), the lab exactly.
		for _, k := range jsonKeys(msg) {
			for _, c := range s.Arrow.Fields() {
				if k != c.Name && strings.EqualFold(k, c.Name) {
					return "case-folded key"
				}
			}
		}
	case f == workloads.FormatCSV && lib == LibArrowCSV:
		// encoding/csv reads CRLF in a quoted field as LF.
		if bytes.Contains(bytes.TrimSuffix(msg, []byte("\n")), []byte("\r\n")) {
			return "CRLF in a quoted field"
		}
	}
	return ""
}

// jsonKeys lists msg's top-level keys as encoding/json reads them.
func jsonKeys(msg []byte) []string {
	dec := json.NewDecoder(bytes.NewReader(msg))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil
	}
	var keys []string
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			return keys
		}
		s, _ := k.(string)
		keys = append(keys, s)
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return keys
		}
	}
	return keys
}

// seed is one fuzz seed.
type seed struct {
	wide bool
	msg  []byte
}

// seeds are corpus records of both schemas and corrupted variants: cut
// short, one byte flipped, one byte doubled, a byte appended, and the
// format's own malformations (badVariants).
func seeds(t testing.TB, f workloads.Format) []seed {
	var out []seed
	for _, name := range workloads.SchemaNames() {
		wide := name == "bid-wide"
		_, _, msgs := corpus(t, f, name, 11, 24)
		for i, m := range msgs {
			out = append(out, seed{wide, m})
			if i >= 6 {
				continue
			}
			k := (i*7 + 3) % len(m)
			out = append(out,
				seed{wide, m[:k]},
				seed{wide, flip(m, k)},
				seed{wide, append(append(append([]byte(nil), m[:k+1]...), m[k]), m[k+1:]...)},
				seed{wide, append(append([]byte(nil), m...), byte(i))},
			)
		}
		for _, v := range badVariants(f, msgs[0]) {
			out = append(out, seed{wide, v})
		}
	}
	return out
}

func flip(m []byte, k int) []byte {
	c := append([]byte(nil), m...)
	c[k] ^= 0x55
	return c
}

// badVariants are malformations specific to format f of the record msg.
func badVariants(f workloads.Format, msg []byte) [][]byte {
	s := string(msg)
	var vs []string
	switch f {
	case workloads.FormatJSON:
		vs = []string{
			strings.Replace(s, `"auction":`, `"AUCTION":`, 1),
			strings.TrimSuffix(s, "}") + `,"AUCTION":5}`,
			strings.TrimSuffix(s, "}") + `,"Price":"x"}`,
			strings.TrimSuffix(s, "}") + `,"\u017fTATE":"x"}`, // ſ folds to s
			regexp.MustCompile(`"channel":"[^"]*"`).ReplaceAllString(s, `"channel":null`),
			strings.Replace(s, `"auction":`, `"auction":null,"auction":`, 1),
			strings.Replace(s, `"price":`, `"price":1,"price":`, 1),
			strings.Replace(s, `"bidder":`, `"x":{"a":[1,2,{"b":null}]},"bidder":`, 1),
			regexp.MustCompile(`"price":\d+`).ReplaceAllString(s, `"price":null`),
			regexp.MustCompile(`"price":\d+`).ReplaceAllString(s, `"price":"12"`),
			regexp.MustCompile(`"price":\d+`).ReplaceAllString(s, `"price":1.5`),
			regexp.MustCompile(`"price":\d+,`).ReplaceAllString(s, ``),
			strings.Replace(s, `"channel":"`, "\"channel\":\"\xff", 1), // invalid UTF-8
			strings.Replace(s, `"channel":"`, `"channel":"\x`, 1),      // invalid escape
			strings.TrimSuffix(s, "}") + `,"x":"\x"}`,                  // invalid escape in an unknown key's value
			strings.Replace(s, `"channel":"`, `"channel":"\ud800`, 1),
			s + ` {}`,
			`{"auction":1,0:2}`, // arrow-go panics on a non-string key
			`{0`,
			" \n" + s + "\t",
			strings.Repeat("[", 70) + s,
			`{"x":` + strings.Repeat("[", 70) + strings.Repeat("]", 70) + "," + s[1:],
		}
	case workloads.FormatCSV:
		fields := strings.Split(s, ",")
		vs = []string{
			s + ",extra",
			strings.Join(fields[:len(fields)-1], ","),
			"+" + s,
			`"` + fields[0] + `",` + strings.Join(fields[1:], ","),
			strings.Replace(s, ",", `,"a""b`, 1),
			strings.Replace(s, ",https", ",x\ry,https", 1),
			s + "\r\n",
			s + "\n\n",
			"",
		}
		if len(fields) >= 6 {
			ts := append([]string(nil), fields...)
			ts[3] = "\"x\r\ny\""
			vs = append(vs, strings.Join(ts, ","))
			ts[3] = "\"x\ry\""
			vs = append(vs, strings.Join(ts, ","))
			ts[5] = "(null)"
			vs = append(vs, strings.Join(ts, ","))
			ts[5] = "2015-07-15T00:00:00Z"
			vs = append(vs, strings.Join(ts, ","))
			ts[5] = " 1"
			vs = append(vs, strings.Join(ts, ","))
		}
	case workloads.FormatAvro:
		vs = []string{
			s + "\x00",
			string(append([]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}, msg[1:]...)),
			string(append([]byte{0x80, 0x00}, msg[1:]...)), // overlong zero
			"\x02\x02\x02\x01",                     // negative string length
			"\x02\x02\x02\x04\xff\xfe\x00\x00\x00", // invalid UTF-8
		}
	case workloads.FormatProtobuf:
		vs = []string{
			s + "\x08\x05",                             // field 1 again: the last wins
			s + "\x1b\x08\x01\x1c",                     // a group as field 3 (price)
			s + "\xa3\x01\x08\x01\xa4\x01",             // an unknown group (field 20)
			s + "\xf8\x01\x05",                         // unknown field 31, varint
			s + "\x09\x01\x02\x03\x04\x05\x06\x07\x08", // field 1 as fixed64
			s + "\x22\x02\xff\xfe",                     // channel invalid UTF-8
			"\x00\x01" + s,                             // field number 0
			s + "\xfa\xff\xff\xff\x0f\x00",             // the largest field number
			s + "\x82\x80\x80\x80\x10\x00",             // one past it
			"\x30\x01" + s,                             // date_time first (any order)
		}
	}
	out := make([][]byte, len(vs))
	for i, v := range vs {
		out[i] = []byte(v)
	}
	return out
}
