package clusters

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/fastpathlab/fplab/workloads"
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
// each of them in sequence order, so per-partition order holds. Record i
// goes where layout places it; without WithLayout the layout is the zero
// Shape's, record i to partition i % partitions.
type producer struct {
	cl      *kgo.Client
	topic   string
	layout  *workloads.Layout
	message func(dst []byte, i int) []byte
	meta    func(i int, r *kgo.Record) // nil: no key, no headers

	mu     sync.Mutex
	err    error
	cancel context.CancelFunc
}

// span is the sequence numbers [from, to) of partition p to produce.
type span func(p int) (from, to int)

// run produces the whole corpus without transactions and flushes; it
// returns the value bytes written.
func (pr *producer) run(ctx context.Context, generators int) (int64, error) {
	ctx, pr.cancel = context.WithCancel(ctx)
	defer pr.cancel()
	bytes := pr.produce(ctx, generators, func(p int) (int, int) { return 0, pr.layout.Records(p) })
	if err := pr.cl.Flush(ctx); err != nil {
		pr.fail(err)
	}
	if err := pr.failed(); err != nil {
		return 0, err
	}
	return bytes, nil
}

// runTxns produces the corpus in the layout's transactions, one after the
// other: each produces every partition's share of it, is flushed, and is
// committed or aborted as the layout says. The client must be
// transactional. A failure leaves the open transaction to the
// coordinator, which aborts it after the transaction timeout.
func (pr *producer) runTxns(ctx context.Context, generators int) (int64, error) {
	ctx, pr.cancel = context.WithCancel(ctx)
	defer pr.cancel()
	var total int64
	for k := range pr.layout.Txns() {
		if err := pr.cl.BeginTransaction(); err != nil {
			return 0, fmt.Errorf("begin transaction %d of %d: %w", k, pr.layout.Txns(), err)
		}
		total += pr.produce(ctx, generators, func(p int) (int, int) { return pr.layout.TxnRange(p, k) })
		if err := pr.cl.Flush(ctx); err != nil {
			pr.fail(err)
		}
		if err := pr.failed(); err != nil {
			return 0, err
		}
		end, verb := kgo.TryCommit, "commit"
		if pr.layout.Aborted(k) {
			end, verb = kgo.TryAbort, "abort"
		}
		if err := pr.cl.EndTransaction(ctx, end); err != nil {
			return 0, fmt.Errorf("%s transaction %d of %d: %w", verb, k, pr.layout.Txns(), err)
		}
	}
	return total, nil
}

// produce runs the generators over the spans and returns the value bytes
// they produced once all of them are done (not flushed).
func (pr *producer) produce(ctx context.Context, generators int, s span) int64 {
	var (
		wg    sync.WaitGroup
		bytes atomic.Int64
	)
	for g := range generators {
		wg.Add(1)
		go func() {
			defer wg.Done()
			bytes.Add(pr.generate(ctx, g, generators, s))
		}()
	}
	wg.Wait()
	return bytes.Load()
}

// fail records the first error and stops the generators.
func (pr *producer) fail(err error) {
	pr.mu.Lock()
	defer pr.mu.Unlock()
	if pr.err == nil {
		pr.err = err
		pr.cancel()
	}
}

// failed is the first error recorded.
func (pr *producer) failed() error {
	pr.mu.Lock()
	defer pr.mu.Unlock()
	return pr.err
}

// promise is shared by every record: only failures matter.
func (pr *producer) promise(_ *kgo.Record, err error) {
	if err != nil {
		pr.fail(err)
	}
}

// generate produces the spans of generator g's partitions, interleaved one
// sequence number at a time across them (for the zero Shape that is record
// order), and returns the value bytes it produced. Tombstones get a nil
// value, a Kafka null.
func (pr *producer) generate(ctx context.Context, g, generators int, s span) int64 {
	var (
		slab  []kgo.Record
		buf   []byte
		bytes int64
		count int
		now   time.Time
		owned []int // partitions of g
		from  []int
		to    []int
	)
	for p := g; p < pr.layout.Partitions(); p += generators {
		f, t := s(p)
		if f < t {
			owned = append(owned, p)
			from = append(from, f)
			to = append(to, t)
		}
	}
	for step := 0; len(owned) > 0; step++ {
		left := 0
		for j, p := range owned {
			seq := from[j] + step
			if seq >= to[j] {
				continue
			}
			owned[left], from[left], to[left] = p, from[j], to[j]
			left++
			i, _ := pr.layout.Index(int32(p), seq)
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
			r.Topic = pr.topic
			r.Partition = int32(p)
			r.Timestamp = now
			if pr.meta != nil { // a tombstone keeps its key and headers
				pr.meta(i, r)
			}
			if !pr.layout.Null(i) {
				if cap(buf)-len(buf) < minValueRoom {
					buf = make([]byte, 0, valueSlab)
				}
				dst := buf[len(buf):]
				v := pr.message(dst, i)
				if len(v) > 0 && &v[:1][0] == &dst[:1][0] {
					buf = buf[:len(buf)+len(v)] // appended in place
				}
				r.Value = v[:len(v):len(v)]
				bytes += int64(len(v))
			}
			pr.cl.Produce(ctx, r, pr.promise)
		}
		owned, from, to = owned[:left], from[:left], to[:left]
	}
	return bytes
}
