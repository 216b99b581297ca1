package source_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/fastpathlab/fplab/clusters"
	"github.com/fastpathlab/fplab/source"
	"github.com/fastpathlab/fplab/source/consume"
	"github.com/fastpathlab/fplab/workloads"
)

// TestDiscoveryJoinsNewPartitionsFromTheirStart: a live reader with
// partition discovery on reads the topic's partitions; two partitions are
// added while it reads and records written to every partition, the new
// ones included, all arrive, each once, in offset order per partition,
// the new partitions from offset 0; the batches' split grows to the five
// partitions. A reader without discovery gets the old partitions' records
// and nothing of the new ones.
func TestDiscoveryJoinsNewPartitionsFromTheirStart(t *testing.T) {
	for _, p := range livePaths {
		t.Run(fmt.Sprintf("path=%s", p), func(t *testing.T) {
			tp := loadTopic(t, workloads.FormatJSON, fresh("disc"), withRecords(30))
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			open := func(disc time.Duration) *liveReader {
				cfg := tp.config(p, 16, memory.NewGoAllocator())
				cfg.Live, cfg.Linger, cfg.Discovery = true, 5*time.Millisecond, disc
				r, err := source.Open(ctx, cfg)
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { r.Close() })
				return &liveReader{r: r, last: map[int32]int64{}}
			}
			withDisc, without := open(20*time.Millisecond), open(0)

			write := func(parts int) int {
				values := map[int32][][]byte{}
				for q := range parts {
					for i := range 4 {
						values[int32(q)] = append(values[int32(q)], tp.corpus.Message(nil, q*4+i))
					}
				}
				tp.append(t, values)
				return parts * 4
			}
			n := write(testParts)
			withDisc.until(ctx, t, n)
			without.until(ctx, t, n)

			raw, err := kgo.NewClient(kgo.SeedBrokers(tp.cluster.Bootstrap...))
			if err != nil {
				t.Fatal(err)
			}
			defer raw.Close()
			if _, err := kadm.NewClient(raw).CreatePartitions(ctx, 2, tp.name); err != nil {
				t.Fatal(err)
			}
			n = write(testParts + 2)
			withDisc.until(ctx, t, n)
			for q := int32(testParts); q < testParts+2; q++ {
				if withDisc.first[q] != 0 || withDisc.last[q] != 3 {
					t.Errorf("new partition %d: offsets %d..%d, want 0..3", q, withDisc.first[q], withDisc.last[q])
				}
			}
			if len(withDisc.split) != testParts+2 {
				t.Errorf("split %v, want %d partitions", withDisc.split, testParts+2)
			}
			// without discovery: the old partitions' 12 new records, and
			// no partition but the old ones ever delivered
			without.until(ctx, t, testParts*4)
			for q := range int32(testParts + 2) {
				if _, ok := without.last[q]; ok != (q < testParts) {
					t.Errorf("without discovery: partition %d delivered %v", q, ok)
				}
			}
			if len(without.split) != testParts {
				t.Errorf("without discovery the split is %v", without.split)
			}
		})
	}
}

// liveReader reads rows of a live topic, checking that each partition's
// offsets follow each other without a gap or a repeat, and keeps the
// first and last offset per partition and the last split.
type liveReader struct {
	r     consume.Reader
	first map[int32]int64
	last  map[int32]int64
	split []int64
}

// until reads batches until want more rows arrived.
func (lr *liveReader) until(ctx context.Context, t *testing.T, want int) {
	t.Helper()
	if lr.first == nil {
		lr.first = map[int32]int64{}
	}
	for got := 0; got < want; {
		b, err := lr.r.Next(ctx)
		if err != nil {
			t.Fatalf("after %d of %d rows: %v", got, want, err)
		}
		for i, p := range b.Partitions {
			off := b.Offsets[i]
			last, seen := lr.last[p]
			if seen && off != last+1 {
				t.Fatalf("partition %d: offset %d after %d", p, off, last)
			}
			if !seen {
				lr.first[p] = off
			}
			lr.last[p] = off
		}
		got += len(b.Partitions)
		lr.split = append(lr.split[:0], b.Split...)
		b.Rec.Release()
	}
}

