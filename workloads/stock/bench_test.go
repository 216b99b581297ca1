package stock

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
)

// BenchmarkDecode is Measure's loop in go test -bench form, one op per
// record, for profiling a route:
//
//	go test -run '^$' -bench 'Decode/format=json/lib=lab$' -cpuprofile cpu.out ./workloads/stock
func BenchmarkDecode(b *testing.B) {
	for _, f := range Formats() {
		s, _, msgs := corpus(b, f, DefaultSchema, 42, BatchRows)
		for _, r := range Routes(f) {
			b.Run("format="+string(f)+"/lib="+r.Lib, func(b *testing.B) {
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
}
