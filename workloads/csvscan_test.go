package workloads

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// naiveCSVPlainStop is csvPlainStop as the byte loop it replaced.
func naiveCSVPlainStop(b []byte, i int) int {
	for ; i < len(b); i++ {
		if csvPlainStopByte(b[i]) {
			return i
		}
	}
	return len(b)
}

// TestCSVPlainStop: the word scan finds the same first stop as the byte
// loop for every byte value at every position of lines of every length
// through the four-word loop and its tail, from every start, and on
// random lines where stops, high bytes and borrows meet.
func TestCSVPlainStop(t *testing.T) {
	fill := []byte("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-")
	for n := range 100 {
		line := make([]byte, n)
		for i := range line {
			line[i] = fill[i%len(fill)]
		}
		for pos := range n {
			for c := range 256 {
				orig := line[pos]
				line[pos] = byte(c)
				for _, from := range []int{0, 1, pos} {
					if from > n {
						continue
					}
					if got, want := csvPlainStop(line, from), naiveCSVPlainStop(line, from); got != want {
						t.Fatalf("byte %#02x at %d of %d, from %d: csvPlainStop %d, byte loop %d", c, pos, n, from, got, want)
					}
				}
				line[pos] = orig
			}
		}
	}
	r := rand.New(rand.NewPCG(3, 4))
	alphabet := []byte(",\"\r\n\x00\x01\x7f\x80\x81\xac\xae\xff\x2b\x2d\x21\x23\x0b\x0c\x0e\x09aZ")
	for range 200_000 {
		line := make([]byte, r.IntN(300))
		for i := range line {
			if r.IntN(8) == 0 {
				line[i] = alphabet[r.IntN(len(alphabet))]
			} else {
				line[i] = byte(r.IntN(256))
			}
		}
		from := 0
		if len(line) > 0 {
			from = r.IntN(len(line) + 1)
		}
		if got, want := csvPlainStop(line, from), naiveCSVPlainStop(line, from); got != want {
			t.Fatalf("%q from %d: csvPlainStop %d, byte loop %d", line, from, got, want)
		}
	}
}

// TestCSVQuotedRuns: a quoted field with doubled quotes anywhere, at its
// start, its end and side by side, comes out with each pair as one quote,
// and an unterminated one is an error.
func TestCSVQuotedRuns(t *testing.T) {
	for _, v := range []string{"", `"`, `""`, `a"b`, `"a`, `a"`, `a""b`, `"""`, "x,\r\ny", string(bytes.Repeat([]byte(`ab"`), 400))} {
		quoted := append([]byte{'"'}, append(bytes.ReplaceAll([]byte(v), []byte(`"`), []byte(`""`)), '"')...)
		var sc scratch
		got, i, err := csvQuoted(quoted, 1, &sc)
		if err != nil || i != len(quoted) || string(sc.bytes(quoted, got)) != v {
			t.Errorf("csvQuoted(%q) = %q, %d, %v; want %q, %d", quoted, sc.bytes(quoted, got), i, err, v, len(quoted))
		}
		if _, _, err := csvQuoted(quoted[:len(quoted)-1], 1, &sc); err == nil {
			t.Errorf("csvQuoted(%q) without its closing quote: no error", quoted[:len(quoted)-1])
		}
	}
}
