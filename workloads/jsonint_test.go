package workloads

import (
	"math/rand/v2"
	"strconv"
	"testing"
)

// refJSONInt is scanJSONInt's contract written plainly: an optional minus,
// a run of digits without a leading zero, not followed by a fraction or an
// exponent, in int64.
func refJSONInt(b []byte, i int) (int64, int, bool) {
	j := i
	if j < len(b) && b[j] == '-' {
		j++
	}
	k := j
	for k < len(b) && b[k] >= '0' && b[k] <= '9' {
		k++
	}
	if k == j || (b[j] == '0' && k-j > 1) {
		return 0, 0, false
	}
	if k < len(b) && (b[k] == '.' || b[k] == 'e' || b[k] == 'E') {
		return 0, 0, false
	}
	v, err := strconv.ParseInt(string(b[i:k]), 10, 64)
	if err != nil {
		return 0, 0, false
	}
	return v, k, true
}

// TestScanJSONInt: runs of 0 to 21 digits, signed or not, followed by
// every byte value or by the message's end, then up to nine more bytes,
// give the reference's value, end and verdict; so do the edges of int64.
func TestScanJSONInt(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	check := func(b []byte) {
		t.Helper()
		v, end, err := scanJSONInt(b, 0)
		wv, wend, ok := refJSONInt(b, 0)
		if (err == nil) != ok || (ok && (v != wv || end != wend)) {
			t.Fatalf("%q: got %d, %d, %v; want %d, %d, ok %v", b, v, end, err, wv, wend, ok)
		}
	}
	for n := 0; n <= 21; n++ {
		for _, neg := range []bool{false, true} {
			for stop := -1; stop < 256; stop++ {
				for tail := 0; tail <= 9; tail++ {
					var b []byte
					if neg {
						b = append(b, '-')
					}
					for range n {
						b = append(b, byte('0'+r.IntN(10)))
					}
					if stop >= 0 {
						b = append(b, byte(stop))
					}
					for range tail {
						b = append(b, byte(r.IntN(256)))
					}
					check(b)
				}
			}
		}
	}
	for _, s := range []string{"9223372036854775807", "-9223372036854775808", "9223372036854775808", "-9223372036854775809", "0", "-0", "00", "-01", "1e3", "1.5", "12345678901234567}"} {
		check([]byte(s))
	}
}
