package workloads

import "encoding/binary"

// copyShort copies v into dst (len(dst) == len(v)) and reports whether v
// is known to be ASCII. Up to 32 bytes it takes at most four overlapping
// word loads and stores instead of a call to memmove, and the ASCII answer
// is read off the same words (so valid UTF-8 without validUTF8's call);
// a longer v is copied by memmove and reported not known ASCII, for the
// caller to validate. At ~100 B the three string fields' memmove and
// validUTF8 calls were 15% of protobuf's decoder samples; appendRow,
// behind json, avro and csv, uses the copy alone (their parsers validate
// as they scan).
func copyShort(dst, v []byte) (ascii bool) {
	n := len(v)
	var acc uint64
	switch {
	case n > 32:
		copy(dst, v)
		return false
	case n >= 16:
		a, b := binary.LittleEndian.Uint64(v), binary.LittleEndian.Uint64(v[8:])
		c, d := binary.LittleEndian.Uint64(v[n-16:]), binary.LittleEndian.Uint64(v[n-8:])
		binary.LittleEndian.PutUint64(dst, a)
		binary.LittleEndian.PutUint64(dst[8:], b)
		binary.LittleEndian.PutUint64(dst[n-16:], c)
		binary.LittleEndian.PutUint64(dst[n-8:], d)
		acc = a | b | c | d
	case n >= 8:
		a, d := binary.LittleEndian.Uint64(v), binary.LittleEndian.Uint64(v[n-8:])
		binary.LittleEndian.PutUint64(dst, a)
		binary.LittleEndian.PutUint64(dst[n-8:], d)
		acc = a | d
	case n >= 4:
		a, d := binary.LittleEndian.Uint32(v), binary.LittleEndian.Uint32(v[n-4:])
		binary.LittleEndian.PutUint32(dst, a)
		binary.LittleEndian.PutUint32(dst[n-4:], d)
		acc = uint64(a | d)
	case n > 0:
		dst[0], dst[n/2], dst[n-1] = v[0], v[n/2], v[n-1]
		acc = uint64(v[0] | v[n/2] | v[n-1])
	}
	return acc&highs == 0
}
