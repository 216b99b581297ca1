package clusters

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
)

const (
	// MaxPacedRate is the highest rate ProducePaced accepts, in records per
	// second.
	MaxPacedRate = 10_000_000
	// MaxPacedSpan is the longest a paced run may be planned to last, from
	// T0 to the last record's intended time.
	MaxPacedSpan = 24 * time.Hour
	// pacedAhead is how many seconds of records at the target rate the
	// client may hold unacknowledged before Produce blocks the pacing
	// loop, within [pacedMinBuffered, pacedMaxBuffered].
	pacedAhead       = 2
	pacedMinBuffered = 10_000
	pacedMaxBuffered = 1_000_000
	// pacedDeliveryTimeout bounds how long a record may wait for the
	// cluster to accept it; a dead broker ends the run sooner (the watch).
	pacedDeliveryTimeout = time.Minute
	// pacedHookWait bounds the wait, after the last acknowledgement, for
	// the client's batch hooks to report every record.
	pacedHookWait = 10 * time.Second
)

// Paced is a fixed-rate production of records 0..Records-1, as
// OpenMessaging Benchmark's producers pace theirs, without coordinated
// omission (as wrk2 measures): record i has an intended send time,
// T0 + i/Rate, and is handed to the client at that time or, when the
// producer is behind, as soon as it can be; it is never dropped or
// rescheduled, so being behind shows in PacedStats.MaxBehind and in the
// record's timestamp, which is its intended time, not the hand-over time.
type Paced struct {
	Topic      string
	Partitions int     // record i goes to partition i % Partitions
	Records    int     // n: records 0..n-1
	Rate       float64 // target records per second, 0 < Rate <= MaxPacedRate
	// T0 is record 0's intended send time (wall clock; a time.Now-derived
	// T0 keeps its monotonic reading, and pacing uses it).
	T0 time.Time
	// Message returns record i's value, appended to dst, as Load's message
	// func does. A nil result is sent as an empty value, never as a null.
	Message func(dst []byte, i int) []byte
	// Meta, optional, sets record i's key and headers, as Load's
	// WithRecordMeta does; what it sets on the topic, partition, value or
	// timestamp is overwritten.
	Meta func(i int, r *kgo.Record)
	// Compression is the producer's codec: none ("", the default), gzip,
	// snappy, lz4 or zstd, as Load's WithCompression.
	Compression string
}

// PacedStats is what ProducePaced sent and when.
type PacedStats struct {
	Records  int64
	Bytes    int64     // value bytes
	T0       time.Time // Paced.T0
	LastSend time.Time // when the last record was handed to the client
	LastAck  time.Time // when the last record was acknowledged
	// MaxBehind is the most any record was handed to the client after
	// its intended time.
	MaxBehind time.Duration
	// Achieved is the records per second handed to the client between T0
	// and LastSend, (n-1)/(LastSend-T0); Rate when n <= 1. Below Rate, the
	// producer fell behind and did not catch up.
	Achieved float64
	// CodecRecords counts the records written per batch codec, as the
	// client wrote its batches (none, gzip, ...): franz-go sends a batch
	// plain when Compression would not shrink it, which a paced
	// producer's small batches often are.
	CodecRecords map[string]int64
}

// codecCounter is a franz-go hook that counts the records of each batch
// written, by the batch's codec. franz-go calls it on a goroutine of its
// own after the batch's records are acknowledged, so done closes once it
// has counted every record of the run.
type codecCounter struct {
	mu      sync.Mutex
	records map[string]int64
	total   int64
	want    int64
	done    chan struct{}
}

func newCodecCounter(want int) *codecCounter {
	return &codecCounter{records: map[string]int64{}, want: int64(want), done: make(chan struct{})}
}

// OnProduceBatchWritten implements kgo.HookProduceBatchWritten.
func (h *codecCounter) OnProduceBatchWritten(_ kgo.BrokerMetadata, _ string, _ int32, m kgo.ProduceBatchMetrics) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.records[codecName(m.CompressionType)] += int64(m.NumRecords)
	if before := h.total; before < h.want {
		if h.total += int64(m.NumRecords); h.total >= h.want {
			close(h.done)
		}
	}
}

