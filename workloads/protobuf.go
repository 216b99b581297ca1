package workloads

import (
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// Protobuf: the proto3 wire format of a message whose fields 1..N are the
// schema's columns in order: int64 and timestamp columns are int64 fields
// (varint, wire type 0; timestamps as epoch milliseconds), strings are string
// fields (wire type 2). The encoder omits zero values, as proto3 does; the
// decoder accepts fields in any order, a repeated field keeps its last value,
// an absent field is zero, and unknown fields of wire types 0, 1, 2 and 5 are
// skipped (groups are rejected).
type protoCodec struct {
	schema *Schema
}

const (
	wireVarint  = 0
	wireFixed64 = 1
	wireBytes   = 2
	wireFixed32 = 5
)

var (
	errProtoTag      = parseErr("protobuf: bad field tag")
	errProtoWireType = parseErr("protobuf: wrong wire type for field")
	errProtoLength   = parseErr("protobuf: bad length")
)

func (c *protoCodec) Format() Format  { return FormatProtobuf }
func (c *protoCodec) Schema() *Schema { return c.schema }

func (c *protoCodec) NewColumnar(mem memory.Allocator) Columnar {
	return newColumnar(c.schema, mem, c.parse)
}

func (c *protoCodec) DecodeRow(msg []byte, r *Row) error {
	var sc scratch
	if err := c.parse(msg, &sc); err != nil {
		return err
	}
	sc.toRow(c.schema, msg, r)
	return nil
}

func (c *protoCodec) Encode(dst []byte, r *Row) []byte {
	for k, col := range c.schema.cols {
		num := uint64(k + 1)
		switch col.kind {
		case kindInt64, kindTimestamp:
			if v := *r.intField(col.field); v != 0 {
				dst = appendUvarint(dst, num<<3|wireVarint)
				dst = appendUvarint(dst, uint64(v))
			}
		case kindString:
			if s := *r.strField(col.field); s != "" {
				dst = appendUvarint(dst, num<<3|wireBytes)
				dst = appendUvarint(dst, uint64(len(s)))
				dst = append(dst, s...)
			}
		}
	}
	return dst
}

func (c *protoCodec) parse(msg []byte, sc *scratch) error {
	cols := c.schema.cols
	for k := range cols {
		sc.ints[k] = 0
		sc.strs[k] = view{}
	}
	i := 0
	for i < len(msg) {
		tag, j, ok := readUvarint(msg, i)
		if !ok {
			return errVarint
		}
		i = j
		num, wt := tag>>3, tag&7
		if num == 0 || num > 1<<29-1 {
			return errProtoTag
		}
		if num <= uint64(len(cols)) {
			k := int(num - 1)
			if cols[k].kind == kindString {
				if wt != wireBytes {
					return errProtoWireType
				}
				from, j, err := protoBytes(msg, i)
				if err != nil {
					return err
				}
				if !validUTF8(msg[from:j]) {
					return errBadUTF8
				}
				sc.strs[k], i = msgView(from, j), j
				continue
			}
			if wt != wireVarint {
				return errProtoWireType
			}
			v, j, ok := readUvarint(msg, i)
			if !ok {
				return errVarint
			}
			sc.ints[k], i = int64(v), j
			continue
		}
		// An unknown field: skip it.
		switch wt {
		case wireVarint:
			_, j, ok := readUvarint(msg, i)
			if !ok {
				return errVarint
			}
			i = j
		case wireFixed64, wireFixed32:
			n := 8
			if wt == wireFixed32 {
				n = 4
			}
			if len(msg)-i < n {
				return errTruncated
			}
			i += n
		case wireBytes:
			_, j, err := protoBytes(msg, i)
			if err != nil {
				return err
			}
			i = j
		default:
			return errProtoTag
		}
	}
	return nil
}

// protoBytes reads a length-delimited value at msg[i:]; it is msg[from:end].
func protoBytes(msg []byte, i int) (from, end int, err error) {
	n, j, ok := readUvarint(msg, i)
	if !ok {
		return 0, 0, errVarint
	}
	if n > uint64(len(msg)-j) {
		return 0, 0, errProtoLength
	}
	return j, j + int(n), nil
}
