package source

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/confluentinc/confluent-kafka-go/v2/kafka"

	"github.com/fastpathlab/fplab/source/consume"
	"github.com/fastpathlab/fplab/workloads"
)

// pollReader is the per-record Poll consumption that rowwise and shallow
// share; they differ only in what they do with each record.
type pollReader struct {
	cfg *Config
	rdk *rdkConsumer
	a   *assembler
	dec pollDecoder
}

// pollDecoder is the per-path half of a Poll reader: take one record,
// then build the batch from what was taken.
type pollDecoder interface {
	take(a *assembler, p int32, off int64, value []byte) error
	pending() int
	flush(a *assembler) (*consume.Batch, error)
	release()
}

func openPoll(cfg *Config, dec pollDecoder) (*pollReader, error) {
	rdk, err := openRdk(cfg)
	if err != nil {
		dec.release()
		return nil, err
	}
	return &pollReader{cfg: cfg, rdk: rdk, a: newAssembler(cfg.Batch, rdk.start, rdk.stop), dec: dec}, nil
}

func (r *pollReader) Next(ctx context.Context) (*consume.Batch, error) {
	a := r.a
	for {
		if r.dec.pending() >= r.cfg.Batch || (a.done() && r.dec.pending() > 0) {
			return r.dec.flush(a)
		}
		if a.done() {
			return nil, io.EOF
		}
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("source: %s: %w", r.cfg.Path, err)
		}
		ev := r.rdk.c.Poll(100)
		a.stats.Polls++
		switch e := ev.(type) {
		case nil:
			if err := a.stalled(r.cfg.Timeout); err != nil {
				return nil, err
			}
		case *kafka.Message:
			if e.TopicPartition.Error != nil {
				var ke kafka.Error
				if errors.As(e.TopicPartition.Error, &ke) && transient(ke.Code()) {
					a.stats.ConsumerErrors++
					continue
				}
				return nil, fmt.Errorf("source: %s: %v", r.cfg.Path, e.TopicPartition.Error)
			}
			a.progress()
			p, off := e.TopicPartition.Partition, int64(e.TopicPartition.Offset)
			ok, err := a.consume(p, off)
			if err != nil {
				return nil, err
			}
			if ok {
				if err := r.dec.take(a, p, off, e.Value); err != nil {
					return nil, err
				}
			}
		case kafka.Error:
			if transient(e.Code()) && !e.IsFatal() {
				a.stats.ConsumerErrors++
				continue
			}
			return nil, fmt.Errorf("source: %s: librdkafka: %v", r.cfg.Path, e)
		}
	}
}

func (r *pollReader) Stats() consume.Stats                    { return r.a.stats }
func (r *pollReader) Assertions() (consume.Assertions, error) { return r.rdk.assertions() }
func (r *pollReader) Close() error                            { r.dec.release(); return r.rdk.c.Close() }

// shallowDecoder collects the payloads confluent-kafka-go hands over and
// decodes them column-wise once per batch.
type shallowDecoder struct {
	col    workloads.Columnar
	values [][]byte
	parts  []int32
	offs   []int64
}

func (d *shallowDecoder) take(_ *assembler, p int32, off int64, v []byte) error {
	d.values = append(d.values, v)
	d.parts = append(d.parts, p)
	d.offs = append(d.offs, off)
	return nil
}

func (d *shallowDecoder) pending() int { return len(d.values) }

func (d *shallowDecoder) flush(a *assembler) (*consume.Batch, error) {
	for i, v := range d.values {
		if err := d.col.Append(v); err != nil {
			if !errors.Is(err, workloads.ErrParse) {
				return nil, err
			}
			a.parseFailed(d.parts[i], d.offs[i], err)
			continue
		}
		a.added(d.parts[i], d.offs[i], len(v))
	}
	clear(d.values) // drop references so the payloads can be collected
	d.values, d.parts, d.offs = d.values[:0], d.parts[:0], d.offs[:0]
	return a.emit(d.col.NewRecordBatch()), nil
}

func (d *shallowDecoder) release() { d.col.Release() }

// rowwiseDecoder decodes every record into a Go row as it arrives, then
// transposes the batch's rows into Arrow.
type rowwiseDecoder struct {
	codec workloads.Codec
	rb    workloads.RowBuilder
	rows  []workloads.Row
	parts []int32
	offs  []int64
	sizes []int
}

func (d *rowwiseDecoder) take(a *assembler, p int32, off int64, v []byte) error {
	var row workloads.Row
	if err := d.codec.DecodeRow(v, &row); err != nil {
		if !errors.Is(err, workloads.ErrParse) {
			return err
		}
		a.parseFailed(p, off, err)
		return nil
	}
	d.rows = append(d.rows, row)
	d.parts = append(d.parts, p)
	d.offs = append(d.offs, off)
	d.sizes = append(d.sizes, len(v))
	return nil
}

func (d *rowwiseDecoder) pending() int { return len(d.rows) }

func (d *rowwiseDecoder) flush(a *assembler) (*consume.Batch, error) {
	for i := range d.rows {
		d.rb.Add(&d.rows[i])
		a.added(d.parts[i], d.offs[i], d.sizes[i])
	}
	clear(d.rows)
	d.rows, d.parts, d.offs, d.sizes = d.rows[:0], d.parts[:0], d.offs[:0], d.sizes[:0]
	return a.emit(d.rb.NewRecordBatch()), nil
}

func (d *rowwiseDecoder) release() { d.rb.Release() }
