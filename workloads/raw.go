package workloads

import (
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// Raw: the message body is opaque and lands unparsed in one binary column
// named "value". Corpus payloads are the JSON encoding of the logical row, so
// raw and json topics carry the same bytes. Every message is valid.
type rawCodec struct {
	schema *Schema // a raw view
	json   *jsonCodec
}

func (c *rawCodec) Format() Format  { return FormatRaw }
func (c *rawCodec) Schema() *Schema { return c.schema }

func (c *rawCodec) NewColumnar(mem memory.Allocator) Columnar {
	return newRawColumnar(c.schema, mem)
}

// DecodeRow copies msg into a new r.Payload; the other fields are zeroed.
func (c *rawCodec) DecodeRow(msg []byte, r *Row) error {
	*r = Row{Payload: append(make([]byte, 0, len(msg)), msg...)}
	return nil
}

// Encode appends r.Payload as it is.
func (c *rawCodec) Encode(dst []byte, r *Row) []byte {
	return append(dst, r.Payload...)
}
