package workloads

import (
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// Avro: the binary encoding of a record with the schema's columns as fields
// in order, known to both sides (no container file, no schema id prefix).
// int64 columns are Avro longs and timestamps Avro timestamp-millis (longs):
// zigzag varints. Strings are a long byte length and UTF-8 bytes.
type avroCodec struct {
	schema *Schema
}

var errAvroLength = parseErr("avro: bad string length")

func (c *avroCodec) Format() Format  { return FormatAvro }
func (c *avroCodec) Schema() *Schema { return c.schema }

func (c *avroCodec) NewColumnar(mem memory.Allocator) Columnar {
	return newColumnar(c.schema, mem, c.parse)
}

func (c *avroCodec) DecodeRow(msg []byte, r *Row) error {
	var sc scratch
	if err := c.parse(msg, &sc); err != nil {
		return err
	}
	sc.toRow(c.schema, msg, r)
	return nil
}

func (c *avroCodec) Encode(dst []byte, r *Row) []byte {
	for _, col := range c.schema.cols {
		switch col.kind {
		case kindInt64, kindTimestamp:
			dst = appendZigzag(dst, *r.intField(col.field))
		case kindString:
			s := *r.strField(col.field)
			dst = appendZigzag(dst, int64(len(s)))
			dst = append(dst, s...)
		}
	}
	return dst
}

func appendZigzag(dst []byte, v int64) []byte {
	return appendUvarint(dst, uint64(v<<1)^uint64(v>>63))
}

func unzigzag(u uint64) int64 { return int64(u>>1) ^ -int64(u&1) }

func (c *avroCodec) parse(msg []byte, sc *scratch) error {
	i := 0
	for k, col := range c.schema.cols {
		u, j, ok := readUvarint(msg, i)
		if !ok {
			if j >= len(msg) {
				return errTruncated
			}
			return errVarint
		}
		i = j
		v := unzigzag(u)
		if col.kind != kindString {
			sc.ints[k] = v
			continue
		}
		if v < 0 || v > int64(len(msg)-i) {
			if v > 0 {
				return errTruncated
			}
			return errAvroLength
		}
		end := i + int(v)
		if !validUTF8(msg[i:end]) {
			return errBadUTF8
		}
		sc.strs[k] = msgView(i, end)
		i = end
	}
	if i != len(msg) {
		return errTrailing
	}
	return nil
}
