package workloads

import (
	"encoding/binary"
	"math/bits"
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

// TestStringStopMask: the mask's lowest set bit is the first stop byte's
// high bit, for every byte value at every position behind every prefix of
// letters and for random words, since stringStop takes the stop's offset
// from it instead of a byte loop.
func TestStringStopMask(t *testing.T) {
	first := func(w uint64) int {
		var b [8]byte
		binary.LittleEndian.PutUint64(b[:], w)
		for k, c := range b {
			if jsonStringStop[c] {
				return k
			}
		}
		return 8
	}
	check := func(w uint64) {
		t.Helper()
		got := bits.TrailingZeros64(stringStopMask(w)) >> 3
		if m := stringStopMask(w); m&^highs != 0 {
			t.Fatalf("word %#016x: mask %#016x has low bits", w, m)
		}
		if want := first(w); got != want {
			t.Fatalf("word %#016x: mask says byte %d, table %d", w, got, want)
		}
	}
	for c := range 256 {
		for pos := range 8 {
			for _, fill := range []byte{'a', ' ', '!', '#', '[', ']', '~', 0x7f} {
				b := []byte{fill, fill, fill, fill, fill, fill, fill, fill}
				b[pos] = byte(c)
				check(binary.LittleEndian.Uint64(b))
				for c2 := range 256 { // a second byte after it: borrows and marks above
					if pos < 7 {
						b[pos+1] = byte(c2)
						check(binary.LittleEndian.Uint64(b))
					}
				}
			}
		}
	}
	r := rand.New(rand.NewPCG(3, 4))
	for range 1 << 20 {
		w := r.Uint64()
		if r.IntN(2) == 0 {
			w &= 0x3f3f3f3f3f3f3f3f
			w |= 0x2020202020202020
		}
		check(w)
	}
}

// TestStringStop: stringStop finds what a byte loop over the table finds,
// for every length up to past three 32-byte strides, with a stop of each
// kind at every offset from every start (the 32-byte loop, the word loop
// after it and the table tail all hand over at every alignment).
func TestStringStop(t *testing.T) {
	slow := func(b []byte, i int) int {
		for i < len(b) && !jsonStringStop[b[i]] {
			i++
		}
		return i
	}
	for n := range 110 {
		b := make([]byte, n)
		for i := range b {
			b[i] = 'a' + byte(i%26)
		}
		for start := range min(n+1, 10) {
			if got, want := stringStop(b, start), slow(b, start); got != want {
				t.Fatalf("len %d from %d, no stop: %d, want %d", n, start, got, want)
			}
			for pos := start; pos < n; pos++ {
				for _, c := range []byte{'"', '\\', 0x00, 0x1f, 0x80, 0xff} {
					save := b[pos]
					b[pos] = c
					if got, want := stringStop(b, start), slow(b, start); got != want {
						t.Fatalf("len %d from %d, %#02x at %d: %d, want %d", n, start, c, pos, got, want)
					}
					b[pos] = save
				}
			}
		}
	}
}

// TestUnescapeLong: long runs between escapes, and escapes, non-ASCII
// bytes and bad bytes at every offset of a long value, unescape as the
// byte loop did (compared with encoding/json-style expectations).
func TestUnescapeLong(t *testing.T) {
	var sc scratch
	letters := func(n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = 'a' + byte(i%26)
		}
		return string(b)
	}
	for n := range 90 {
		for at := 0; at <= n; at++ {
			body := letters(n)
			for _, tc := range []struct{ in, out string }{
				{`\n`, "\n"}, {`\"`, `"`}, {`\\`, `\`}, {`\u00e9`, "é"}, {`\ud83d\ude00`, "😀"},
				{`\n` + "é", "\né"}, {"é" + `\t`, "é\t"},
			} {
				sc.buf = sc.buf[:0]
				// an escape first so the rest goes through unescapeJSONString
				msg := []byte(`"\/` + body[:at] + tc.in + body[at:] + `"`)
				v, end, err := scanJSONString(msg, 1, &sc)
				if err != nil || end != len(msg) {
					t.Fatalf("len %d, %q at %d: end %d err %v", n, tc.in, at, end, err)
				}
				if got, want := string(sc.bytes(msg, v)), "/"+body[:at]+tc.out+body[at:]; got != want {
					t.Fatalf("len %d, %q at %d: %q, want %q", n, tc.in, at, got, want)
				}
			}
			for _, bad := range []struct {
				in  string
				err error
			}{{"\x01", errJSONCtrl}, {"\xff", errBadUTF8}, {`\x`, errJSONEscape}} {
				sc.buf = sc.buf[:0]
				msg := []byte(`"\/` + body[:at] + bad.in + body[at:] + `"`)
				if _, _, err := scanJSONString(msg, 1, &sc); err != bad.err {
					t.Fatalf("len %d, %q at %d: err %v, want %v", n, bad.in, at, err, bad.err)
				}
				msg = msg[:len(msg)-1] // no closing quote
				if _, _, err := scanJSONString(msg, 1, &sc); err == nil {
					t.Fatalf("len %d, %q at %d, unterminated: no error", n, bad.in, at)
				}
			}
			sc.buf = sc.buf[:0]
			msg := []byte(`"\/` + body)
			if _, _, err := scanJSONString(msg, 1, &sc); err != errTruncated {
				t.Fatalf("len %d unterminated: err %v, want %v", n, err, errTruncated)
			}
		}
	}
}

// BenchmarkScanJSONString: a ~1 KiB record's padded value, 900 letters.
func BenchmarkScanJSONString(b *testing.B) {
	msg := make([]byte, 0, 904)
	msg = append(msg, '"')
	for i := range 900 {
		msg = append(msg, 'a'+byte(i%26))
	}
	msg = append(msg, '"', '}')
	var sc scratch
	b.SetBytes(900)
	for b.Loop() {
		if _, _, err := scanJSONString(msg, 1, &sc); err != nil {
			b.Fatal(err)
		}
	}
}
