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

// packVarint decodes the varint whose bytes are w's, loaded little-endian,
// up to and including the byte whose high bit is bit end (the lowest clear
// high bit: the varint's last byte): it drops the bytes past it and the
// continuation bits, then packs the seven-bit groups in three steps.
func packVarint(w uint64, end int) uint64 {
	w &= (1<<(end+1) - 1) & 0x7f7f7f7f7f7f7f7f
	w = w&0x007f007f007f007f | w&0x7f007f007f007f00>>1 // 14-bit pairs in 16
	w = w&0x00003fff00003fff | w&0x3fff00003fff0000>>2 // 28 bits in 32
	return w&0x000000000fffffff | w&0x0fffffff00000000>>4
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
// dominate the corpus: OR the bytes together a word at a time and look at
// the high bits once. Long strings take four words an iteration (the
// padded ~1 KiB records' values spent 18% of the avro decoder here at one
// word an iteration) and their last up to 31 bytes as the four words that
// end the string, overlapping what the loop read; shorter strings take
// one to four overlapping loads with no loop (the ~100 B records' values
// are 2 to ~30 bytes: a byte loop under eight and a word loop above were
// 20% of the protobuf parser).
func validUTF8(b []byte) bool {
	var acc uint64
	n := len(b)
	switch {
	case n >= 32:
		for s := b; len(s) >= 32; s = s[32:] {
			acc |= binary.LittleEndian.Uint64(s) | binary.LittleEndian.Uint64(s[8:]) |
				binary.LittleEndian.Uint64(s[16:]) | binary.LittleEndian.Uint64(s[24:])
		}
		if n%32 != 0 {
			t := b[n-32:]
			acc |= binary.LittleEndian.Uint64(t) | binary.LittleEndian.Uint64(t[8:]) |
				binary.LittleEndian.Uint64(t[16:]) | binary.LittleEndian.Uint64(t[24:])
		}
	case n >= 16:
		acc = binary.LittleEndian.Uint64(b) | binary.LittleEndian.Uint64(b[8:]) |
			binary.LittleEndian.Uint64(b[n-16:]) | binary.LittleEndian.Uint64(b[n-8:])
	case n >= 8:
		acc = binary.LittleEndian.Uint64(b) | binary.LittleEndian.Uint64(b[n-8:])
	case n >= 4:
		acc = uint64(binary.LittleEndian.Uint32(b) | binary.LittleEndian.Uint32(b[n-4:]))
	case n > 0:
		acc = uint64(b[0] | b[n/2] | b[n-1])
	}
	if acc&highs == 0 {
		return true
	}
	return utf8.Valid(b)
}
