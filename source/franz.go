package source

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/fastpathlab/fplab/source/consume"
	"github.com/fastpathlab/fplab/source/internal/kplain"
	"github.com/fastpathlab/fplab/workloads"
)

// franzReader is the peer path: franz-go's PollFetches with the same
// columnar decoder as the fast path, decoding each record as it is walked.
type franzReader struct {
	cfg     *Config
	cl      *kgo.Client
	col     workloads.Columnar
	decoder string                // Assertions.Decoder
	keys    *workloads.KeyColumns // nil unless Config.Keys
	a       *assembler
	fetches kgo.Fetches
	iter    *kgo.FetchesRecordIter
	// held is a fetched record taken out of iter but left for the next
	// batch (see controls).
	held *kgo.Record
	// disc schedules partition discovery (nil: off; discover.go)
	disc *discovery
}

func openFranz(ctx context.Context, cfg *Config) (*franzReader, error) {
	sasl, err := franzSASL(cfg.Props)
	if err != nil {
		return nil, err
	}
	opts := []kgo.Opt{
		kgo.SeedBrokers(cfg.Bootstrap...),
		kgo.ClientID(cfg.clientID()),
		kgo.DialTimeout(cfg.Timeout),
		kgo.RetryTimeout(cfg.Timeout),
		kgo.RequestTimeoutOverhead(cfg.Timeout),
	}
	opts = append(opts, franzBufferingOpts()...)
	if sasl != nil {
		opts = append(opts, sasl)
	}
	if !cfg.CRC {
		opts = append(opts, kgo.DisableFetchCRCValidation())
	}
	if cfg.Discovery > 0 {
		// franz-go answers a metadata request from its cache while the
		// cache is younger than MetadataMinAge (5 s by default): a look
		// for added partitions must not be older than its interval.
		opts = append(opts, kgo.MetadataMinAge(min(cfg.Discovery, 5*time.Second)))
	}
	probe, err := kgo.NewClient(opts...)
	if err != nil {
		return nil, fmt.Errorf("franz: %w", err)
	}
	start, stop, err := franzBounds(ctx, probe, cfg)
	probe.Close()
	if err != nil {
		return nil, err
	}
	a := assemblerFor(cfg, start, stop)
	// Only partitions with records to read are consumed (see openRdk).
	offs := make(map[int32]kgo.Offset, cfg.Partitions)
	for p := range start {
		if start[p] < stop[p] {
			offs[int32(p)] = kgo.NewOffset().At(start[p])
		}
	}
	opts = append(opts,
		kgo.ConsumePartitions(map[string]map[int32]kgo.Offset{cfg.Topic: offs}),
		// The committed view, as librdkafka's default isolation.level
		// (read_committed, pinned in librdkafkaConfig): both clients
		// deliver the same records.
		kgo.FetchIsolationLevel(kgo.ReadCommitted()),
		// Control records (transaction markers) are the franz path's proof
		// that the position passed offsets read_committed never delivers;
		// they are never rows.
		kgo.KeepControlRecords(),
		// A start below the log start (records deleted) fails the read
		// instead of resetting somewhere else.
		kgo.ConsumeResetOffset(kgo.NoResetOffset()),
	)
	col, decoder, err := newColumnar(ctx, cfg)
	if err != nil {
		return nil, err
	}
	cl, err := kgo.NewClient(opts...)
	if err != nil {
		col.Release()
		return nil, fmt.Errorf("franz: %w", err)
	}
	return &franzReader{
		cfg: cfg, cl: cl, decoder: decoder,
		col:  col,
		keys: keyColumns(cfg),
		a:    a,
		disc: startDiscovery(cfg.Discovery, cfg.Timeout, franzPartitions(cl, cfg.Topic)),
	}, nil
}

func (r *franzReader) Next(ctx context.Context) (*consume.Batch, error) {
	a := r.a
	for {
		for r.pending() && !a.full() {
			if err := r.take(r.next()); err != nil {
				return nil, err
			}
		}
		if a.full() {
			// Control records right behind the batch's last row belong to
			// its split: take them before emitting.
			if err := r.controls(); err != nil {
				return nil, err
			}
			return a.emit(keyedBatch(r.col.NewRecordBatch(), r.keys)), nil
		}
		if a.done() {
			if a.rows() > 0 {
				return a.emit(keyedBatch(r.col.NewRecordBatch(), r.keys)), nil
			}
			return nil, io.EOF
		}
		// A live read's batch that is not full: every fetched record is
		// taken (it would be full otherwise), and once its linger has
		// passed it is handed over as it is. The clock is read only while
		// a linger runs, never on a bounded read.
		wait := pollWait
		if a.lingering() {
			now := time.Now()
			if a.lingerDue(now) {
				return a.emit(keyedBatch(r.col.NewRecordBatch(), r.keys)), nil
			}
			wait = min(wait, a.lingerLeft(now))
		}
		if err := r.discover(); err != nil {
			return nil, err
		}
		if err := r.poll(ctx, wait); err != nil {
			return nil, err
		}
	}
}

