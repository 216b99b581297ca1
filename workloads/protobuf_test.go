package workloads

import (
	"encoding/binary"
	"math/bits"
	"math/rand/v2"
	"testing"
)

// TestPackVarint: the word decode of protoTags.parse reads what
// readUvarint reads, for every varint length it takes (1 to 8 bytes),
// whatever bytes follow the varint in the word.
func TestPackVarint(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for n := 1; n <= 8; n++ {
		for range 20000 {
			v := r.Uint64() >> (64 - 7*n) // n*7 bits: n varint bytes at most
			if n > 1 && r.IntN(4) == 0 {
				v |= 1 << (7*n - 1) // exactly n bytes
			}
			b := appendUvarint(nil, v)
			for len(b) < 8 {
				b = append(b, byte(r.Uint32()))
			}
			w := binary.LittleEndian.Uint64(b)
			m := ^w & highs
			want, next, ok := readUvarint(b, 0)
			if m == 0 || !ok {
				t.Fatalf("% x: no end in the word", b)
			}
			end := bits.TrailingZeros64(m)
			if got := packVarint(w, end); got != want || end>>3+1 != next {
				t.Fatalf("% x: packVarint %d, %d bytes; readUvarint %d, %d bytes", b, got, end>>3+1, want, next)
			}
		}
	}
}

// TestProtoFastPath: the columnar decoder's parse (one-byte tags by table,
// word varints) and the general parse give the same values and the same
// error for the corpus's messages and for mutations of them: bytes
// changed, cut short, fields repeated, reordered or unknown, long varints
// and lengths.
func TestProtoFastPath(t *testing.T) {
	for _, name := range SchemaNames() {
		c := mustCodec(t, FormatProtobuf, name).(*protoCodec)
		fast := newProtoTags(c.schema)
		cp := NewCorpus(c.schema, c, 7, 200)
		r := rand.New(rand.NewPCG(7, 8))
		check := func(msg []byte) {
			t.Helper()
			var a, b scratch
			errA := fast.parse(msg, &a)
			errB := c.parse(msg, &b)
			if errA != errB {
				t.Fatalf("%s % x: fast path error %v, general %v", name, msg, errA, errB)
			}
			if errA == nil && (a.ints != b.ints || a.strs != b.strs) {
				t.Fatalf("%s % x: fast path %v %v, general %v %v", name, msg, a.ints, a.strs, b.ints, b.strs)
			}
		}
		for i := range cp.Count() {
			msg := cp.Message(nil, i)
			check(msg)
			protoMutations(msg, r, 200, check)
		}
	}
}

// protoMutations passes check the mutations of msg the protobuf tests
// hold the fast paths to: msg cut short at every length, random rounds of
// one to three bytes changed, every field twice, a cut swapped, field 1
// with an over-long (padded) varint, an unknown field 16, and a string
// field 4 with a two-byte length, whole and cut short.
func protoMutations(msg []byte, r *rand.Rand, rounds int, check func([]byte)) {
	for n := range len(msg) {
		check(msg[:n])
	}
	for range rounds {
		m := append([]byte(nil), msg...)
		for range 1 + r.IntN(3) {
			m[r.IntN(len(m))] = byte(r.Uint32())
		}
		check(m)
	}
	check(append(append([]byte(nil), msg...), msg...))
	check(append(append([]byte(nil), msg[len(msg)/2:]...), msg[:len(msg)/2]...))
	check(append([]byte{1 << 3, 0x81, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00}, msg...))
	check(append(append([]byte(nil), msg...), 0x80, 0x01, 0x05))
	check(append(append([]byte(nil), msg...), 4<<3|2, 0x81, 0x00, 'x'))
	check(append(append([]byte(nil), msg...), 4<<3|2, 0x80, 0x01))
}
