package workloads

import (
	"encoding/binary"
	"math/rand/v2"
	"testing"
	"unicode/utf8"
)

// TestStringStopWord: the word test answers as the byte table does for
// every byte value at every position, and for random words (where several
// stop bytes and borrows meet), so the eight-byte skip in scanJSONString
// can never step over a quote, a backslash, a control or a non-ASCII byte.
func TestStringStopWord(t *testing.T) {
	anyStop := func(w uint64) bool {
		var b [8]byte
		binary.LittleEndian.PutUint64(b[:], w)
		for _, c := range b {
			if jsonStringStop[c] {
				return true
			}
		}
		return false
	}
	for c := range 256 {
		for pos := range 8 {
			b := []byte("abcdefgh")
			b[pos] = byte(c)
			w := binary.LittleEndian.Uint64(b)
			if got, want := stringStopWord(w), jsonStringStop[c]; got != want {
				t.Fatalf("byte %#02x at %d in %q: stringStopWord %v, table %v", c, pos, b, got, want)
			}
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 1 << 20 {
		w := r.Uint64()
		if r.IntN(2) == 0 { // mostly printable ASCII, a stop byte now and then
			w &= 0x3f3f3f3f3f3f3f3f
			w |= 0x2020202020202020
		}
		if got, want := stringStopWord(w), anyStop(w); got != want {
			t.Fatalf("word %#016x: stringStopWord %v, bytes %v", w, got, want)
		}
	}
}

// TestScanJSONStringLong: values longer than a word, with the stop byte at
// every offset, scan to the same end and value as the byte loop would.
func TestScanJSONStringLong(t *testing.T) {
	var sc scratch
	for n := range 40 {
		for _, tail := range []string{`"`, `\n"`, "\x01\"", "é\""} {
			body := make([]byte, n)
			for i := range body {
				body[i] = 'a' + byte(i%26)
			}
			msg := append(append([]byte{'"'}, body...), tail...)
			v, end, err := scanJSONString(msg, 1, &sc)
			switch tail {
			case "\x01\"":
				if err != errJSONCtrl {
					t.Fatalf("len %d, tail %q: err %v, want %v", n, tail, err, errJSONCtrl)
				}
				continue
			}
			if err != nil {
				t.Fatalf("len %d, tail %q: %v", n, tail, err)
			}
			if end != len(msg) {
				t.Fatalf("len %d, tail %q: ended at %d, want %d", n, tail, end, len(msg))
			}
			want := string(body)
			switch tail {
			case `\n"`:
				want += "\n"
			case "é\"":
				want += "é"
			}
			if got := string(sc.bytes(msg, v)); got != want {
				t.Fatalf("len %d, tail %q: value %q, want %q", n, tail, got, want)
			}
		}
	}
}

// TestValidUTF8: the word-at-a-time ASCII check agrees with utf8.Valid for
// every length up to past two 32-byte strides, with a bad or a good
// non-ASCII byte at every position (the overlapping tail word included).
func TestValidUTF8(t *testing.T) {
	for n := range 80 {
		ascii := make([]byte, n)
		for i := range ascii {
			ascii[i] = 'a' + byte(i%26)
		}
		if !validUTF8(ascii) {
			t.Fatalf("len %d ASCII: not valid", n)
		}
		for pos := range n {
			for _, c := range []byte{0xff, 0x80, 0xc3} {
				b := append([]byte(nil), ascii...)
				b[pos] = c
				if got, want := validUTF8(b), utf8.Valid(b); got != want {
					t.Fatalf("len %d, %#02x at %d: validUTF8 %v, utf8.Valid %v", n, c, pos, got, want)
				}
			}
		}
	}
}
