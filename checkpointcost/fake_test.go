package checkpointcost

import (
	"context"
	"io"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fastpathlab/fplab/source/consume"
)

// fakeReader is an in-memory consume.Reader: it emits batches of up to
// batch rows from pos to stop, taking rows partition by partition in chunks
// of chunk (so a batch spans partitions). It never sleeps: tests that need
// checkpoints between batches count batches (batchTrigger), not time.
type fakeReader struct {
	mem        memory.Allocator
	schema     *arrow.Schema
	pos, stop  []int64
	batch      int
	chunk      int64
	part       int
	out        consume.Batch
	stats      consume.Stats
	partB, ofB *array.Int64Builder
	// onBatch, if set, is told of every batch handed out and of the end
	// (with done true).
	onBatch func(done bool)
}

func newFakeReader(mem memory.Allocator, start, stop []int64, batch int) *fakeReader {
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "partition", Type: arrow.PrimitiveTypes.Int64},
		{Name: "offset", Type: arrow.PrimitiveTypes.Int64},
	}, nil)
	f := &fakeReader{
		mem: mem, schema: schema, pos: append([]int64(nil), start...), stop: stop,
		batch: batch, chunk: int64(batch/3 + 1),
		partB: array.NewInt64Builder(mem), ofB: array.NewInt64Builder(mem),
	}
	if f.pos == nil {
		f.pos = make([]int64, len(stop))
	}
	f.out.Split = make([]int64, len(stop))
	return f
}

func (f *fakeReader) Next(ctx context.Context) (*consume.Batch, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	f.out.Partitions, f.out.Offsets = f.out.Partitions[:0], f.out.Offsets[:0]
	for tries := 0; len(f.out.Partitions) < f.batch && tries <= len(f.pos); {
		p := f.part
		n := min(f.chunk, f.stop[p]-f.pos[p], int64(f.batch-len(f.out.Partitions)))
		if n <= 0 {
			f.part = (f.part + 1) % len(f.pos)
			tries++
			continue
		}
		tries = 0
		for i := int64(0); i < n; i++ {
			f.out.Partitions = append(f.out.Partitions, int32(p))
			f.out.Offsets = append(f.out.Offsets, f.pos[p]+i)
		}
		f.pos[p] += n
		f.part = (f.part + 1) % len(f.pos)
	}
	if len(f.out.Partitions) == 0 {
		if f.onBatch != nil {
			f.onBatch(true)
		}
		return nil, io.EOF
	}
	if f.onBatch != nil {
		defer f.onBatch(false)
	}
	if f.stats.First.IsZero() {
		f.stats.First = time.Now()
	}
	for i, p := range f.out.Partitions {
		f.partB.Append(int64(p))
		f.ofB.Append(f.out.Offsets[i])
	}
	pa, oa := f.partB.NewArray(), f.ofB.NewArray()
	n := int64(len(f.out.Partitions))
	f.out.Rec = array.NewRecordBatch(f.schema, []arrow.Array{pa, oa}, n)
	pa.Release()
	oa.Release()
	copy(f.out.Split, f.pos)
	f.stats.Records += n
	f.stats.Batches++
	return &f.out, nil
}

func (f *fakeReader) Stats() consume.Stats { return f.stats }

func (f *fakeReader) Assertions() (consume.Assertions, error) {
	return consume.Assertions{Client: "fake"}, nil
}

func (f *fakeReader) Close() error {
	f.partB.Release()
	f.ofB.Release()
	return nil
}

// batchTrigger triggers a checkpoint every `every` batches, whatever the
// clock says, so tests fix how many batches lie between checkpoints.
type batchTrigger struct {
	every, next int64
	last        int64
}

func (b *batchTrigger) due(now time.Time, batches int64) (time.Time, bool) {
	if b.next == 0 {
		b.next = b.every
	}
	b.last = batches
	return now, batches >= b.next
}

func (b *batchTrigger) finished(time.Time) { b.next = b.last + b.every }