// TestDiscoveryNeverHoldsUpTheRead: while a look for added partitions is
// under way (here held until the test ends), the reader goes on handing
// over the records written to its partitions: the look runs beside the
// read, not in it (a metadata request can wait behind a fetch on the same
// broker connection).
func TestDiscoveryNeverHoldsUpTheRead(t *testing.T) {
	for _, p := range livePaths {
		t.Run(fmt.Sprintf("path=%s", p), func(t *testing.T) {
			entered := make(chan struct{}, 1)
			source.WrapDiscoveryLookup(t, func(f func(context.Context) (int, error)) func(context.Context) (int, error) {
				return func(ctx context.Context) (int, error) {
					select {
					case entered <- struct{}{}:
					default:
					}
					<-ctx.Done() // held until the reader closes
					return 0, ctx.Err()
				}
			})
			tp := loadTopic(t, workloads.FormatJSON, fresh("discheld"), withRecords(30))
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			cfg := tp.config(p, 16, memory.NewGoAllocator())
			cfg.Live, cfg.Linger, cfg.Discovery = true, 5*time.Millisecond, 10*time.Millisecond
			r, err := source.Open(ctx, cfg)
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			<-entered
			values := map[int32][][]byte{}
			for q := range int32(testParts) {
				for i := range 4 {
					values[q] = append(values[q], tp.corpus.Message(nil, i))
				}
			}
			tp.append(t, values)
			lr := &liveReader{r: r, last: map[int32]int64{}}
			lr.until(ctx, t, testParts*4)
		})
	}
}

// TestDiscoveryOutlastsFailedLooks: looks that fail now and then leave
// the read alone, and partitions added meanwhile still join; looks that
// keep failing for the reader's timeout end the read with their error.
// A record written to the old partitions before every Next keeps them
// busy, so no stall ends the read.
func TestDiscoveryOutlastsFailedLooks(t *testing.T) {
	for _, p := range livePaths {
		t.Run(fmt.Sprintf("path=%s", p), func(t *testing.T) {
			var looks atomic.Int64
			broken := atomic.Bool{}
			source.WrapDiscoveryLookup(t, func(f func(context.Context) (int, error)) func(context.Context) (int, error) {
				return func(ctx context.Context) (int, error) {
					if n := looks.Add(1); broken.Load() || n%2 == 1 {
						return 0, errors.New("metadata: broker gone")
					}
					return f(ctx)
				}
			})
			tp := loadTopic(t, workloads.FormatJSON, fresh("discflaky"), withRecords(30))
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			cfg := tp.config(p, 16, memory.NewGoAllocator())
			cfg.Live, cfg.Linger, cfg.Discovery, cfg.Timeout = true, 5*time.Millisecond, 10*time.Millisecond, 5*time.Second
			r, err := source.Open(ctx, cfg)
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			busy := map[int32][][]byte{}
			for q := range int32(testParts) {
				busy[q] = [][]byte{tp.corpus.Message(nil, 0)}
			}
			next := func() (*consume.Batch, error) {
				tp.append(t, busy)
				return r.Next(ctx)
			}
			if err := clusters.AddPartitions(ctx, tp.cluster, tp.name, testParts+1); err != nil {
				t.Fatal(err)
			}
			tp.append(t, map[int32][][]byte{testParts: {tp.corpus.Message(nil, 0)}})
			for joined := false; !joined; {
				b, err := next()
				if err != nil {
					t.Fatalf("before the added partition's record: %v", err)
				}
				for i, q := range b.Partitions {
					if q == testParts {
						if b.Offsets[i] != 0 {
							t.Fatalf("added partition's first offset %d", b.Offsets[i])
						}
						joined = true
					}
				}
				b.Rec.Release()
			}
			broken.Store(true)
			for {
				b, err := next()
				if err != nil {
					if !strings.Contains(err.Error(), "metadata: broker gone (failing for") {
						t.Fatalf("after looks kept failing: %v", err)
					}
					break
				}
				b.Rec.Release()
			}
		})
	}
}