// take handles one fetched record: a control record moves its partition's
// position, a null value is a tombstone row, anything else is decoded.
func (r *franzReader) take(rec *kgo.Record) error {
	a := r.a
	if rec.Attrs.IsControl() {
		return a.control(rec.Partition, rec.Offset)
	}
	ok, err := a.consume(rec.Partition, rec.Offset)
	if err != nil || !ok {
		return err
	}
	if rec.Value == nil { // a tombstone; an empty value is not nil
		r.col.AppendNull()
		r.appendKey(rec)
		a.addedNull(rec.Partition, rec.Offset)
		return nil
	}
	if err := r.col.Append(rec.Value); err != nil {
		if !errors.Is(err, workloads.ErrParse) {
			return err
		}
		a.parseFailed(rec.Partition, rec.Offset, err)
		return nil
	}
	r.appendKey(rec)
	a.added(rec.Partition, rec.Offset, len(rec.Value))
	return nil
}

// appendKey adds a row's key and headers when the read is keyed.
func (r *franzReader) appendKey(rec *kgo.Record) {
	if r.keys == nil {
		return
	}
	r.keys.Append(rec.Key)
	for _, h := range rec.Headers {
		r.keys.AppendHeader(h.Key, h.Value)
	}
}

// pending reports whether fetched records are left; next returns the next
// one (the held record first).
func (r *franzReader) pending() bool { return r.held != nil || (r.iter != nil && !r.iter.Done()) }

func (r *franzReader) next() *kgo.Record {
	if rec := r.held; rec != nil {
		r.held = nil
		return rec
	}
	return r.iter.Next()
}

// controls takes the control records at the head of the fetched records;
// the first other record is held for the next batch.
func (r *franzReader) controls() error {
	for r.held == nil && r.iter != nil && !r.iter.Done() {
		rec := r.iter.Next()
		if !rec.Attrs.IsControl() {
			r.held = rec
			return nil
		}
		if err := r.a.control(rec.Partition, rec.Offset); err != nil {
			return err
		}
	}
	return nil
}

// franzSASL maps the only client properties the franz path accepts, those
// of a SASL_PLAINTEXT cluster with the PLAIN mechanism, onto a kgo option
// (nil without properties; source/internal/kplain). Any other property is
// refused: Props are librdkafka's, and a setting franz-go would silently
// not apply would make the peer path measure another client setup.
func franzSASL(props map[string]string) (kgo.Opt, error) {
	o, err := kplain.Opt(props)
	if err != nil {
		return nil, fmt.Errorf("franz: %w", err)
	}
	return o, nil
}

// poll fetches, waiting up to wait (100 ms, less when a live batch's
// linger ends sooner). It is called only once every fetched record was
// taken (pending is false), so replacing the fetches loses none; records
// the client buffered while the wait ran out stay buffered for the next
// poll.
func (r *franzReader) poll(ctx context.Context, wait time.Duration) error {
	pctx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	r.a.fetched() // every fetched record was taken
	r.fetches = r.cl.PollFetches(pctx)
	r.a.stats.Polls++
	for _, fe := range r.fetches.Errors() {
		if errors.Is(fe.Err, context.DeadlineExceeded) || errors.Is(fe.Err, context.Canceled) {
			// the wait ran out (no record before it, or before a live
			// batch's linger ended): not an error, unless it is the
			// caller's context that ended
			if ctx.Err() != nil {
				return fmt.Errorf("franz: %w", ctx.Err())
			}
			continue
		}
		if errors.Is(fe.Err, kerr.OffsetOutOfRange) && fe.Topic == r.cfg.Topic && r.a.check(fe.Partition) == nil {
			return outOfRange(consume.PathFranz, fe.Partition, r.a.pos[fe.Partition], fe.Err)
		}
		if kerrRetriable(fe.Err) {
			r.a.stats.ConsumerErrors++
			continue
		}
		return fmt.Errorf("franz: %s/%d: %w", fe.Topic, fe.Partition, fe.Err)
	}
	if r.fetches.NumRecords() == 0 {
		r.iter = nil
		return r.a.stalled(r.cfg.Timeout)
	}
	r.a.progress()
	r.iter = r.fetches.RecordIter()
	return nil
}

func (r *franzReader) Stats() consume.Stats { return r.a.stats }

// Assertions reads the CRC setting back from the running client.
func (r *franzReader) Assertions() (consume.Assertions, error) {
	v, ok := r.cl.OptValue(kgo.DisableFetchCRCValidation).(bool)
	if !ok {
		return consume.Assertions{}, fmt.Errorf("franz: cannot read back DisableFetchCRCValidation")
	}
	return consume.Assertions{
		Client:          ClientOf(consume.PathFranz),
		CheckCRCs:       !v,
		CheckCRCsSource: fmt.Sprintf("kgo Client.OptValue(DisableFetchCRCValidation) = %v", v),
		Decoder:         r.decoder,
		Buffering:       franzBuffering(r.cl),
	}, nil
}

func (r *franzReader) Close() error {
	r.disc.close()
	r.col.Release()
	if r.keys != nil {
		r.keys.Release()
	}
	r.cl.Close()
	return nil
}
