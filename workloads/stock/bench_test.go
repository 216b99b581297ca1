package stock

import (
	"fmt"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/fastpathlab/fplab/workloads"
)

// BenchmarkDecode is Measure's loop in go test -bench form, one op per
// record, for profiling a route at the natural ~100 B records and at ~1
// KiB (size=1024, the extra field padded, as micro --value-size 1024):
//
//	go test -run '^$' -bench 'Decode/format=json/lib=lab/size=1024$' -cpuprofile cpu.out ./workloads/stock
func BenchmarkDecode(b *testing.B) {
	for _, f := range Formats() {
		for _, size := range []int{100, 1024} {
			var opts []workloads.CorpusOpt
			if size > 100 {
				opts = append(opts, workloads.ValueSize(size))
			}
			benchmarkDecode(b, f, size, opts)
		}
	}
}

func benchmarkDecode(b *testing.B, f workloads.Format, size int, opts []workloads.CorpusOpt) {
	s, _, msgs := corpus(b, f, DefaultSchema, 42, BatchRows, opts...)
	for _, r := range Routes(f) {
		b.Run(fmt.Sprintf("format=%s/lib=%s/size=%d", f, r.Lib, size), func(b *testing.B) {
			d, err := r.New(s, memory.NewGoAllocator())
			if err != nil {
				b.Fatal(err)
			}
			defer d.Release()
			b.ReportAllocs()
			n := 0
			for b.Loop() {
				if err := d.Append(msgs[n]); err != nil {
					b.Fatal(err)
				}
				if n++; n == len(msgs) {
					rec, err := d.NewRecordBatch()
					if err != nil {
						b.Fatal(err)
					}
					rec.Release()
					n = 0
				}
			}
		})
	}
}
