package workloads

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// maxColumns bounds a schema's width so parse scratch can be fixed arrays.
const maxColumns = 16

// scratch holds one parsed message: values by column index. String values are
// views (offsets, so parsing stores no pointers) into the message or into buf
// (unescaped text); nothing is copied until the row is committed to the
// builders, so a message that fails to parse leaves the builders untouched.
type scratch struct {
	ints [maxColumns]int64
	strs [maxColumns]view
	buf  []byte
}

// view locates a string value: msg[from:to], or buf[from:to] if inBuf.
type view struct {
	from, to int
	inBuf    bool
}

// msgView is the view of msg[from:to].
func msgView(from, to int) view { return view{from: from, to: to} }

// bytes returns the value v refers to.
func (sc *scratch) bytes(msg []byte, v view) []byte {
	if v.inBuf {
		return sc.buf[v.from:v.to]
	}
	return msg[v.from:v.to]
}

// parseFunc parses one message of a schema into sc.
type parseFunc func(msg []byte, sc *scratch) error

// toRow copies sc into r as Go values (allocating the strings).
func (sc *scratch) toRow(s *Schema, msg []byte, r *Row) {
	*r = Row{}
	for i, c := range s.cols {
		switch c.kind {
		case kindInt64, kindTimestamp:
			*r.intField(c.field) = sc.ints[i]
		case kindString:
			*r.strField(c.field) = string(sc.bytes(msg, sc.strs[i]))
		case kindBinary:
			r.Payload = append([]byte(nil), sc.bytes(msg, sc.strs[i])...)
		}
	}
}

// builders are the typed Arrow builders of a schema, by column index: the
// rowwise path's write side (rowBuilder), which transposes Go rows the way
// a Go program without the lab's decoders would.
type builders struct {
	schema *Schema
	rb     *array.RecordBuilder
	ints   [maxColumns]*array.Int64Builder
	ts     [maxColumns]*array.TimestampBuilder
	bins   [maxColumns]*array.BinaryBuilder // string and binary columns
	n      int

	// The previous batch's shape: the next batch's buffers are reserved at
	// that size up front instead of growing by doubling and copying.
	lastRows int
	lastData [maxColumns]int
}

func newBuilders(s *Schema, mem memory.Allocator) builders {
	b := builders{schema: s, rb: array.NewRecordBuilder(mem, s.Arrow)}
	for i, c := range s.cols {
		switch c.kind {
		case kindInt64:
			b.ints[i] = b.rb.Field(i).(*array.Int64Builder)
		case kindTimestamp:
			b.ts[i] = b.rb.Field(i).(*array.TimestampBuilder)
		case kindString:
			b.bins[i] = b.rb.Field(i).(*array.StringBuilder).BinaryBuilder
		case kindBinary:
			b.bins[i] = b.rb.Field(i).(*array.BinaryBuilder)
		}
	}
	return b
}

func (b *builders) Len() int { return b.n }

func (b *builders) NewRecordBatch() arrow.RecordBatch {
	b.lastRows = b.n
	for i, bb := range b.bins {
		if bb != nil {
			b.lastData[i] = bb.DataLen()
		}
	}
	b.n = 0
	return b.rb.NewRecordBatch()
}

// reserve sizes empty builders for a batch like the previous one. The
// variable-length data gets an eighth more than last time: values vary in
// length, and a batch that outgrows its reservation by a byte copies the
// whole buffer into a new one.
func (b *builders) reserve() {
	if b.lastRows == 0 {
		return
	}
	b.rb.Reserve(b.lastRows)
	for i, bb := range b.bins {
		if bb != nil {
			bb.ReserveData(b.lastData[i] + b.lastData[i]/8)
		}
	}
}

func (b *builders) Release() { b.rb.Release() }

// columnar is the Columnar of every decoded format: a format's parse func
// fills the scratch, and a complete row is then written to every column at
// once (colWriter), so a message that fails to parse writes nothing.
type columnar struct {
	colWriter
	parse parseFunc
	sc    scratch
}

func newColumnar(s *Schema, mem memory.Allocator, parse parseFunc) *columnar {
	return &columnar{colWriter: newColWriter(s, mem), parse: parse}
}

func (c *columnar) Append(msg []byte) error {
	c.sc.buf = c.sc.buf[:0]
	if err := c.parse(msg, &c.sc); err != nil {
		return err
	}
	return c.appendRow(msg, &c.sc)
}

// AppendNull appends a tombstone's all-null row.
func (c *columnar) AppendNull() { c.appendNull() }

// AppendNull appends an all-null row.
func (b *builders) AppendNull() {
	if b.n == 0 {
		b.reserve()
	}
	for i := range b.schema.cols {
		b.rb.Field(i).AppendNull()
	}
	b.n++
}

// AddNull is AppendNull for a RowBuilder.
func (b *builders) AddNull() { b.AppendNull() }

// rowBuilder transposes Go rows into Arrow.
type rowBuilder struct{ builders }

// NewRowBuilder returns a RowBuilder for schema s (a raw schema takes
// Row.Payload) whose buffers come from mem.
func NewRowBuilder(s *Schema, mem memory.Allocator) RowBuilder {
	return &rowBuilder{newBuilders(s, mem)}
}

func (b *rowBuilder) Add(r *Row) {
	if b.n == 0 {
		b.reserve()
	}
	for i, c := range b.schema.cols {
		switch c.kind {
		case kindInt64:
			b.ints[i].Append(*r.intField(c.field))
		case kindTimestamp:
			b.ts[i].Append(arrow.Timestamp(*r.intField(c.field)))
		case kindString:
			b.bins[i].AppendString(*r.strField(c.field))
		case kindBinary:
			b.bins[i].Append(r.Payload)
		}
	}
	b.n++
}