// counts waits until every record is counted, or ctx ends (an error), and
// returns the counts.
func (h *codecCounter) counts(ctx context.Context) (map[string]int64, error) {
	select {
	case <-h.done:
	case <-ctx.Done():
		h.mu.Lock()
		defer h.mu.Unlock()
		return nil, fmt.Errorf("the client reported the batches of %d of %d records: %w", h.total, h.want, ctx.Err())
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	return maps.Clone(h.records), nil
}

// Intended is record i's intended send time: T0 + i/Rate, computed the
// same way wherever it is needed (the producer paces by it, a live cell
// measures latency from it).
func (p Paced) Intended(i int) time.Time {
	return p.T0.Add(time.Duration(float64(i) * float64(time.Second) / p.Rate))
}

// validate checks p's fields in turn against their limits and returns
// the first violation as a one-line error.
func (p Paced) validate() error {
	span := float64(p.Records-1) / p.Rate // checked once records and rate are
	for _, err := range []error{
		failIf(p.Topic == "", "empty topic name"),
		validate(bounded{partitionsLimit, p.Partitions}),
		failIf(p.Records < 1, "records must be >= 1, got %d", p.Records),
		// Written so that NaN fails too.
		failIf(!(p.Rate > 0 && p.Rate <= MaxPacedRate), "rate must be > 0 and <= %d records/s, got %v", MaxPacedRate, p.Rate),
		failIf(span > MaxPacedSpan.Seconds(), "%d records at %v records/s span %.0fs, more than the %v a paced run may last",
			p.Records, p.Rate, span, MaxPacedSpan),
		failIf(p.T0.IsZero(), "T0 must be set"),
		failIf(p.Message == nil, "nil message func"),
	} {
		if err != nil {
			return err
		}
	}
	_, err := compressionCodec(p.Compression)
	return err
}

// failIf is the error of format and args when bad, else nil.
func failIf(bad bool, format string, args ...any) error {
	if !bad {
		return nil
	}
	return fmt.Errorf(format, args...)
}

// ProducePaced produces p's records to p.Topic, which must exist with
// p.Partitions partitions (CreateTopic makes a fresh one): record i to
// partition i % p.Partitions, in order within each partition, by an
// idempotent producer, so that on a fresh topic (partition q, offset o)
// holds record o*p.Partitions+q.
//
// Once it reached the cluster and checked the topic, it generates every
// record's value (p.Message) and meta (p.Meta), from several goroutines at
// once, so that the generator never limits the rate; if that takes it past
// p.T0, the first records are simply behind. Then a single loop, at each
// wake-up, hands the client every record whose intended time has passed,
// without waiting for acknowledgements, and sleeps until the next record's
// intended time. The producer does not
// linger: records are batched only with those due at the same time or
// waiting for a produce request in flight. The client holds two seconds
// of records at the rate unacknowledged (at least 10,000, at most
// 1,000,000); beyond that, handing over blocks, and the wait counts as
// being behind. All records are held
// in memory at once.
//
// After the last hand-over it flushes, bounded by ctx. Any record the
// cluster fails fails the call with an error naming the record's index
// and partition; a bootstrap broker that stops accepting connections ends
// it within about a second with a *BrokerDownError, as for Load; ctx
// ending ends it with an error wrapping ctx.Err().
func ProducePaced(ctx context.Context, c Cluster, p Paced) (PacedStats, error) {
	if err := p.validate(); err != nil {
		return PacedStats{}, err
	}
	codec, _ := compressionCodec(p.Compression)
	seeds := c.seeds()
	// stopped words an error of a run whose ctx ended: ctx is why.
	stopped := func(what string, err error) error {
		if ctx.Err() != nil {
			return fmt.Errorf("paced produce to topic %s %s: %w", p.Topic, what, ctx.Err())
		}
		return err
	}

	codecs := newCodecCounter(p.Records)
	buffered := min(max(int(math.Ceil(p.Rate*pacedAhead)), pacedMinBuffered), pacedMaxBuffered)
	cl, err := c.newClient(ctx,
		kgo.RecordPartitioner(kgo.ManualPartitioner()),
		kgo.ProducerBatchCompression(codec),
		kgo.ProducerBatchMaxBytes(1_000_000), // as Load: under every broker's default message.max.bytes
		kgo.ProducerLinger(0),
		kgo.MaxBufferedRecords(buffered),
		kgo.RecordDeliveryTimeout(pacedDeliveryTimeout),
		kgo.WithHooks(codecs),
	)
	if err != nil {
		return PacedStats{}, stopped("not started", err)
	}
	defer cl.Close()
	// As in Load, the watch ends the run within a second of a broker's
	// death. It is stopped before cl closes.
	wctx, stopWatch := watchBrokers(ctx, seeds, watchEvery)
	defer stopWatch()
	if err := checkPacedTopic(wctx, c, kadm.NewClient(cl), p.Topic, p.Partitions); err != nil {
		if ctx.Err() != nil {
			return PacedStats{}, stopped("not started", err)
		}
		return PacedStats{}, brokerDown(wctx, err, seeds...)
	}

	recs, bytes, err := p.generate(wctx)
	if err != nil {
		if ctx.Err() != nil {
			return PacedStats{}, stopped("stopped while generating records", err)
		}
		return PacedStats{}, brokerDown(wctx, err)
	}

	// A failed record cancels rctx, which stops the pacing loop.
	rctx, cancel := context.WithCancelCause(wctx)
	defer cancel(nil)
	run := &pacedRun{recs: recs, cancel: cancel}
	sent, behind, lastSend := p.pace(rctx, cl, run)
	if sent == p.Records {
		if err := cl.Flush(rctx); err != nil {
			run.fail(nil, err)
		}
	}
	if err := run.failed(); err != nil || sent < p.Records {
		if ctx.Err() != nil {
			return PacedStats{}, stopped(fmt.Sprintf("stopped after handing over %d of %d records", sent, p.Records), err)
		}
		if err == nil {
			err = context.Cause(rctx)
		}
		return PacedStats{}, brokerDown(wctx, fmt.Errorf("paced produce of %d records to topic %s on %s: %w",
			p.Records, p.Topic, strings.Join(seeds, ","), err), seeds...)
	}

	// Bounded: every batch is acknowledged, its hook only not yet run.
	cctx, ccancel := context.WithTimeout(ctx, pacedHookWait)
	defer ccancel()
	perCodec, err := codecs.counts(cctx)
	if err != nil {
		return PacedStats{}, fmt.Errorf("paced produce to topic %s: %w", p.Topic, err)
	}
	stats := PacedStats{
		Records:      int64(p.Records),
		Bytes:        bytes,
		T0:           p.T0,
		LastSend:     lastSend,
		LastAck:      run.last(),
		MaxBehind:    behind,
		Achieved:     p.Rate,
		CodecRecords: perCodec,
	}
	if d := lastSend.Sub(p.T0); p.Records > 1 && d > 0 {
		stats.Achieved = float64(p.Records-1) / d.Seconds()
	}
	return stats, nil
}

// generate builds every record, values and meta included, from several
// goroutines, and returns them with their value bytes.
func (p Paced) generate(ctx context.Context) ([]kgo.Record, int64, error) {
	recs := make([]kgo.Record, p.Records)
	workers := max(1, min(runtime.GOMAXPROCS(0), p.Records/recordSlab))
	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		total int64
	)
	for w := range workers {
		from, to := w*p.Records/workers, (w+1)*p.Records/workers
		wg.Go(func() {
			var buf []byte
			var bytes int64
			for i := from; i < to; i++ {
				if (i-from)%ctxCheckEvery == 0 && ctx.Err() != nil {
					return
				}
				r := &recs[i]
				if p.Meta != nil {
					p.Meta(i, r)
				}
				r.Topic = p.Topic
				r.Partition = int32(i % p.Partitions)
				r.Timestamp = p.Intended(i)
				if cap(buf)-len(buf) < minValueRoom {
					buf = make([]byte, 0, valueSlab)
				}
				dst := buf[len(buf):]
				v := p.Message(dst, i)
				if len(v) > 0 && &v[:1][0] == &dst[:1][0] {
					buf = buf[:len(buf)+len(v)] // appended in place
				}
				if v == nil {
					v = []byte{}
				}
				r.Value = v[:len(v):len(v)]
				bytes += int64(len(v))
			}
			mu.Lock()
			total += bytes
			mu.Unlock()
		})
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, 0, err
	}
	return recs, total, nil
}

