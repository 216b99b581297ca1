package cell

import "testing"

// TestFastDrain pins the fast path's default crossing: ahead only where a
// bounded read decodes, the callback drain otherwise, a named drain always.
func TestFastDrain(t *testing.T) {
	for _, tc := range []struct {
		name, want string
	}{
		{"path=fast/format=json/batch=8192/brokers=3/alloc=go/crc=off", DrainAhead},
		{"path=fast/format=avro/batch=8192/brokers=3/alloc=go/crc=off/decoder=stock", DrainAhead},
		{"path=fast/format=protobuf/batch=8192/brokers=3/alloc=go/crc=off/ckpt=1s", DrainAhead},
		{"path=fast/format=raw/batch=8192/brokers=3/alloc=go/crc=off", DrainCallback},
		{"path=fast/format=json/batch=8192/brokers=3/alloc=go/crc=off/decoder=none", DrainCallback},
		{"path=fast/format=json/batch=8192/brokers=1/alloc=go/crc=off/mode=live/rate=10000/linger=10ms", DrainCallback},
		{"path=fast/format=json/batch=8192/brokers=3/alloc=go/crc=off/drain=callback", DrainCallback},
		{"path=fast/format=json/batch=8192/brokers=3/alloc=go/crc=off/drain=batchqueue", DrainBatchQueue},
		{"path=fast/format=raw/batch=8192/brokers=3/alloc=go/crc=off/drain=ahead", DrainAhead},
		{"path=shallow/format=json/batch=8192/brokers=3/alloc=go/crc=off", ""},
	} {
		c, err := Parse(tc.name)
		if err != nil {
			t.Fatal(err)
		}
		if got := c.FastDrain(); got != tc.want {
			t.Errorf("%s: FastDrain = %q, want %q", tc.name, got, tc.want)
		}
	}
}
