package crc

import (
	"bytes"
	"context"
	"errors"
	"hash/crc32"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

// The CRC-32C check value (RFC 3720 appendix, "123456789").
func TestCheckValue(t *testing.T) {
	for _, im := range Impls() {
		if got := im.Sum([]byte("123456789")); got != 0xE3069283 {
			t.Errorf("%s: check value %#08x, want 0xe3069283", im.Name, got)
		}
	}
}

// TestSlicing8MatchesStdlib covers every tail length and misaligned start.
func TestSlicing8MatchesStdlib(t *testing.T) {
	tab := crc32.MakeTable(crc32.Castagnoli)
	s := NewSlicing8()
	rng := rand.New(rand.NewPCG(1, 2))
	buf := make([]byte, 4096+7)
	for i := range buf {
		buf[i] = byte(rng.Uint32())
	}
	for off := range 8 {
		for n := 0; n <= 300; n++ {
			p := buf[off : off+n]
			if got, want := s.Checksum(p), crc32.Checksum(p, tab); got != want {
				t.Fatalf("off %d len %d: %#08x, want %#08x", off, n, got, want)
			}
		}
	}
	// Update chains like hash/crc32.Update.
	a, b := buf[:1000], buf[1000:]
	if got, want := s.Update(s.Checksum(a), b), crc32.Checksum(buf, tab); got != want {
		t.Fatalf("chained Update %#08x, want %#08x", got, want)
	}
}

func TestImplByName(t *testing.T) {
	if im, err := ImplByName(SWSlicing8); err != nil || im.Name != SWSlicing8 {
		t.Fatalf("ImplByName(%q) = %v, %v", SWSlicing8, im.Name, err)
	}
	_, err := ImplByName("crc64")
	if err == nil || err.Error() != `unknown implementation "crc64" (have go-castagnoli, sw-slicing8)` {
		t.Fatalf("unknown impl: err %v", err)
	}
}

func TestMeasureAndWriteBench(t *testing.T) {
	rs, err := Measure(context.Background(), Options{Sizes: []int{128, 4096}, MinTime: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) != 4 {
		t.Fatalf("%d results, want 2 impls x 2 sizes", len(rs))
	}
	for _, r := range rs {
		if r.Iters < 1 || !(r.NsPerMsg > 0) || !(r.MBps > 0) {
			t.Errorf("%s: implausible result %+v", r.Name(), r)
		}
	}
	var b bytes.Buffer
	if err := WriteBench(&b, rs, "cpu: test-cpu"); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{"goarch: ", "crc32c-hw: ", "cpu: test-cpu\n",
		"BenchmarkCRC32C/impl=go-castagnoli/size=128\t", "BenchmarkCRC32C/impl=sw-slicing8/size=4096\t", " ns/msg\t", " MB/s\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

func TestMeasureBadInput(t *testing.T) {
	ctx := context.Background()
	for _, opt := range []Options{{Sizes: []int{0}}, {Sizes: []int{-5}}, {Impls: []string{"nope"}}} {
		if _, err := Measure(ctx, opt); err == nil || strings.Contains(err.Error(), "\n") {
			t.Errorf("Measure(%+v): err %v, want one line", opt, err)
		}
	}
	canceled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := Measure(canceled, Options{Sizes: []int{16}}); !errors.Is(err, context.Canceled) {
		t.Errorf("Measure on a canceled context: err %v, want context.Canceled", err)
	}
	if err := WriteBench(&bytes.Buffer{}, nil); err == nil {
		t.Error("WriteBench accepted no results")
	}
	rs := []Result{{Impl: "x", Size: 1, Iters: 1, NsPerMsg: 1, MBps: 1}}
	if err := WriteBench(&bytes.Buffer{}, rs, "no colon"); err == nil {
		t.Error("WriteBench accepted a malformed config line")
	}
}
