package stock

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	arrowavro "github.com/apache/arrow-go/v18/arrow/avro"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/hamba/avro/v2"
	"github.com/linkedin/goavro/v2"

	"github.com/fastpathlab/fplab/workloads"
)

// Avro routes. Every one is given the writer schema (avroSchema: a record
// of the schema's columns in order, int64 as long, the timestamp as
// timestamp-millis, text as string), as a Kafka consumer is by its schema
// registry. hamba/avro decodes into a struct with its reusable Reader
// (Unmarshal does not report trailing bytes, so the route checks the end
// the way the lab does); goavro decodes to a map[string]any per message,
// the timestamp as time.Time. arrow-go's avro support reads Object
// Container Files only: the arrow-ocf route frames the batch's messages as
// one OCF block (an OCF block is its records' encodings back to back) and
// reads it with arrow/avro.OCFReader, which decodes on a goroutine of its
// own and loads the builders from decoded values on another.

// avroSchema is the Avro schema of s's records.
func avroSchema(s *workloads.Schema) (string, error) {
	type field struct {
		Name string `json:"name"`
		Type any    `json:"type"`
	}
	var fields []field
	for _, f := range s.Arrow.Fields() {
		var t any
		switch f.Type.ID() {
		case arrow.INT64:
			t = "long"
		case arrow.TIMESTAMP:
			t = map[string]string{"type": "long", "logicalType": "timestamp-millis"}
		case arrow.STRING:
			t = "string"
		default:
			return "", fmt.Errorf("avro: no Avro type for column %s (%s)", f.Name, f.Type)
		}
		fields = append(fields, field{f.Name, t})
	}
	b, err := json.Marshal(map[string]any{"type": "record", "name": "Bid", "namespace": "fplab", "fields": fields})
	return string(b), err
}

// hamba decodes into a row with a hamba Reader.
type hamba struct {
	builders
	schema avro.Schema
	rd     *avro.Reader
	wide   bool
	r      row
}

func newHamba(s *workloads.Schema, mem memory.Allocator) (Decoder, error) {
	wide, err := checkSchema(s)
	if err != nil {
		return nil, err
	}
	js, err := avroSchema(s)
	if err != nil {
		return nil, err
	}
	sch, err := avro.Parse(js)
	if err != nil {
		return nil, fmt.Errorf("hamba: %w", err)
	}
	return &hamba{builders: newBuilders(s, mem), schema: sch, rd: avro.NewReader(nil, 0), wide: wide}, nil
}

func (d *hamba) Append(msg []byte) error {
	d.rd.Reset(msg)
	d.rd.Error = nil
	d.r = row{}
	if d.wide {
		d.rd.ReadVal(d.schema, &d.r)
	} else {
		d.rd.ReadVal(d.schema, &d.r.bidFields)
	}
	if d.rd.Error != nil {
		return parseErr(LibHamba, d.rd.Error)
	}
	if d.rd.Peek(); d.rd.Error == nil {
		return parseErrf(LibHamba, "trailing bytes after the record")
	}
	d.appendRow(&d.r, d.wide)
	return nil
}

func (d *hamba) NewRecordBatch() (arrow.RecordBatch, error) { return d.batch() }

// goavroDec decodes to goavro's native map and appends its values.
type goavroDec struct {
	builders
	codec *goavro.Codec
	names []string
}

func newGoavro(s *workloads.Schema, mem memory.Allocator) (Decoder, error) {
	if _, err := checkSchema(s); err != nil {
		return nil, err
	}
	js, err := avroSchema(s)
	if err != nil {
		return nil, err
	}
	c, err := goavro.NewCodec(js)
	if err != nil {
		return nil, fmt.Errorf("goavro: %w", err)
	}
	d := &goavroDec{builders: newBuilders(s, mem), codec: c}
	for _, f := range s.Arrow.Fields() {
		d.names = append(d.names, f.Name)
	}
	return d, nil
}

