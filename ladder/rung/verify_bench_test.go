package rung

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fastpathlab/fplab/source/consume"
	"github.com/fastpathlab/fplab/workloads"
)

// BenchmarkCheck is the rung's verification per row (verify-ns/rec's CPU
// side, off the machine's contention): v.check of raw and json batches of
// 8192 rows laid out as the fast path's crossings deliver them, runs of
// 1024 records per partition over 6 partitions. "hot" checks one batch
// again and again; "cold" cycles through enough batches (~60 MB of raw
// payloads) to leave the caches between two visits, as the rung meets a
// batch whose payloads the drain wrote megabytes earlier.
func BenchmarkCheck(b *testing.B) {
	const (
		parts, batch, run = 6, 8192, 1024
		batches           = 48
	)
	for _, f := range []workloads.Format{workloads.FormatRaw, workloads.FormatJSON} {
		s, _ := workloads.SchemaByName("bid")
		codec, err := workloads.NewCodec(f, s)
		if err != nil {
			b.Fatal(err)
		}
		count := batches * batch
		corpus := workloads.NewCorpus(s, codec, 1, count)
		layout, err := workloads.NewLayout(1, count, parts, workloads.Shape{})
		if err != nil {
			b.Fatal(err)
		}
		expected, err := expectedHashes(corpus, "")
		if err != nil {
			b.Fatal(err)
		}
		// batch k holds, for each partition in turn, runs of its next
		// records: the offsets rise within a partition across batches.
		next := make([]int64, parts)
		bs := make([]*consume.Batch, batches)
		var msg []byte
		for k := range bs {
			col := codec.NewColumnar(memory.NewGoAllocator())
			cb := &consume.Batch{}
			for r := range batch {
				p := (k*batch + r) / run % parts
				id, _ := layout.Index(int32(p), int(next[p]))
				msg = corpus.Message(msg[:0], id)
				if err := col.Append(msg); err != nil {
					b.Fatal(err)
				}
				cb.Partitions = append(cb.Partitions, int32(p))
				cb.Offsets = append(cb.Offsets, next[p])
				next[p]++
			}
			cb.Rec = col.NewRecordBatch()
			bs[k] = cb
		}
		verify := func(b *testing.B, pick func(i int) int) {
			v := newVerifier(batch, layout, corpus.NullHash, expected)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				k := pick(i)
				if k == 0 {
					for p := range v.last {
						v.last[p] = -1
					}
					v.short = false
				}
				if err := v.check(bs[k]); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/batch, "ns/row")
		}
		b.Run("format="+string(f)+"/cache=hot", func(b *testing.B) {
			verify(b, func(int) int { return 0 })
		})
		b.Run("format="+string(f)+"/cache=cold", func(b *testing.B) {
			verify(b, func(i int) int { return i % batches })
		})
		for _, cb := range bs {
			cb.Rec.Release()
		}
	}
}
