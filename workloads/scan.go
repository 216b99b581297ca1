package workloads

import (
	"encoding/binary"
	"math"
	"unicode/utf8"
)

// Helpers shared by the hand-rolled parsers. They work on byte views and
// never allocate.

// readUvarint decodes a base-128 varint at b[i:] and returns the value and
// the index after it; ok is false when it is truncated or overflows 64 bits.
func readUvarint(b []byte, i int) (v uint64, next int, ok bool) {
	var shift uint
	for n := 0; n < 10; n++ {
		if i >= len(b) {
			return 0, i, false
		}
		c := b[i]
		i++
		if n == 9 && c > 1 {
			return 0, i, false
		}
		v |= uint64(c&0x7f) << shift
		if c < 0x80 {
			return v, i, true
		}
		shift += 7
	}
	return 0, i, false
}

// appendUvarint appends v as a base-128 varint.
func appendUvarint(dst []byte, v uint64) []byte {
	for v >= 0x80 {
		dst = append(dst, byte(v)|0x80)
		v >>= 7
	}
	return append(dst, byte(v))
}

// parseDecimal parses -?[0-9]+ as an int64, rejecting overflow.
func parseDecimal(b []byte) (int64, bool) {
	neg := false
	if len(b) > 0 && b[0] == '-' {
		neg = true
		b = b[1:]
	}
	if len(b) == 0 {
		return 0, false
	}
	limit := uint64(math.MaxInt64)
	if neg {
		limit++
	}
	var u uint64
	for _, c := range b {
		d := uint64(c - '0')
		if d > 9 {
			return 0, false
		}
		if u > (limit-d)/10 {
			return 0, false
		}
		u = u*10 + d
	}
	if neg {
		return -int64(u), true // -(1<<63) wraps to itself, which is right
	}
	return int64(u), true
}

// validUTF8 is utf8.Valid with a cheaper path for the ASCII strings that
// dominate the corpus: OR the bytes together a word at a time, four words
// an iteration (the padded ~1 KiB records' values spent 18% of the avro
// decoder here at one word an iteration), the tail as one overlapping
// word, and look at the high bits once.
func validUTF8(b []byte) bool {
	var acc uint64
	s := b
	for len(s) >= 32 {
		acc |= binary.LittleEndian.Uint64(s) | binary.LittleEndian.Uint64(s[8:]) |
			binary.LittleEndian.Uint64(s[16:]) | binary.LittleEndian.Uint64(s[24:])
		s = s[32:]
	}
	for len(s) >= 8 {
		acc |= binary.LittleEndian.Uint64(s)
		s = s[8:]
	}
	if len(s) > 0 {
		if len(b) >= 8 {
			acc |= binary.LittleEndian.Uint64(b[len(b)-8:])
		} else {
			for _, c := range s {
				acc |= uint64(c)
			}
		}
	}
	if acc&0x8080808080808080 == 0 {
		return true
	}
	return utf8.Valid(b)
}
