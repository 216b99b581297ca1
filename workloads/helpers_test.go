package workloads

import (
	"fmt"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// combo is one schema x format pair.
type combo struct {
	schema *Schema
	codec  Codec
}

func (c combo) name() string {
	return "schema=" + c.schema.Name + "/format=" + string(c.codec.Format())
}

// combos lists every built-in schema with every format.
func combos(t testing.TB) []combo {
	t.Helper()
	var out []combo
	for _, name := range SchemaNames() {
		s, err := SchemaByName(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range Formats() {
			c, err := NewCodec(f, s)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, combo{s, c})
		}
	}
	return out
}

func mustCodec(t testing.TB, f Format, schema string) Codec {
	t.Helper()
	s, err := SchemaByName(schema)
	if err != nil {
		t.Fatal(err)
	}
	c, err := NewCodec(f, s)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// rowFromRecord reads row i of rec back into a Go Row under schema s.
func rowFromRecord(t testing.TB, s *Schema, rec arrow.RecordBatch, i int) Row {
	t.Helper()
	var r Row
	for k, c := range s.cols {
		col := rec.Column(k)
		if col.IsNull(i) {
			t.Fatalf("column %s row %d is null", c.name, i)
		}
		switch c.kind {
		case kindInt64:
			*r.intField(c.field) = col.(*array.Int64).Value(i)
		case kindTimestamp:
			*r.intField(c.field) = int64(col.(*array.Timestamp).Value(i))
		case kindString:
			*r.strField(c.field) = col.(*array.String).Value(i)
		case kindBinary:
			r.Payload = append([]byte{}, col.(*array.Binary).Value(i)...)
		}
	}
	return r
}

// logical drops the payload (for comparing logical fields) or, for a raw
// schema, keeps only the payload.
func logical(s *Schema, r Row) Row {
	if s.IsRaw() {
		return Row{Payload: append([]byte{}, r.Payload...)}
	}
	r.Payload = nil
	return r
}

// decodeAll appends msgs to a fresh columnar decoder and returns the batch.
func decodeAll(t testing.TB, c Codec, mem memory.Allocator, msgs [][]byte) arrow.RecordBatch {
	t.Helper()
	col := c.NewColumnar(mem)
	defer col.Release()
	for i, m := range msgs {
		if err := col.Append(m); err != nil {
			t.Fatalf("message %d %q: %v", i, m, err)
		}
	}
	if col.Len() != len(msgs) {
		t.Fatalf("Len() = %d, want %d", col.Len(), len(msgs))
	}
	return col.NewRecordBatch()
}

// builderLens returns, for every column of a Columnar, the rows it holds:
// the row count, or -1 for a string column whose data does not end where
// its last offset says (bytes written for a row that was not appended).
func builderLens(col Columnar) []int {
	var c *columnar
	switch x := col.(type) {
	case *columnar:
		c = x
	case *protoColumnar: // the scratch path's columns, written directly too
		c = x.columnar
	case *rawColumnar: // one column, written without a builder
		return []int{x.n}
	default:
		panic(fmt.Sprintf("builderLens: unexpected Columnar %T", col))
	}
	lens := make([]int, len(c.schema.cols))
	for i := range lens {
		lens[i] = c.n
		if !c.wide[i] && c.offs[i] != nil && int(c.offs[i][c.n]) != c.used[i] {
			lens[i] = -1
		}
	}
	return lens
}

// asColumnar is the scratch-row columnar of a decoded format's Columnar
// (protobuf's behind its direct write).
func asColumnar(col Columnar) *columnar {
	if p, ok := col.(*protoColumnar); ok {
		return p.columnar
	}
	return col.(*columnar)
}
