package source

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/fastpathlab/fplab/source/consume"
	"github.com/fastpathlab/fplab/workloads"
)

// franzReader is the peer path: franz-go's PollFetches with the same
// columnar decoder as the fast path, decoding each record as it is walked.
type franzReader struct {
	cfg     *Config
	cl      *kgo.Client
	col     workloads.Columnar
	a       *assembler
	fetches kgo.Fetches
	iter    *kgo.FetchesRecordIter
}

func openFranz(ctx context.Context, cfg *Config) (*franzReader, error) {
	if len(cfg.Props) > 0 {
		return nil, fmt.Errorf("source: franz: client properties are librdkafka's; the franz path runs only against clusters without them")
	}
	opts := []kgo.Opt{
		kgo.SeedBrokers(cfg.Bootstrap...),
		kgo.DialTimeout(cfg.Timeout),
		kgo.RetryTimeout(cfg.Timeout),
		kgo.RequestTimeoutOverhead(cfg.Timeout),
	}
	if !cfg.CRC {
		opts = append(opts, kgo.DisableFetchCRCValidation())
	}
	probe, err := kgo.NewClient(opts...)
	if err != nil {
		return nil, fmt.Errorf("source: franz: %w", err)
	}
	start, stop, err := franzBounds(ctx, probe, cfg)
	probe.Close()
	if err != nil {
		return nil, err
	}
	offs := make(map[int32]kgo.Offset, cfg.Partitions)
	for p := range start {
		offs[int32(p)] = kgo.NewOffset().At(start[p])
	}
	opts = append(opts, kgo.ConsumePartitions(map[string]map[int32]kgo.Offset{cfg.Topic: offs}))
	cl, err := kgo.NewClient(opts...)
	if err != nil {
		return nil, fmt.Errorf("source: franz: %w", err)
	}
	return &franzReader{
		cfg: cfg, cl: cl,
		col: cfg.Codec.NewColumnar(cfg.Mem),
		a:   newAssembler(cfg.Batch, start, stop),
	}, nil
}

func (r *franzReader) Next(ctx context.Context) (*consume.Batch, error) {
	a := r.a
	for {
		for r.iter != nil && !r.iter.Done() {
			rec := r.iter.Next()
			ok, err := a.consume(rec.Partition, rec.Offset)
			if err != nil {
				return nil, err
			}
			if !ok {
				continue
			}
			if err := r.col.Append(rec.Value); err != nil {
				if !errors.Is(err, workloads.ErrParse) {
					return nil, err
				}
				a.parseFailed(rec.Partition, rec.Offset, err)
			} else {
				a.added(rec.Partition, rec.Offset, len(rec.Value))
			}
			if a.full() {
				return a.emit(r.col.NewRecordBatch()), nil
			}
		}
		if a.done() {
			if a.rows() > 0 {
				return a.emit(r.col.NewRecordBatch()), nil
			}
			return nil, io.EOF
		}
		if err := r.poll(ctx); err != nil {
			return nil, err
		}
	}
}

func (r *franzReader) poll(ctx context.Context) error {
	pctx, cancel := context.WithTimeout(ctx, 100*time.Millisecond)
	defer cancel()
	r.fetches = r.cl.PollFetches(pctx)
	r.a.stats.Polls++
	for _, fe := range r.fetches.Errors() {
		if errors.Is(fe.Err, context.DeadlineExceeded) || errors.Is(fe.Err, context.Canceled) {
			if ctx.Err() != nil {
				return fmt.Errorf("source: franz: %w", ctx.Err())
			}
			continue
		}
		if kerrRetriable(fe.Err) {
			r.a.stats.ConsumerErrors++
			continue
		}
		return fmt.Errorf("source: franz: %s/%d: %v", fe.Topic, fe.Partition, fe.Err)
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
		return consume.Assertions{}, fmt.Errorf("source: franz: cannot read back DisableFetchCRCValidation")
	}
	return consume.Assertions{
		Client:          ClientOf(consume.PathFranz),
		CheckCRCs:       !v,
		CheckCRCsSource: fmt.Sprintf("kgo Client.OptValue(DisableFetchCRCValidation) = %v", v),
	}, nil
}

func (r *franzReader) Close() error {
	r.col.Release()
	r.cl.Close()
	return nil
}