// pace hands every record to cl at or after its intended time and returns
// how many it handed over, the most any was late, and when it handed over
// the last. It returns early when ctx ends.
func (p Paced) pace(ctx context.Context, cl *kgo.Client, run *pacedRun) (sent int, behind time.Duration, last time.Time) {
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	for sent < p.Records {
		now := time.Now()
		due := p.Intended(sent)
		if due.After(now) {
			timer.Reset(due.Sub(now))
			select {
			case <-ctx.Done():
				return sent, behind, last
			case <-timer.C:
			}
			continue
		}
		// A producer far behind hands records over without sleeping; it
		// still stops promptly when ctx ends.
		if sent%ctxCheckEvery == 0 && ctx.Err() != nil {
			return sent, behind, last
		}
		behind = max(behind, now.Sub(due))
		cl.Produce(ctx, &run.recs[sent], run.promise)
		sent++
	}
	return sent, behind, time.Now()
}

// pacedRun collects the acknowledgements of a paced run. The client calls
// promise from its own goroutine; the lock guards what ProducePaced reads
// of it.
type pacedRun struct {
	recs   []kgo.Record
	cancel context.CancelCauseFunc

	mu      sync.Mutex
	acked   int
	lastAck time.Time
	err     error
}

// promise counts acknowledgements, notes when the last came and fails the
// run on the first error.
func (r *pacedRun) promise(rec *kgo.Record, err error) {
	if err != nil {
		r.fail(rec, err)
		return
	}
	now := time.Now()
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.acked++; r.acked == len(r.recs) {
		r.lastAck = now
	}
}

