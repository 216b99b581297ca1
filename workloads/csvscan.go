package workloads

import (
	"bytes"
	"encoding/binary"
	"math/bits"
)

// The CSV field scans. An unquoted field ends at the first ',', '"', CR
// or LF (the last three are errors there); a quoted one at its next '"'.
// Both were byte loops, about a nanosecond a byte here: the ~1 KiB
// records' 900-letter field took most of the csv decoder's time.

// csvPlainStopBits marks, in the high bit of its lane, each byte of w that
// is ',', '"', '\r' or '\n', exactly up to and including the lowest such
// byte (a lane above it may be marked falsely by a borrow). Per stop byte
// c, x = w^c has a zero lane where w holds c, and (x-1)&^x sets a lane's
// high bit exactly for a zero lane below which no lane borrowed; lanes
// with their own high bit set (x >= 0x80) are cleared by ^x.
func csvPlainStopBits(w uint64) uint64 {
	a := w ^ ','*ones
	b := w ^ '"'*ones
	c := w ^ '\r'*ones
	d := w ^ '\n'*ones
	return ((a - ones) &^ a) | ((b - ones) &^ b) | ((c - ones) &^ c) | ((d - ones) &^ d)
}

// csvPlainStop returns the index of the first ',', '"', CR or LF at or
// after b[i], or len(b). A first word settles the short fields (most of
// the ~100 B records'); up to 64 bytes go a word at a time, the stop found
// within its word by the mask's lowest bit. A longer field (the ~1 KiB
// records' 900-letter one) is searched for each stop byte with
// bytes.IndexByte, which uses vector instructions where Go has them: the
// first comma bounds the other three searches, each found stop bounds the
// next. On the csv ~1 KiB micro-benchmark (CPU per record, three rounds
// alternating with the byte loop's binary) the byte loop took ~1,120 ns,
// four words an iteration of the word test ~700 and this ~630.
func csvPlainStop(b []byte, i int) int {
	s := b[i:]
	if len(s) >= 8 {
		if m := csvPlainStopBits(binary.LittleEndian.Uint64(s)) & highs; m != 0 {
			return i + bits.TrailingZeros64(m)>>3
		}
		s = s[8:]
		if len(s) >= 64 {
			if j := bytes.IndexByte(s, ','); j >= 0 {
				s = s[:j]
			}
			for _, c := range []byte{'"', '\r', '\n'} {
				if j := bytes.IndexByte(s, c); j >= 0 {
					s = s[:j]
				}
			}
			return i + 8 + len(s)
		}
		for len(s) >= 8 {
			if m := csvPlainStopBits(binary.LittleEndian.Uint64(s)) & highs; m != 0 {
				return len(b) - len(s) + bits.TrailingZeros64(m)>>3
			}
			s = s[8:]
		}
	}
	for len(s) > 0 && !csvPlainStopByte(s[0]) {
		s = s[1:]
	}
	return len(b) - len(s)
}

func csvPlainStopByte(c byte) bool { return c == ',' || c == '"' || c == '\r' || c == '\n' }

// csvQuote returns the index of the first '"' at or after b[i], or -1
// (bytes.IndexByte: vector instructions where Go has them).
func csvQuote(b []byte, i int) int {
	j := bytes.IndexByte(b[i:], '"')
	if j < 0 {
		return -1
	}
	return i + j
}
