package workloads

import (
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow/memory"
)

// CSV: one RFC 4180 line per message, the schema's columns in order, no
// header. Integers and timestamps (epoch milliseconds) are decimal; a string
// containing a comma, quote, CR or LF is quoted with quotes doubled. The
// decoder accepts any field quoted, and one trailing "\n" or "\r\n".
type csvCodec struct {
	schema *Schema
}

var (
	errCSVQuote  = parseErr("csv: bare or misplaced quote")
	errCSVFields = parseErr("csv: wrong number of fields")
	errCSVLine   = parseErr("csv: line break in unquoted field")
)

func (c *csvCodec) Format() Format  { return FormatCSV }
func (c *csvCodec) Schema() *Schema { return c.schema }

func (c *csvCodec) NewColumnar(mem memory.Allocator) Columnar {
	return newColumnar(c.schema, mem, c.parse)
}

func (c *csvCodec) DecodeRow(msg []byte, r *Row) error {
	var sc scratch
	if err := c.parse(msg, &sc); err != nil {
		return err
	}
	sc.toRow(c.schema, msg, r)
	return nil
}

func (c *csvCodec) Encode(dst []byte, r *Row) []byte {
	for k, col := range c.schema.cols {
		if k > 0 {
			dst = append(dst, ',')
		}
		switch col.kind {
		case kindInt64, kindTimestamp:
			dst = strconv.AppendInt(dst, *r.intField(col.field), 10)
		case kindString:
			dst = appendCSVString(dst, *r.strField(col.field))
		}
	}
	return dst
}

func appendCSVString(dst []byte, s string) []byte {
	if !strings.ContainsAny(s, ",\"\r\n") {
		return append(dst, s...)
	}
	dst = append(dst, '"')
	for {
		i := strings.IndexByte(s, '"')
		if i < 0 {
			break
		}
		dst = append(dst, s[:i+1]...)
		dst = append(dst, '"')
		s = s[i+1:]
	}
	dst = append(dst, s...)
	return append(dst, '"')
}

func (c *csvCodec) parse(msg []byte, sc *scratch) error {
	n := len(msg)
	if n > 0 && msg[n-1] == '\n' {
		n--
		if n > 0 && msg[n-1] == '\r' {
			n--
		}
	}
	line := msg[:n]
	cols := c.schema.cols
	i := 0
	for k, col := range cols {
		var v view
		var err error
		if i < len(line) && line[i] == '"' {
			v, i, err = csvQuoted(line, i+1, sc)
		} else {
			v, i, err = csvPlain(line, i)
		}
		if err != nil {
			return err
		}
		if k < len(cols)-1 {
			if i >= len(line) || line[i] != ',' {
				return errCSVFields
			}
			i++
		} else if i != len(line) {
			return errCSVFields
		}
		f := sc.bytes(line, v)
		if col.kind == kindString {
			if !validUTF8(f) {
				return errBadUTF8
			}
			sc.strs[k] = v
			continue
		}
		n, ok := parseDecimal(f)
		if !ok {
			return errNotInt
		}
		sc.ints[k] = n
	}
	return nil
}

// csvPlain scans an unquoted field at line[i:] up to the next comma.
func csvPlain(line []byte, i int) (view, int, error) {
	start := i
	i = csvPlainStop(line, i)
	if i == len(line) {
		return msgView(start, i), i, nil
	}
	switch line[i] {
	case ',':
		return msgView(start, i), i, nil
	case '"':
		return view{}, 0, errCSVQuote
	}
	return view{}, 0, errCSVLine
}

// csvQuoted scans a quoted field whose opening quote is at line[i-1] and
// returns its value and the index after the closing quote. The value is a
// view of line unless it has doubled quotes; then it is copied into sc.buf.
func csvQuoted(line []byte, i int, sc *scratch) (view, int, error) {
	start := i
	i = csvQuote(line, i)
	switch {
	case i < 0:
		return view{}, 0, errTruncated
	case i+1 < len(line) && line[i+1] == '"':
		return csvUnquote(line, start, i, sc)
	}
	return msgView(start, i), i + 1, nil
}

// csvUnquote continues csvQuoted from the doubled quote at line[i],
// copying the runs between quotes whole.
func csvUnquote(line []byte, start, i int, sc *scratch) (view, int, error) {
	from := len(sc.buf)
	sc.buf = append(sc.buf, line[start:i+1]...)
	i += 2
	for {
		j := csvQuote(line, i)
		if j < 0 {
			return view{}, 0, errTruncated
		}
		sc.buf = append(sc.buf, line[i:j]...)
		if j+1 < len(line) && line[j+1] == '"' {
			sc.buf = append(sc.buf, '"')
			i = j + 2
			continue
		}
		return view{from: from, to: len(sc.buf), inBuf: true}, j + 1, nil
	}
}
