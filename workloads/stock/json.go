package stock

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"runtime"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/bytedance/sonic"
	gojson "github.com/goccy/go-json"

	"github.com/fastpathlab/fplab/workloads"
)

// JSON routes. encoding/json, goccy/go-json and bytedance/sonic unmarshal each message into
// a Go struct of the schema's columns (row, or its bid part for schema bid)
// that is then appended to the builders: the usual way Go code consumes
// JSON, and what the lab's rowwise rung does with its own parser. arrow-go
// has two: RecordBuilder.UnmarshalJSON appends one object (message) at a
// time, and JSONReader reads a stream of objects, here the batch's messages
// joined by newlines (NDJSON).

// structJSON is a route that unmarshals into a row with unmarshal.
type structJSON struct {
	builders
	lib       string
	wide      bool
	unmarshal func([]byte, any) error
	r         row
}

func newStdJSON(s *workloads.Schema, mem memory.Allocator) (Decoder, error) {
	return newStructJSON(s, mem, LibEncodingJSON, json.Unmarshal)
}

func newGoccy(s *workloads.Schema, mem memory.Allocator) (Decoder, error) {
	return newStructJSON(s, mem, LibGoccy, goccyUnmarshal)
}

// goccyUnmarshal is gojson.Unmarshal with its panics on bad input made
// errors: goccy/go-json v0.10.6 indexes past the end of some truncated
// objects (`{"\0`: decoder.skipWhiteSpace from structDecoder.Decode).
func goccyUnmarshal(data []byte, v any) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("library panicked: %v", p)
		}
	}()
	return gojson.Unmarshal(data, v)
}

// newSonic unmarshals with sonic.ConfigDefault: strings alias the message
// (no copy; the row is appended before the next message) and are not
// checked for valid UTF-8, its fastest decoding. The row types are
// pretouched here, so sonic compiles its decoders (a JIT on amd64; on
// arm64, where the JIT does not run, its optdec decoder, generic Go over
// SIMD scanning) before the first message, not inside a measured window.
func newSonic(s *workloads.Schema, mem memory.Allocator) (Decoder, error) {
	for _, v := range []any{row{}, bidFields{}} {
		if err := sonic.Pretouch(reflect.TypeOf(v)); err != nil {
			return nil, fmt.Errorf("stock: sonic pretouch: %w", err)
		}
	}
	return newStructJSON(s, mem, LibSonic, sonicUnmarshal)
}

// sonicLibrary names the sonic decoder this build runs: its JIT on amd64,
// optdec on arm64.
func sonicLibrary() string {
	dec := "JIT"
	if runtime.GOARCH != "amd64" {
		dec = "optdec"
	}
	return "github.com/bytedance/sonic v1.15.5 (" + dec + ")"
}

// sonicUnmarshal is sonic.ConfigDefault.Unmarshal with any panic made an
// error, as goccy's are: a library panic on bad input must not end a cell.
func sonicUnmarshal(data []byte, v any) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("library panicked: %v", p)
		}
	}()
	return sonic.ConfigDefault.Unmarshal(data, v)
}

func newStructJSON(s *workloads.Schema, mem memory.Allocator, lib string, unmarshal func([]byte, any) error) (Decoder, error) {
	wide, err := checkSchema(s)
	if err != nil {
		return nil, err
	}
	return &structJSON{builders: newBuilders(s, mem), lib: lib, wide: wide, unmarshal: unmarshal}, nil
}

func (d *structJSON) Append(msg []byte) error {
	d.r = row{} // an absent key leaves the field as it was
	var err error
	if d.wide {
		err = d.unmarshal(msg, &d.r)
	} else {
		err = d.unmarshal(msg, &d.r.bidFields)
	}
	if err != nil {
		return parseErr(d.lib, err)
	}
	d.appendRow(&d.r, d.wide)
	return nil
}

func (d *structJSON) NewRecordBatch() (arrow.RecordBatch, error) { return d.batch() }

// arrowUnmarshal appends each message with RecordBuilder.UnmarshalJSON,
// which restores every builder when a message fails.
//
// arrow-go v18.8.0 panics on a non-string token where a key belongs
// (`{0`: RecordBuilder.unmarshalOne asserts keyTok.(string)); the route
// recovers and cuts the builders back to the rows before the message,
// which the panic skipped restoring.
type arrowUnmarshal struct {
	builders
	n int // rows appended
}

func newArrowUnmarshal(s *workloads.Schema, mem memory.Allocator) (Decoder, error) {
	if _, err := checkSchema(s); err != nil {
		return nil, err
	}
	return &arrowUnmarshal{builders: newBuilders(s, mem)}, nil
}

func (d *arrowUnmarshal) Append(msg []byte) (err error) {
	defer func() {
		if p := recover(); p != nil {
			d.truncate(d.n)
			err = parseErrf(LibArrowUnmarshal, "library panicked: %v", p)
		}
	}()
	if err := d.rb.UnmarshalJSON(msg); err != nil {
		return parseErr(LibArrowUnmarshal, err)
	}
	d.n++
	return nil
}

func (d *arrowUnmarshal) NewRecordBatch() (arrow.RecordBatch, error) {
	d.n = 0
	return d.batch()
}

// batchBuf collects a batch route's messages, each followed by sep.
type batchBuf struct {
	buf []byte
	n   int
}

func (b *batchBuf) add(msg []byte, sep byte) {
	b.buf = append(b.buf, msg...)
	b.buf = append(b.buf, sep)
	b.n++
}

func (b *batchBuf) reset() { b.buf, b.n = b.buf[:0], 0 }

// arrowJSON reads the batch's messages as NDJSON with array.JSONReader.
type arrowJSON struct {
	schema *arrow.Schema
	mem    memory.Allocator
	batchBuf
}

func newArrowJSON(s *workloads.Schema, mem memory.Allocator) (Decoder, error) {
	if _, err := checkSchema(s); err != nil {
		return nil, err
	}
	return &arrowJSON{schema: s.Arrow, mem: mem}, nil
}

func (d *arrowJSON) Append(msg []byte) error {
	d.add(msg, '\n')
	return nil
}

func (d *arrowJSON) NewRecordBatch() (rec arrow.RecordBatch, err error) {
	// JSONReader runs RecordBuilder.UnmarshalOne, which panics as above.
	defer recoverParse(LibArrowJSON, &err)
	defer d.reset()
	if d.n == 0 {
		return emptyBatch(d.schema, d.mem), nil
	}
	rd := array.NewJSONReader(bytes.NewReader(d.buf), d.schema, array.WithChunk(d.n+1), array.WithAllocator(d.mem))
	defer rd.Release()
	if !rd.Next() {
		if err := rd.Err(); err != nil {
			return nil, parseErr(LibArrowJSON, err)
		}
		return nil, parseErrf(LibArrowJSON, "no record in %d messages", d.n)
	}
	if err := rd.Err(); err != nil {
		return nil, parseErr(LibArrowJSON, err)
	}
	rec = rd.RecordBatch()
	if int(rec.NumRows()) != d.n {
		return nil, parseErrf(LibArrowJSON, "%d messages gave %d records", d.n, rec.NumRows())
	}
	rec.Retain()
	return rec, nil
}

func (d *arrowJSON) Release() {}

// emptyBatch is a batch of no rows.
func emptyBatch(s *arrow.Schema, mem memory.Allocator) arrow.RecordBatch {
	b := array.NewRecordBuilder(mem, s)
	defer b.Release()
	return b.NewRecordBatch()
}
