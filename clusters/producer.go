package clusters

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"
)

const (
	// recordSlab is how many kgo.Records a generator allocates at once.
	recordSlab = 4096
	// valueSlab is the size of the buffers generators append values to.
	valueSlab = 1 << 20
	// minValueRoom is the room below which a generator starts a new buffer.
	minValueRoom = 4096
	// ctxCheckEvery is how often a generator looks at ctx and the clock.
	ctxCheckEvery = 1024
)

// producer feeds one kgo client from several generator goroutines.
// Generator g owns the partitions p with p % generators == g and produces
// each of them in offset order, so per-partition order holds.
type producer struct {
	cl         *kgo.Client
	topic      string
	partitions int
	n          int
	message    func(dst []byte, i int) []byte

	errOnce sync.Once
	err     error
	cancel  context.CancelFunc
}

// run produces the corpus and flushes; it returns the value bytes written.
func (pr *producer) run(ctx context.Context, generators int) (int64, error) {
	ctx, pr.cancel = context.WithCancel(ctx)
	defer pr.cancel()
	var (
		wg    sync.WaitGroup
		bytes atomic.Int64
	)
	for g := range generators {
		wg.Add(1)
		go func() {
			defer wg.Done()
			bytes.Add(pr.generate(ctx, g, generators))
		}()
	}
	wg.Wait()
	if err := pr.cl.Flush(ctx); err != nil {
		pr.fail(err)
	}
	pr.errOnce.Do(func() {}) // no failure recorded after this point
	if pr.err != nil {
		return 0, pr.err
	}
	return bytes.Load(), nil
}

// fail records the first error and stops the generators.
func (pr *producer) fail(err error) {
	pr.errOnce.Do(func() {
		pr.err = err
		pr.cancel()
	})
}

// promise is shared by every record: only failures matter.
func (pr *producer) promise(_ *kgo.Record, err error) {
	if err != nil {
		pr.fail(err)
	}
}

// generate produces the records of generator g's partitions and returns
// the value bytes it produced.
func (pr *producer) generate(ctx context.Context, g, generators int) int64 {
	var (
		slab  []kgo.Record
		buf   []byte
		bytes int64
		count int
		now   time.Time
	)
	for base := 0; base < pr.n; base += pr.partitions {
		for p := g; p < pr.partitions; p += generators {
			i := base + p
			if i >= pr.n {
				break
			}
			if count++; count%ctxCheckEvery == 1 {
				if ctx.Err() != nil {
					return bytes
				}
				// One clock read per slab of records, not one per record.
				now = time.Now()
			}
			if len(slab) == 0 {
				slab = make([]kgo.Record, recordSlab)
			}
			r := &slab[0]
			slab = slab[1:]
			if cap(buf)-len(buf) < minValueRoom {
				buf = make([]byte, 0, valueSlab)
			}
			dst := buf[len(buf):]
			v := pr.message(dst, i)
			if len(v) > 0 && &v[:1][0] == &dst[:1][0] {
				buf = buf[:len(buf)+len(v)] // appended in place
			}
			r.Topic = pr.topic
			r.Partition = int32(p)
			r.Value = v[:len(v):len(v)]
			r.Timestamp = now
			bytes += int64(len(v))
			pr.cl.Produce(ctx, r, pr.promise)
		}
	}
	return bytes
}
