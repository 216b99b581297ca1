package stock

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fastpathlab/fplab/workloads"
)

// BenchmarkDecode is Measure's loop in go test -bench form, one op per
// record, for profiling a route:
//
//	go test -run '^$' -bench 'Decode/format=json/lib=lab$' -cpuprofile cpu.out ./workloads/stock
func BenchmarkDecode(b *testing.B) {
	for _, f := range Formats() {
		_, _, msgs := corpus(b, f, DefaultSchema, 42, BatchRows)
		for _, r := range Routes(f) {
			b.Run("format="+string(f)+"/lib="+r.Lib, func(b *testing.B) {
				s, err := workloads.SchemaByName(DefaultSchema)
				if err != nil {
					b.Fatal(err)
				}
				c, err := workloads.NewCodec(f, s)
				if err != nil {
					b.Fatal(err)
				}
				d, err := r.New(c.Schema(), memory.NewGoAllocator())
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
