package workloads

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// Benchmarks report per message: ns/op is ns per message and MB/s is
// message bytes decoded per second. Batches of benchBatch rows are cut as
// the consume paths would, so builder reset costs are included.

const benchBatch = 8192

func benchCorpus(b *testing.B, cb combo) ([][]byte, int64) {
	cp := NewCorpus(cb.schema, cb.codec, 42, benchBatch)
	msgs := make([][]byte, cp.Count())
	var size int64
	for i := range msgs {
		msgs[i] = cp.Message(nil, i)
		size += int64(len(msgs[i]))
	}
	return msgs, size / int64(len(msgs))
}

func benchName(cb combo) string {
	return "format=" + string(cb.codec.Format()) + "/schema=" + cb.schema.Name
}

func BenchmarkColumnar(b *testing.B) {
	for _, cb := range combos(b) {
		b.Run(benchName(cb), func(b *testing.B) {
			msgs, size := benchCorpus(b, cb)
			col := cb.codec.NewColumnar(memory.NewGoAllocator())
			defer col.Release()
			b.SetBytes(size)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if err := col.Append(msgs[i%len(msgs)]); err != nil {
					b.Fatal(err)
				}
				if col.Len() == benchBatch {
					col.NewRecordBatch().Release()
				}
			}
		})
	}
}

// BenchmarkRowwise is the rowwise rung's decode: DecodeRow into a Go row,
// then the RowBuilder transposes it into Arrow.
func BenchmarkRowwise(b *testing.B) {
	for _, cb := range combos(b) {
		b.Run(benchName(cb), func(b *testing.B) {
			msgs, size := benchCorpus(b, cb)
			rb := NewRowBuilder(cb.codec.Schema(), memory.NewGoAllocator())
			defer rb.Release()
			b.SetBytes(size)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				var r Row
				if err := cb.codec.DecodeRow(msgs[i%len(msgs)], &r); err != nil {
					b.Fatal(err)
				}
				rb.Add(&r)
				if rb.Len() == benchBatch {
					rb.NewRecordBatch().Release()
				}
			}
		})
	}
}

// BenchmarkEncode is the loader's cost per message (generate and encode).
func BenchmarkEncode(b *testing.B) {
	for _, cb := range combos(b) {
		b.Run(benchName(cb), func(b *testing.B) {
			cp := NewCorpus(cb.schema, cb.codec, 42, 1<<20)
			_, size := benchCorpus(b, cb)
			var buf []byte
			b.SetBytes(size)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				buf = cp.Message(buf[:0], i%cp.Count())
			}
		})
	}
}

// BenchmarkChecksum is the verification cost per row: BatchChecksum of a
// decoded batch, and the corpus side (Corpus.Checksum) it is compared with.
func BenchmarkChecksum(b *testing.B) {
	for _, cb := range combos(b) {
		if cb.codec.Format() != FormatJSON && cb.codec.Format() != FormatRaw {
			continue // the batch is the same for every non-raw format
		}
		msgs, _ := benchCorpus(b, cb)
		rec := decodeAll(b, cb.codec, memory.NewGoAllocator(), msgs)
		b.Run("side=batch/"+benchName(cb), func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				BatchChecksum(rec)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(rec.NumRows()), "ns/row")
		})
		rec.Release()
		// The same batch cold: copies enough to leave the caches between
		// two visits, as the rung meets a batch whose payloads the fast
		// path's drain wrote a crossing (megabytes) earlier.
		cold := make([]arrow.RecordBatch, 48)
		for i := range cold {
			cold[i] = decodeAll(b, cb.codec, memory.NewGoAllocator(), msgs)
		}
		b.Run("side=batch-cold/"+benchName(cb), func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				BatchChecksum(cold[i%len(cold)])
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(cold[0].NumRows()), "ns/row")
		})
		for _, r := range cold {
			r.Release()
		}
		cp := NewCorpus(cb.schema, cb.codec, 42, benchBatch)
		b.Run("side=corpus/"+benchName(cb), func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				cp.Checksum(0, benchBatch)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/benchBatch, "ns/row")
		})
	}
}

// BenchmarkParse is the format parser alone (into the scratch, no Arrow
// buffers): BenchmarkColumnar minus this is the cost of writing the columns.
func BenchmarkParse(b *testing.B) {
	for _, cb := range combos(b) {
		b.Run(benchName(cb), func(b *testing.B) {
			msgs, size := benchCorpus(b, cb)
			col := asColumnar(cb.codec.NewColumnar(memory.NewGoAllocator()))
			defer col.Release()
			b.SetBytes(size)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				col.sc.buf = col.sc.buf[:0]
				if err := col.parse(msgs[i%len(msgs)], &col.sc); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkKeyColumns is the cost a keyed read adds per row: appending a
// record's key and two headers, and BatchChecksum of a keyed batch minus
// that of its value columns (side=checksum-keyed vs side=checksum-values).
func BenchmarkKeyColumns(b *testing.B) {
	c := mustCodec(b, FormatRaw, "bid")
	cp := NewCorpus(c.Schema(), c, 42, benchBatch, Keys())
	keys := make([][]byte, benchBatch)
	hdrs := make([][]Header, benchBatch)
	for i := range keys {
		keys[i], hdrs[i] = cp.Key(nil, i), cp.Headers(nil, i)
	}
	mem := memory.NewGoAllocator()
	k := NewKeyColumns(mem)
	defer k.Release()
	fill := func() {
		for i := range keys {
			k.Append(keys[i])
			for _, h := range hdrs[i] {
				k.AppendHeader(h.Key, h.Value)
			}
		}
	}
	b.Run("side=append", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			fill()
			key, h := k.NewColumns()
			key.Release()
			h.Release()
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/benchBatch, "ns/row")
	})
	msgs := make([][]byte, benchBatch)
	for i := range msgs {
		msgs[i] = cp.Message(nil, i)
	}
	values := decodeAll(b, c, mem, msgs)
	values.Retain()
	fill()
	rec := k.Attach(values)
	defer rec.Release()
	defer values.Release()
	for _, side := range []struct {
		name string
		rec  arrow.RecordBatch
	}{{"checksum-values", values}, {"checksum-keyed", rec}} {
		b.Run("side="+side.name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				BatchChecksum(side.rec)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/benchBatch, "ns/row")
		})
	}
}
