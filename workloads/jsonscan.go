package workloads

import (
	"encoding/binary"
	"unicode/utf16"
	"unicode/utf8"
)

// Scanners for JSON strings and integers, working on byte views of the
// message. Unescaped strings go to the parse scratch; nothing allocates.

func hasPrefix(b []byte, p string) bool {
	return len(b) >= len(p) && string(b[:len(p)]) == p
}

func skipWS(b []byte, i int) int {
	// Most calls land on a non-blank byte: one compare settles those.
	for i < len(b) && b[i] <= ' ' {
		switch b[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// scanJSONString scans a string whose opening quote is at b[i-1] and returns
// its value and the index after the closing quote. The value is a view of b
// unless the string has escapes; then it is unescaped into sc.buf.
func scanJSONString(b []byte, i int, sc *scratch) (view, int, error) {
	start := i
	high := false
	for i < len(b) {
		// Eight bytes at a time while none of them is a stop byte, then
		// byte by byte: the padded ~1 KiB records' long values took ~1
		// ns a byte through the table alone.
		for i+8 <= len(b) && !stringStopWord(binary.LittleEndian.Uint64(b[i:])) {
			i += 8
		}
		for i < len(b) && !jsonStringStop[b[i]] {
			i++
		}
		if i >= len(b) {
			break
		}
		c := b[i]
		switch {
		case c == '"':
			if high && !validUTF8(b[start:i]) {
				return view{}, 0, errBadUTF8
			}
			return msgView(start, i), i + 1, nil
		case c == '\\':
			return unescapeJSONString(b, start, i, high, sc)
		case c < 0x20:
			return view{}, 0, errJSONCtrl
		case c >= 0x80:
			high = true
		}
		i++
	}
	return view{}, 0, errTruncated
}

// jsonStringStop marks the bytes a string scan must look at: the closing
// quote, a backslash, control characters and non-ASCII (UTF-8 to check).
var jsonStringStop = func() (t [256]bool) {
	for c := range t {
		t[c] = c == '"' || c == '\\' || c < 0x20 || c >= 0x80
	}
	return t
}()

// Word-at-a-time tests on eight bytes loaded little-endian. Each is exact
// as a yes/no answer (a borrow can only mark a byte above a true hit), which
// is all stringStopWord needs: on yes the byte loop finds the stop.
const (
	ones  = 0x0101010101010101
	highs = 0x8080808080808080
)

// stringStopWord reports whether w holds a byte jsonStringStop marks: '"',
// '\\', a control character (< 0x20) or a non-ASCII byte.
func stringStopWord(w uint64) bool {
	quote := w ^ ('"' * ones)
	bslash := w ^ ('\\' * ones)
	zeroQ := (quote - ones) &^ quote
	zeroB := (bslash - ones) &^ bslash
	ctrl := (w - 0x20*ones) &^ w
	return (zeroQ|zeroB|ctrl|w)&highs != 0
}

// unescapeJSONString continues scanJSONString from the first backslash at
// b[i], copying the string from b[start:] into sc.buf; high reports a
// non-ASCII byte in b[start:i] (the result is then checked as UTF-8).
func unescapeJSONString(b []byte, start, i int, high bool, sc *scratch) (view, int, error) {
	from := len(sc.buf)
	sc.buf = append(sc.buf, b[start:i]...)
	for i < len(b) {
		c := b[i]
		switch {
		case c == '"':
			if high && !validUTF8(sc.buf[from:]) {
				return view{}, 0, errBadUTF8
			}
			return view{from: from, to: len(sc.buf), inBuf: true}, i + 1, nil
		case c < 0x20:
			return view{}, 0, errJSONCtrl
		case c != '\\':
			if c >= 0x80 {
				high = true
			}
			sc.buf = append(sc.buf, c)
			i++
			continue
		}
		// An escape sequence.
		if i+1 >= len(b) {
			return view{}, 0, errTruncated
		}
		switch e := b[i+1]; e {
		case '"', '\\', '/':
			sc.buf = append(sc.buf, e)
		case 'b':
			sc.buf = append(sc.buf, '\b')
		case 'f':
			sc.buf = append(sc.buf, '\f')
		case 'n':
			sc.buf = append(sc.buf, '\n')
		case 'r':
			sc.buf = append(sc.buf, '\r')
		case 't':
			sc.buf = append(sc.buf, '\t')
		case 'u':
			r, ok := hex4(b, i+2)
			if !ok {
				return view{}, 0, errJSONEscape
			}
			i += 6
			if utf16.IsSurrogate(r) {
				// A valid pair is \uD8xx\uDCxx; anything else becomes U+FFFD.
				if r2, ok := hex4(b, i+2); ok && i+1 < len(b) && b[i] == '\\' && b[i+1] == 'u' {
					if dec := utf16.DecodeRune(r, r2); dec != utf8.RuneError {
						r = dec
						i += 6
					} else {
						r = utf8.RuneError
					}
				} else {
					r = utf8.RuneError
				}
			}
			sc.buf = utf8.AppendRune(sc.buf, r)
			continue
		default:
			return view{}, 0, errJSONEscape
		}
		i += 2
	}
	return view{}, 0, errTruncated
}

// hex4 reads four hex digits at b[i:].
func hex4(b []byte, i int) (rune, bool) {
	if i+4 > len(b) {
		return 0, false
	}
	var r rune
	for _, c := range b[i : i+4] {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c -= 'a' - 10
		case c >= 'A' && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}

// scanJSONInt reads a JSON number at b[i:] that must be an int64.
func scanJSONInt(b []byte, i int) (int64, int, error) {
	neg := i < len(b) && b[i] == '-'
	if neg {
		i++
	}
	start := i
	var u uint64
	for i < len(b) {
		d := b[i] - '0'
		if d > 9 {
			break
		}
		u = u*10 + uint64(d)
		i++
	}
	n := i - start
	switch {
	case n == 0:
		return 0, 0, errNotInt // also null, true, a string, ...
	case b[start] == '0' && n > 1:
		return 0, 0, errJSONNumber // leading zero
	case i < len(b) && (b[i] == '.' || b[i] == 'e' || b[i] == 'E'):
		return 0, 0, errNotInt
	case n > 18: // may overflow: parse again with checks
		from := start
		if neg {
			from--
		}
		v, ok := parseDecimal(b[from:i])
		if !ok {
			return 0, 0, errNotInt
		}
		return v, i, nil
	}
	if neg {
		return -int64(u), i, nil
	}
	return int64(u), i, nil
}
