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
	return rawColumnar{newColumnar(c.schema, mem, rawParse)}
}

// rawColumnar also implements Bulk: with the payloads back to back, a run
// of messages needs one reservation and no per-message parse or growth
// checks, only an offset and a copy each.
type rawColumnar struct{ *columnar }

func (c rawColumnar) AppendBulk(buf []byte, start uint32, ends []uint32) (int, error) {
	n := len(ends)
	if n == 0 {
		return 0, nil
	}
	if c.n == 0 {
		c.reserve()
	}
	bb := c.bins[0]
	bb.Reserve(n)
	bb.ReserveData(int(ends[n-1] - start))
	prev := start
	for _, end := range ends {
		bb.UnsafeAppend(buf[prev:end])
		prev = end
	}
	c.n += n
	return n, nil
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

func rawParse(msg []byte, sc *scratch) error {
	sc.strs[0] = msgView(0, len(msg))
	return nil
}