// fail records the first error, naming rec's index and partition when rec
// is one of the run's records, and stops the pacing loop.
func (r *pacedRun) fail(rec *kgo.Record, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.err != nil {
		return
	}
	if rec != nil {
		// Only the first failure is looked up, so a linear search is fine.
		for i := range r.recs {
			if &r.recs[i] == rec {
				err = fmt.Errorf("record %d to partition %d: %w", i, rec.Partition, err)
				break
			}
		}
	}
	r.err = err
	r.cancel(err)
}

// last is when the last record was acknowledged (zero until it was).
func (r *pacedRun) last() time.Time {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.lastAck
}

// failed is the first error recorded.
func (r *pacedRun) failed() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.err
}

// checkPacedTopic checks that topic exists with partitions partitions.
func checkPacedTopic(ctx context.Context, c Cluster, adm *kadm.Client, topic string, partitions int) error {
	td, exists, err := topicDetail(ctx, c, adm, topic)
	switch {
	case err != nil:
		return err
	case !exists:
		return fmt.Errorf("topic %q does not exist on %s; create it first", topic, strings.Join(c.seeds(), ","))
	case len(td.Partitions) != partitions:
		return fmt.Errorf("topic %s has %d partitions, want %d", topic, len(td.Partitions), partitions)
	}
	return nil
}

// CreateTopic creates a fresh, empty topic with partitions partitions and
// a replication factor of min(3, brokers in the cluster), and waits until
// metadata shows every partition with a leader. An existing topic is an
// error (wrapping kerr.TopicAlreadyExists), whatever it holds. ctx bounds
// the call (30 s when it has no deadline).
func CreateTopic(ctx context.Context, c Cluster, topic string, partitions int) error {
	if err := validateCorpus(topic, partitions, 0); err != nil {
		return err
	}
	return c.withAdmin(ctx, func(ctx context.Context, adm *kadm.Client) error {
		m, err := adm.BrokerMetadata(ctx)
		if err != nil {
			return c.requestError("broker metadata", err)
		}
		rf := int16(min(3, len(m.Brokers)))
		resp, err := adm.CreateTopic(ctx, int32(partitions), rf, nil, topic)
		switch {
		case errors.Is(err, kerr.TopicAlreadyExists):
			return fmt.Errorf("create topic %s on %s: it already exists: %w", topic, strings.Join(c.seeds(), ","), err)
		case err != nil:
			if resp.ErrMessage != "" {
				err = fmt.Errorf("%w (%s)", err, resp.ErrMessage)
			}
			return c.requestError("create topic "+topic, err)
		}
		return waitTopicVisible(ctx, c, adm, topic, partitions)
	})
}

// DeleteTopic deletes topic and waits until metadata no longer shows it,
// so that a topic of the same name can be created at once. A missing
// topic is an error (wrapping kerr.UnknownTopicOrPartition). ctx bounds
// the call (30 s when it has no deadline).
func DeleteTopic(ctx context.Context, c Cluster, topic string) error {
	if topic == "" {
		return errors.New("empty topic name")
	}
	return c.withAdmin(ctx, func(ctx context.Context, adm *kadm.Client) error {
		resp, err := adm.DeleteTopic(ctx, topic)
		if err != nil {
			if resp.ErrMessage != "" {
				err = fmt.Errorf("%w (%s)", err, resp.ErrMessage)
			}
			return c.requestError("delete topic "+topic, err)
		}
		wctx, cancel := context.WithTimeout(ctx, topicVisibleTimeout)
		defer cancel()
		for {
			_, exists, err := topicDetail(wctx, c, adm, topic)
			if err == nil && !exists {
				return nil
			}
			select {
			case <-wctx.Done():
				return fmt.Errorf("topic %s deleted but still in metadata after %v", topic, topicVisibleTimeout)
			case <-time.After(50 * time.Millisecond):
			}
		}
	})
}
