package workloads

import (
	"encoding/binary"
	"math/bits"
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
	for {
		i = stringStop(b, i)
		if i >= len(b) {
			return view{}, 0, errTruncated
		}
		switch c := b[i]; {
		case c == '"':
			if high && !validUTF8(b[start:i]) {
				return view{}, 0, errBadUTF8
			}
			return msgView(start, i), i + 1, nil
		case c == '\\':
			return unescapeJSONString(b, start, i, high, sc)
		case c < 0x20:
			return view{}, 0, errJSONCtrl
		}
		high = true // c >= 0x80: checked as UTF-8 at the end
		i++
	}
}

// jsonStringStop marks the bytes a string scan must look at: the closing
// quote, a backslash, control characters and non-ASCII (UTF-8 to check).
var jsonStringStop = func() (t [256]bool) {
	for c := range t {
		t[c] = c == '"' || c == '\\' || c < 0x20 || c >= 0x80
	}
	return t
}()

// Word-at-a-time tests on eight bytes loaded little-endian.
const (
	ones  = 0x0101010101010101
	highs = 0x8080808080808080
)

// stringStopMask marks, in the high bit of its byte, every byte of w that
// jsonStringStop marks up to and including the first (lowest) one, and
// may mark bytes after it: the lowest set bit is exact, so
// TrailingZeros64/8 is the first stop byte's offset, and 0 means none.
//
// Seven operations where the three has-zero/has-less tests take twelve:
// a non-ASCII byte is a stop itself (the w term), so every byte before
// the first stop is ASCII, and for a byte x < 0x80 the ^x of the usual
// has-zero test is not needed; and '"' (0x22) and the controls (< 0x20)
// are one test, as x^0x02 < 0x21 holds exactly for them (0x22 becomes
// 0x20, 0x20 and 0x21 become 0x22 and 0x23). A lane below the first stop
// subtracts without a borrow, so no borrow reaches the first stop's lane
// or marks one before it.
func stringStopMask(w uint64) uint64 { return stringStopBits(w) & highs }

// stringStopBits is stringStopMask before the mask: its high bits are
// stringStopMask's, the rest is noise. Four words' bits ORed and masked
// once answer whether any of them holds a stop.
func stringStopBits(w uint64) uint64 {
	return (w ^ 0x02*ones - 0x21*ones) | (w ^ '\\'*ones - ones) | w
}

// stringStopWord reports whether w holds a byte jsonStringStop marks: '"',
// '\\', a control character (< 0x20) or a non-ASCII byte.
func stringStopWord(w uint64) bool { return stringStopMask(w) != 0 }

// stringStop returns the index of the first byte at or after b[i] that
// jsonStringStop marks, or len(b). A first word settles the short strings
// (most of the ~100 B records' values); past it, four words an iteration
// with one branch for the ~900-letter values of the ~1 KiB records, the
// stop found within its word by the mask's lowest bit rather than a byte
// loop. The last seven bytes of b go through the table. It walks a
// shrinking slice so that the loads need no bounds checks. With it the
// json ~1 KiB decoder took 28-40% less time than with stringStopWord's
// one word an iteration and the byte loop after it (alternating rounds,
// loaded host). Eight words an iteration took the 900-letter scan from
// ~85 to ~78 ns (BenchmarkScanJSONString), ~1% of the record: not kept.
func stringStop(b []byte, i int) int {
	s := b[i:]
	if len(s) >= 8 {
		if m := stringStopMask(binary.LittleEndian.Uint64(s)); m != 0 {
			return i + bits.TrailingZeros64(m)>>3
		}
		s = s[8:]
		for len(s) >= 32 {
			m := (stringStopBits(binary.LittleEndian.Uint64(s)) |
				stringStopBits(binary.LittleEndian.Uint64(s[8:])) |
				stringStopBits(binary.LittleEndian.Uint64(s[16:])) |
				stringStopBits(binary.LittleEndian.Uint64(s[24:]))) & highs
			if m != 0 {
				break
			}
			s = s[32:]
		}
		for len(s) >= 8 {
			if m := stringStopMask(binary.LittleEndian.Uint64(s)); m != 0 {
				return len(b) - len(s) + bits.TrailingZeros64(m)>>3
			}
			s = s[8:]
		}
	}
	for len(s) > 0 && !jsonStringStop[s[0]] {
		s = s[1:]
	}
	return len(b) - len(s)
}

// unescapeJSONString continues scanJSONString from the first backslash at
// b[i], copying the string from b[start:] into sc.buf; high reports a
// non-ASCII byte in b[start:i] (the result is then checked as UTF-8). The
// runs between escapes are found by stringStop and appended whole: the
// corpus puts an escape in one value in sixteen, and the ~1 KiB records'
// 900-letter values then went through here a byte at a time (5% of the
// json ~1 KiB profile).
func unescapeJSONString(b []byte, start, i int, high bool, sc *scratch) (view, int, error) {
	from := len(sc.buf)
	sc.buf = append(sc.buf, b[start:i]...)
	for {
		if j := stringStop(b, i); j > i {
			sc.buf = append(sc.buf, b[i:j]...)
			i = j
		}
		if i >= len(b) {
			return view{}, 0, errTruncated
		}
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
			high = true // c >= 0x80
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
