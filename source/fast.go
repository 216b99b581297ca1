package source

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/confluentinc/confluent-kafka-go/v2/kafka"

	"github.com/fastpathlab/fplab/source/consume"
	"github.com/fastpathlab/fplab/source/internal/drain"
	"github.com/fastpathlab/fplab/workloads"
)

// fastReader drains librdkafka in bulk and decodes inline: per crossing,
// up to a batch of payloads arrive in one C buffer, and each is decoded
// straight from that buffer into the Arrow builders.
type fastReader struct {
	cfg *Config
	rdk *rdkConsumer
	dr  *drain.Drain
	col workloads.Columnar
	a   *assembler
	// the current drain and the cursor into it
	buf   []byte
	ends  []uint32
	parts []int32
	offs  []int64
	i     int
}

func openFast(cfg *Config) (*fastReader, error) {
	rdk, err := openRdk(cfg)
	if err != nil {
		return nil, err
	}
	dr, err := drain.New(rdk.c, cfg.Batch)
	if err != nil {
		rdk.c.Close()
		return nil, err
	}
	return &fastReader{
		cfg: cfg, rdk: rdk, dr: dr,
		col: cfg.Codec.NewColumnar(cfg.Mem),
		a:   newAssembler(cfg.Batch, rdk.start, rdk.stop),
	}, nil
}

func (r *fastReader) Next(ctx context.Context) (*consume.Batch, error) {
	a := r.a
	for {
		for r.i < len(r.ends) {
			if err := r.decodeRun(); err != nil {
				return nil, err
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
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("source: fast: %w", err)
		}
		if err := r.drainOnce(); err != nil {
			return nil, err
		}
	}
}

// decodeRun decodes the next run of the drained messages: those in the
// bounded range that still fit in the current batch, straight from the
// drain buffer. A message past its partition's stop offset ends the run
// and is skipped.
func (r *fastReader) decodeRun() error {
	a := r.a
	i, j := r.i, r.i
	room := a.batch - a.rows()
	for j < len(r.ends) && j-i < room {
		ok, err := a.consume(r.parts[j], r.offs[j])
		if err != nil {
			return err
		}
		if !ok {
			break
		}
		j++
	}
	r.i = j
	if j < len(r.ends) && j-i < room {
		r.i++ // the out-of-range message
	}
	if j == i {
		return nil
	}
	begin := uint32(0)
	if i > 0 {
		begin = r.ends[i-1]
	}
	if bulk, ok := r.col.(workloads.Bulk); ok {
		n, err := bulk.AppendBulk(r.buf, begin, r.ends[i:j])
		if n > 0 {
			a.addedRun(r.parts[i:i+n], r.offs[i:i+n], int(r.ends[i+n-1]-begin))
		}
		if err == nil {
			return nil
		}
		if !errors.Is(err, workloads.ErrParse) {
			return err
		}
		a.parseFailed(r.parts[i+n], r.offs[i+n], err)
		// go on message by message after the bad one
		i += n + 1
		if i >= j {
			return nil
		}
		begin = r.ends[i-1]
	}
	for k := i; k < j; k++ {
		msg := r.buf[begin:r.ends[k]]
		begin = r.ends[k]
		if err := r.col.Append(msg); err != nil {
			if !errors.Is(err, workloads.ErrParse) {
				return err
			}
			a.parseFailed(r.parts[k], r.offs[k], err)
			continue
		}
		a.added(r.parts[k], r.offs[k], len(msg))
	}
	return nil
}

// drainOnce is one cgo crossing.
func (r *fastReader) drainOnce() error {
	n, err := r.dr.Run(100)
	r.a.stats.Crossings++
	if err != nil {
		return err
	}
	if nerr, code := r.dr.Errs(); nerr > 0 {
		if !transient(code) {
			return fmt.Errorf("source: fast: librdkafka: %v", kafka.NewError(code, "", false))
		}
		r.a.stats.ConsumerErrors += int64(nerr)
	}
	r.buf, r.ends, r.parts, r.offs = r.dr.Views()
	r.i = 0
	if n == 0 {
		return r.a.stalled(r.cfg.Timeout)
	}
	r.a.stats.NonEmpty++
	r.a.progress()
	return nil
}

func (r *fastReader) Stats() consume.Stats { return r.a.stats }

func (r *fastReader) Assertions() (consume.Assertions, error) { return r.rdk.assertions() }

func (r *fastReader) Close() error {
	r.col.Release()
	r.dr.Close()
	r.buf, r.ends, r.parts, r.offs = nil, nil, nil, nil
	return r.rdk.c.Close()
}
