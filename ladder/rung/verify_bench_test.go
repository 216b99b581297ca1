package rung

import (
	"os"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fastpathlab/fplab/source/consume"
	"github.com/fastpathlab/fplab/workloads"
)

// laidOut is a corpus, its clean layout over 6 partitions and its batches
// of batch rows as the fast path's crossings deliver them: runs of run
// records per partition, offsets rising within each partition across
// batches.
type laidOut struct {
	codec   workloads.Codec
	corpus  *workloads.Corpus
	layout  *workloads.Layout
	hashes  *os.File
	batches []*consume.Batch
}

func layOut(tb testing.TB, f workloads.Format, mem memory.Allocator, n, batch, run int) *laidOut {
	tb.Helper()
	const parts = 6
	s, _ := workloads.SchemaByName("bid")
	codec, err := workloads.NewCodec(f, s)
	if err != nil {
		tb.Fatal(err)
	}
	count := n * batch
	if count%(run*parts) != 0 {
		tb.Fatalf("layOut: %d batches of %d rows are not whole rounds of %d-record runs over %d partitions", n, batch, run, parts)
	}
	lo := &laidOut{codec: codec, corpus: workloads.NewCorpus(s, codec, 1, count)}
	if lo.layout, err = workloads.NewLayout(1, count, parts, workloads.Shape{}); err != nil {
		tb.Fatal(err)
	}
	path, _, err := hashFile(lo.corpus, tb.TempDir())
	if err != nil {
		tb.Fatal(err)
	}
	if lo.hashes, err = openHashes(path, lo.corpus); err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { lo.hashes.Close() })
	next := make([]int64, parts)
	var msg []byte
	for k := range n {
		col := codec.NewColumnar(mem)
		cb := &consume.Batch{}
		for r := range batch {
			p := (k*batch + r) / run % parts
			id, _ := lo.layout.Index(int32(p), int(next[p]))
			msg = lo.corpus.Message(msg[:0], id)
			if err := col.Append(msg); err != nil {
				tb.Fatal(err)
			}
			cb.Partitions = append(cb.Partitions, int32(p))
			cb.Offsets = append(cb.Offsets, next[p])
			next[p]++
		}
		cb.Rec = col.NewRecordBatch()
		col.Release()
		lo.batches = append(lo.batches, cb)
	}
	tb.Cleanup(func() {
		for _, b := range lo.batches {
			if b.Rec != nil {
				b.Rec.Release()
			}
		}
	})
	return lo
}

func (lo *laidOut) verifier(batch int) *verifier {
	return newVerifier(batch, lo.layout, newWindows(lo.hashes, lo.corpus, lo.layout))
}

// BenchmarkCheck is the rung's verification per row (verify-ns/rec's CPU
// side, off the machine's contention): v.check of raw and json batches of
// 8192 rows in 1024-record partition runs. "hot" checks one batch again
// and again; "cold" cycles through enough batches (~60 MB of raw payloads)
// to leave the caches between two visits, as the rung meets a batch whose
// payloads the drain wrote megabytes earlier.
func BenchmarkCheck(b *testing.B) {
	const batch, n = 8192, 48
	for _, f := range []workloads.Format{workloads.FormatRaw, workloads.FormatJSON} {
		lo := layOut(b, f, memory.NewGoAllocator(), n, batch, 1024)
		verify := func(b *testing.B, pick func(i int) int) {
			v := lo.verifier(batch)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				k := pick(i)
				if k == 0 {
					for p := range v.last {
						v.last[p] = -1
					}
					v.shorts = 0
				}
				if err := v.check(lo.batches[k]); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/batch, "ns/row")
		}
		b.Run("format="+string(f)+"/cache=hot", func(b *testing.B) {
			verify(b, func(int) int { return 0 })
		})
		b.Run("format="+string(f)+"/cache=cold", func(b *testing.B) {
			verify(b, func(i int) int { return i % n })
		})
	}
}
