package workloads

import (
	"strconv"

	"github.com/apache/arrow-go/v18/arrow/memory"
)

// JSON: one flat object per message, keys are the column names, int64 and
// timestamp columns are JSON integers (epoch milliseconds for timestamps),
// string columns are JSON strings. The decoder accepts any standard JSON
// object: whitespace, any key order, string escapes, unknown keys with any
// value (skipped). Every column must be present with the right type; a
// repeated key keeps its last value, as encoding/json does.
type jsonCodec struct {
	schema *Schema
}

var (
	errJSONSyntax = parseErr("json: syntax error")
	errJSONObject = parseErr("json: message is not an object")
	errJSONString = parseErr("json: expected a string value")
	errJSONEscape = parseErr("json: invalid string escape")
	errJSONCtrl   = parseErr("json: control character in string")
	errJSONDepth  = parseErr("json: nesting too deep")
	errJSONNumber = parseErr("json: invalid number")
	errJSONFields = parseErr("json: missing column")
)

func (c *jsonCodec) Format() Format  { return FormatJSON }
func (c *jsonCodec) Schema() *Schema { return c.schema }

func (c *jsonCodec) NewColumnar(mem memory.Allocator) Columnar {
	return newColumnar(c.schema, mem, c.parse)
}

func (c *jsonCodec) DecodeRow(msg []byte, r *Row) error {
	var sc scratch
	if err := c.parse(msg, &sc); err != nil {
		return err
	}
	sc.toRow(c.schema, msg, r)
	return nil
}

func (c *jsonCodec) Encode(dst []byte, r *Row) []byte {
	dst = append(dst, '{')
	for i, col := range c.schema.cols {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, '"')
		dst = append(dst, col.name...)
		dst = append(dst, '"', ':')
		switch col.kind {
		case kindInt64, kindTimestamp:
			dst = strconv.AppendInt(dst, *r.intField(col.field), 10)
		case kindString:
			dst = appendJSONString(dst, *r.strField(col.field))
		}
	}
	return append(dst, '}')
}

const hexDigits = "0123456789abcdef"

func appendJSONString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' {
			continue
		}
		dst = append(dst, s[start:i]...)
		switch c {
		case '"', '\\':
			dst = append(dst, '\\', c)
		case '\n':
			dst = append(dst, '\\', 'n')
		case '\r':
			dst = append(dst, '\\', 'r')
		case '\t':
			dst = append(dst, '\\', 't')
		default:
			dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
		}
		start = i + 1
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// parse decodes one JSON object into sc.
func (c *jsonCodec) parse(msg []byte, sc *scratch) error {
	cols := c.schema.cols
	i := skipWS(msg, 0)
	if i >= len(msg) || msg[i] != '{' {
		return errJSONObject
	}
	i = skipWS(msg, i+1)
	var seen uint32
	next := 0 // the column expected next, tried first
	if i < len(msg) && msg[i] == '}' {
		i++
	} else {
		for {
			if i >= len(msg) || msg[i] != '"' {
				return errJSONSyntax
			}
			col := -1
			var err error
			if next < len(cols) && hasPrefix(msg[i:], cols[next].jsonKey) {
				// The fast path: the expected key, unescaped, then ':'.
				col = next
				i += len(cols[next].jsonKey)
			} else {
				kv, j, err := scanJSONString(msg, i+1, sc)
				if err != nil {
					return err
				}
				key := sc.bytes(msg, kv)
				i = skipWS(msg, j)
				if i >= len(msg) || msg[i] != ':' {
					return errJSONSyntax
				}
				i++
				for k := range cols {
					if string(key) == cols[k].name {
						col = k
						break
					}
				}
			}
			i = skipWS(msg, i)
			switch {
			case col < 0:
				i, err = skipJSONValue(msg, i, 0, sc)
			case cols[col].kind == kindString:
				if i >= len(msg) || msg[i] != '"' {
					return errJSONString
				}
				sc.strs[col], i, err = scanJSONString(msg, i+1, sc)
			default:
				sc.ints[col], i, err = scanJSONInt(msg, i)
			}
			if err != nil {
				return err
			}
			if col >= 0 {
				seen |= 1 << col
				next = col + 1
			}
			i = skipWS(msg, i)
			if i >= len(msg) {
				return errTruncated
			}
			if msg[i] == '}' {
				i++
				break
			}
			if msg[i] != ',' {
				return errJSONSyntax
			}
			i = skipWS(msg, i+1)
		}
	}
	if skipWS(msg, i) != len(msg) {
		return errTrailing
	}
	if seen != 1<<len(cols)-1 {
		return errJSONFields
	}
	return nil
}
