package workloads

import (
	"math/rand/v2"
	"testing"
)

// TestCopyShort: every length up to 32 is copied whole, without a byte
// past it, and reported ASCII exactly when no byte has its high bit set,
// wherever the high byte is.
func TestCopyShort(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for n := range 33 {
		for round := range 200 {
			v := make([]byte, n)
			for i := range v {
				v[i] = byte(r.IntN(0x80))
			}
			want := true
			if n > 0 && round%2 == 1 {
				v[r.IntN(n)] |= 0x80
				want = false
			}
			buf := make([]byte, n+8)
			for i := range buf {
				buf[i] = 0xee
			}
			if got := copyShort(buf[:n], v); got != want {
				t.Fatalf("len %d % x: ascii %v, want %v", n, v, got, want)
			}
			if string(buf[:n]) != string(v) {
				t.Fatalf("len %d: copied % x, want % x", n, buf[:n], v)
			}
			for _, c := range buf[n:] {
				if c != 0xee {
					t.Fatalf("len %d: wrote past the copy: % x", n, buf)
				}
			}
		}
	}
}