func (d *goavroDec) Append(msg []byte) error {
	native, rest, err := d.codec.NativeFromBinary(msg)
	if err != nil {
		return parseErr(LibGoavro, err)
	}
	if len(rest) != 0 {
		return parseErrf(LibGoavro, "%d trailing bytes after the record", len(rest))
	}
	m, ok := native.(map[string]any)
	if !ok {
		return parseErrf(LibGoavro, "decoded a %T, not a record", native)
	}
	// Check every value before appending any, so a bad one appends nothing.
	for i, name := range d.names {
		v := m[name]
		var ok bool
		switch {
		case d.ints[i] != nil:
			_, ok = v.(int64)
		case d.ts[i] != nil:
			_, ok = v.(time.Time)
		default:
			_, ok = v.(string)
		}
		if !ok {
			return parseErrf(LibGoavro, "field %s decoded as %T", name, v)
		}
	}
	for i, name := range d.names {
		switch v := m[name].(type) {
		case int64:
			d.ints[i].Append(v)
		case time.Time:
			d.ts[i].Append(arrow.Timestamp(v.UnixMilli()))
		case string:
			d.strs[i].Append(v)
		}
	}
	return nil
}

func (d *goavroDec) NewRecordBatch() (arrow.RecordBatch, error) { return d.batch() }

// arrowOCF frames a batch as an OCF file and reads it with OCFReader.
type arrowOCF struct {
	schema *arrow.Schema
	mem    memory.Allocator
	header []byte // magic, metadata (schema, null codec), sync marker
	file   []byte
	msgs   []byte
	n      int
}

// ocfSync is the OCF sync marker the route writes.
var ocfSync = [16]byte{'f', 'p', 'l', 'a', 'b', '-', 's', 't', 'o', 'c', 'k', '-', 's', 'y', 'n', 'c'}

func newArrowOCF(s *workloads.Schema, mem memory.Allocator) (Decoder, error) {
	if _, err := checkSchema(s); err != nil {
		return nil, err
	}
	js, err := avroSchema(s)
	if err != nil {
		return nil, err
	}
	h := []byte("Obj\x01")
	h = binary.AppendVarint(h, 2) // a metadata map block of two entries
	for _, kv := range [][2]string{{"avro.schema", js}, {"avro.codec", "null"}} {
		for _, x := range kv {
			h = binary.AppendVarint(h, int64(len(x)))
			h = append(h, x...)
		}
	}
	h = binary.AppendVarint(h, 0) // end of the map
	h = append(h, ocfSync[:]...)
	return &arrowOCF{schema: s.Arrow, mem: mem, header: h}, nil
}

func (d *arrowOCF) Append(msg []byte) error {
	d.msgs = append(d.msgs, msg...)
	d.n++
	return nil
}

func (d *arrowOCF) NewRecordBatch() (rec arrow.RecordBatch, err error) {
	defer func() { d.msgs, d.n = d.msgs[:0], 0 }()
	if d.n == 0 {
		return emptyBatch(d.schema, d.mem), nil
	}
	f := append(d.file[:0], d.header...)
	f = binary.AppendVarint(f, int64(d.n))
	f = binary.AppendVarint(f, int64(len(d.msgs)))
	f = append(f, d.msgs...)
	f = append(f, ocfSync[:]...)
	d.file = f
	rd, err := arrowavro.NewOCFReader(bytes.NewReader(f), arrowavro.WithChunk(-1), arrowavro.WithAllocator(d.mem))
	if err != nil {
		return nil, parseErr(LibArrowOCF, err)
	}
	defer rd.Release()
	if !rd.Next() {
		if err := rd.Err(); err != nil {
			return nil, parseErr(LibArrowOCF, err)
		}
		return nil, parseErrf(LibArrowOCF, "no record in %d messages", d.n)
	}
	if err := rd.Err(); err != nil {
		return nil, parseErr(LibArrowOCF, err)
	}
	r := rd.RecordBatch()
	if int(r.NumRows()) != d.n {
		return nil, parseErrf(LibArrowOCF, "%d messages gave %d records", d.n, r.NumRows())
	}
	r.Retain()
	return retype(d.schema, r)
}

func (d *arrowOCF) Release() {}
