package source

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/confluentinc/confluent-kafka-go/v2/kafka"
	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
)

// Partition discovery (Config.Discovery), what Flink's KafkaSource does
// with partition.discovery.interval.ms on an unbounded read: once per
// interval, a goroutine of the reader's own asks the broker how many
// partitions its topic has, off the read path, as Flink's enumerator
// does it apart from its readers: a metadata request can wait behind a
// fetch on the same broker connection (a broker answers one request per
// connection at a time, and a fetch waits up to fetch.wait.max.ms for
// records), which on the read path held a Poll reader back that long at
// every look. The read path only takes the latest answer, before a wait
// for messages. Partitions added since the reader opened join the read
// from offset 0, their start (a partition created while the topic is read
// holds only what was written after), so nothing written to them is
// lost: the assembler grows (positions, split state), the client adds
// them to its assignment (librdkafka's incremental assign, franz-go's
// AddConsumePartitions), and from then on every Batch's Split has an
// entry per partition. Partitions are never removed (Kafka cannot), and a
// bounded read never discovers: its range is fixed at open.

// Discovery's bounds: a metadata request per interval at most, and an
// interval a test can drive.
var discoveryLimits = struct{ min, max time.Duration }{10 * time.Millisecond, time.Hour}

// discovery looks up a topic's partition count every interval on its own
// goroutine and keeps the latest answer.
type discovery struct {
	n    atomic.Int64 // partitions in the latest answer (0: none yet)
	err  atomic.Pointer[error]
	stop context.CancelFunc
	done chan struct{}
}

// lookupFunc answers a topic's partition count.
type lookupFunc func(ctx context.Context) (int, error)

// wrapLookup wraps every reader's lookup (tests: a gated one).
var wrapLookup = func(f lookupFunc) lookupFunc { return f }

// startDiscovery starts looking every interval with lookup, each look
// bounded by timeout; nil when every is 0 (no discovery). A look that
// fails is tried again at the next interval, as a fetch that fails is;
// looks failing for timeout on end the discovery, and the read, with the
// last one's error.
func startDiscovery(every, timeout time.Duration, lookup lookupFunc) *discovery {
	if every <= 0 {
		return nil
	}
	lookup = wrapLookup(lookup)
	ctx, cancel := context.WithCancel(context.Background())
	d := &discovery{stop: cancel, done: make(chan struct{})}
	go func() {
		defer close(d.done)
		tk := time.NewTicker(every)
		defer tk.Stop()
		var failing time.Time // the first of the failures in a row (zero: none)
		for {
			select {
			case <-ctx.Done():
				return
			case <-tk.C:
			}
			lctx, lcancel := context.WithTimeout(ctx, timeout)
			n, err := lookup(lctx)
			lcancel()
			if ctx.Err() != nil {
				return
			}
			if err != nil {
				now := time.Now()
				if failing.IsZero() {
					failing = now
				}
				if now.Sub(failing) >= timeout {
					err = fmt.Errorf("%w (failing for %v)", err, now.Sub(failing).Round(time.Millisecond))
					d.err.Store(&err)
					return
				}
				continue
			}
			failing = time.Time{}
			d.n.Store(int64(n))
		}
	}()
	return d
}

// seen is the latest partition count (0 before the first answer), or the
// look that failed.
func (d *discovery) seen() (int, error) {
	if d == nil {
		return 0, nil
	}
	if e := d.err.Load(); e != nil {
		return 0, *e
	}
	return int(d.n.Load()), nil
}

// close stops the looks and waits for one under way.
func (d *discovery) close() {
	if d == nil {
		return
	}
	d.stop()
	<-d.done
}

// grow adds partitions [len(pos), n) to the read, from offset 0, with no
// stop (a live read's).
func (a *assembler) grow(n int) {
	for p := len(a.pos); p < n; p++ {
		a.pos = append(a.pos, 0)
		a.stop = append(a.stop, unbounded)
		a.out.Split = append(a.out.Split, 0)
		a.remaining++
		if a.ps.paused != nil {
			a.ps.paused = append(a.ps.paused, false)
			a.ps.stale = append(a.ps.stale, false)
		}
	}
}

// rdkPartitions looks up topic's partition count with librdkafka.
func rdkPartitions(c *kafka.Consumer, topic string) lookupFunc {
	return func(ctx context.Context) (int, error) {
		ms := 10_000
		if dl, ok := ctx.Deadline(); ok {
			ms = max(1, int(time.Until(dl)/time.Millisecond))
		}
		md, err := c.GetMetadata(&topic, false, ms)
		if err != nil {
			return 0, fmt.Errorf("discovery: metadata of %q: %w", topic, err)
		}
		return len(md.Topics[topic].Partitions), nil
	}
}

// discover assigns the partitions discovery has seen added, from offset 0.
func (r *rdkConsumer) discover(a *assembler, cfg *Config) error {
	n, err := r.disc.seen()
	if err != nil || n <= len(a.pos) {
		return err
	}
	var tps []kafka.TopicPartition
	for p := len(a.pos); p < n; p++ {
		tps = append(tps, kafka.TopicPartition{Topic: &r.topic, Partition: int32(p), Offset: 0})
	}
	if err := r.c.IncrementalAssign(tps); err != nil {
		return fmt.Errorf("discovery: assign partitions %d..%d: %w", len(a.pos), n-1, err)
	}
	a.grow(n)
	cfg.Partitions = n
	return nil
}

// franzPartitions looks up topic's partition count with franz-go.
func franzPartitions(cl *kgo.Client, topic string) lookupFunc {
	return func(ctx context.Context) (int, error) {
		tds, err := kadm.NewClient(cl).ListTopics(ctx, topic)
		if err == nil {
			err = tds.Error()
		}
		if err != nil {
			return 0, fmt.Errorf("discovery: metadata of %q: %w", topic, err)
		}
		return len(tds[topic].Partitions), nil
	}
}

// discover adds the partitions discovery has seen added, from offset 0.
func (r *franzReader) discover() error {
	a, cfg := r.a, r.cfg
	n, err := r.disc.seen()
	if err != nil || n <= len(a.pos) {
		return err
	}
	offs := map[int32]kgo.Offset{}
	for p := len(a.pos); p < n; p++ {
		offs[int32(p)] = kgo.NewOffset().At(0)
	}
	r.cl.AddConsumePartitions(map[string]map[int32]kgo.Offset{cfg.Topic: offs})
	a.grow(n)
	cfg.Partitions = n
	return nil
}
