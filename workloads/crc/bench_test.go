package crc

import (
	"fmt"
	"runtime"
	"testing"
)

// BenchmarkCRC32C is the micro-benchmark in `go test -bench` form, named
// like Measure's output: BenchmarkCRC32C/impl=go-castagnoli/size=128.
//
//	go test -run '^$' -bench CRC32C -count 10 ./workloads/crc/ | tee crc.txt
func BenchmarkCRC32C(b *testing.B) {
	for _, size := range DefaultSizes {
		buf := make([]byte, size)
		for i := range buf {
			buf[i] = byte(i * 131)
		}
		for _, im := range Impls() {
			b.Run(fmt.Sprintf("impl=%s/size=%d", im.Name, size), func(b *testing.B) {
				b.SetBytes(int64(size))
				var acc uint32
				for b.Loop() {
					acc ^= im.Sum(buf)
				}
				runtime.KeepAlive(acc)
			})
		}
	}
}
