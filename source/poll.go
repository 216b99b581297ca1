package source

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/confluentinc/confluent-kafka-go/v2/kafka"

	"github.com/fastpathlab/fplab/source/consume"
	"github.com/fastpathlab/fplab/workloads"
)

// pollReader is the per-record Poll consumption that rowwise and shallow
// share; they differ only in what they do with each record.
type pollReader struct {
	cfg     *Config
	rdk     *rdkConsumer
	a       *assembler
	dec     pollDecoder
	decoder string // Assertions.Decoder
}

// pollDecoder is the per-path half of a Poll reader: take one record,
// build the taken records into the batch's rows, and hand the rows over as
// a record batch (with the key and headers columns when keyed).
type pollDecoder interface {
	take(a *assembler, p int32, off int64, m *kafka.Message) error
	// pending is the records taken and not built yet; build adds them to
	// the batch (a record that does not parse adds no row).
	pending() int
	build(a *assembler) error
	record() arrow.RecordBatch
	release()
}

func openPoll(cfg *Config, dec pollDecoder, decoder string) (*pollReader, error) {
	rdk, err := openRdk(cfg)
	if err != nil {
		dec.release()
		return nil, err
	}
	return &pollReader{cfg: cfg, rdk: rdk, a: assemblerFor(cfg, rdk.start, rdk.stop), dec: dec, decoder: decoder}, nil
}

func (r *pollReader) Next(ctx context.Context) (*consume.Batch, error) {
	defer r.rdk.wake(ctx)()
	a := r.a
	for {
		// A live read's batch whose linger has passed is handed over as it
		// is: its taken records are built first. The clock is read only
		// while a linger runs, never on a bounded read (nor rowwise, which
		// is never live).
		var now time.Time
		due := false
		if a.lingering() {
			now = time.Now()
			due = a.lingerDue(now)
		}
		if n := r.dec.pending(); n > 0 && (a.rows()+n >= r.cfg.Batch || a.done() || due) {
			if err := r.dec.build(a); err != nil {
				return nil, err
			}
		}
		// Records that did not parse leave a batch short: it is emitted
		// once full, or last (or, live, when its linger has passed).
		if a.full() || ((a.done() || due) && a.rows() > 0) {
			return a.emit(r.dec.record()), nil
		}
		if due {
			// every record taken failed to parse: no row, no batch
			a.stopLinger()
		}
		if a.done() {
			return nil, io.EOF
		}
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("%s: %w", r.cfg.Path, err)
		}
		if err := r.rdk.discover(a, r.cfg); err != nil {
			return nil, err
		}
		a.fetched() // Poll keeps no buffer of its own
		ev := r.rdk.c.Poll(a.waitMs(int(pollWait/time.Millisecond), now))
		a.stats.Polls++
		switch e := ev.(type) {
		case nil:
			r.rdk.position(a)
			if a.done() {
				continue
			}
			if err := a.stalled(r.cfg.Timeout); err != nil {
				return nil, err
			}
		case *kafka.Message:
			tp := e.TopicPartition
			if tp.Error != nil {
				var ke kafka.Error
				if errors.As(tp.Error, &ke) && r.rdk.tolerated(ke.Code()) {
					a.stats.ConsumerErrors++
					continue
				}
				return nil, rdkError(r.cfg.Path, ke.Code(), tp.Partition, int64(tp.Offset), tp.Error)
			}
			a.progress()
			p, off := tp.Partition, int64(tp.Offset)
			ok, err := a.consume(p, off)
			if err != nil {
				return nil, err
			}
			if ok {
				if err := r.dec.take(a, p, off, e); err != nil {
					return nil, err
				}
				// a taken record is the batch's row to be: on shallow it
				// is built only when the batch is handed over, so a live
				// batch's linger starts when its first record is taken
				if a.live() {
					a.startLinger()
				}
			}
		case kafka.PartitionEOF:
			// The consumer's position in the partition: what read_committed
			// does not deliver before it (aborted records, markers) is passed.
			// Live, it is no message (see progress).
			if !a.live() {
				a.progress()
			}
			if err := a.eof(e.Partition, int64(e.Offset)); err != nil {
				return nil, err
			}
		case *kafka.Stats:
			// librdkafka's statistics (Config.Stats), once per interval:
			// no message, so the stall clock still runs
			r.rdk.offerStats(e)
			if err := a.stalled(r.cfg.Timeout); err != nil {
				return nil, err
			}
		case kafka.Error:
			if r.rdk.tolerated(e.Code()) && !e.IsFatal() {
				a.stats.ConsumerErrors++
				continue
			}
			if e.Code() == kafka.ErrAutoOffsetReset {
				return nil, r.outOfRange(e)
			}
			return nil, fmt.Errorf("%s: librdkafka: %w", r.cfg.Path, e)
		}
	}
}

// outOfRange names the partition whose position fell below its log start.
// The error event Poll returns keeps only librdkafka's code and text (no
// partition), so the low watermarks of the unfinished partitions are asked,
// within the stall timeout.
func (r *pollReader) outOfRange(e kafka.Error) error {
	a := r.a
	deadline := time.Now().Add(r.cfg.Timeout / 2)
	for p := range a.pos {
		left := time.Until(deadline)
		if left <= 0 {
			break
		}
		if a.pos[p] >= a.stop[p] {
			continue
		}
		lo, _, err := r.rdk.c.QueryWatermarkOffsets(r.cfg.Topic, int32(p), max(int(left/time.Millisecond), 1))
		if err == nil && a.pos[p] < lo {
			return outOfRange(r.cfg.Path, int32(p), a.pos[p], e)
		}
	}
	return fmt.Errorf("%s: an offset is out of range (records deleted?): %w", r.cfg.Path, e)
}

func (r *pollReader) Stats() consume.Stats { return r.rdk.stats.count(r.a.stats) }
func (r *pollReader) Assertions() (consume.Assertions, error) {
	as, err := r.rdk.assertions()
	as.Decoder = r.decoder
	return as, err
}
func (r *pollReader) Close() error { r.dec.release(); return r.rdk.close() }

// shallowDecoder collects the payloads confluent-kafka-go hands over and
// decodes them column-wise once per batch.
type shallowDecoder struct {
	col    workloads.Columnar
	values [][]byte
	parts  []int32
	offs   []int64
	// keyed reads only (keys not nil): the messages' keys and headers
	keys  *workloads.KeyColumns
	mkeys [][]byte
	mhdrs [][]kafka.Header
}

func (d *shallowDecoder) take(_ *assembler, p int32, off int64, m *kafka.Message) error {
	d.values = append(d.values, m.Value)
	d.parts = append(d.parts, p)
	d.offs = append(d.offs, off)
	if d.keys != nil {
		d.mkeys = append(d.mkeys, m.Key)
		d.mhdrs = append(d.mhdrs, m.Headers)
	}
	return nil
}

func (d *shallowDecoder) pending() int { return len(d.values) }

func (d *shallowDecoder) build(a *assembler) error {
	for i, v := range d.values {
		if v == nil { // a tombstone; an empty value is not nil
			d.col.AppendNull()
			d.appendKey(i)
			a.addedNull(d.parts[i], d.offs[i])
			continue
		}
		if err := d.col.Append(v); err != nil {
			if !errors.Is(err, workloads.ErrParse) {
				return err
			}
			a.parseFailed(d.parts[i], d.offs[i], err)
			continue
		}
		d.appendKey(i)
		a.added(d.parts[i], d.offs[i], len(v))
	}
	clear(d.values) // drop references so the payloads can be collected
	d.values, d.parts, d.offs = d.values[:0], d.parts[:0], d.offs[:0]
	if d.keys != nil {
		clear(d.mkeys)
		clear(d.mhdrs)
		d.mkeys, d.mhdrs = d.mkeys[:0], d.mhdrs[:0]
	}
	return nil
}

// appendKey adds taken record i's key and headers when the read is keyed.
func (d *shallowDecoder) appendKey(i int) {
	if d.keys != nil {
		appendMessageKey(d.keys, d.mkeys[i], d.mhdrs[i])
	}
}

func (d *shallowDecoder) record() arrow.RecordBatch {
	return keyedBatch(d.col.NewRecordBatch(), d.keys)
}

func (d *shallowDecoder) release() {
	d.col.Release()
	if d.keys != nil {
		d.keys.Release()
	}
}

// appendMessageKey adds a confluent-kafka-go message's key and headers.
func appendMessageKey(k *workloads.KeyColumns, key []byte, hdrs []kafka.Header) {
	k.Append(key)
	for _, h := range hdrs {
		k.AppendHeader(h.Key, h.Value)
	}
}

// rowwiseDecoder decodes every record into a Go row as it arrives, then
// transposes the batch's rows into Arrow.
type rowwiseDecoder struct {
	codec workloads.Codec
	rb    workloads.RowBuilder
	rows  []workloads.Row
	parts []int32
	offs  []int64
	sizes []int
	nulls []bool // a tombstone's row stays zero and is added as all-null
	// keyed reads only (keys not nil): the rows' keys and headers
	keys  *workloads.KeyColumns
	mkeys [][]byte
	mhdrs [][]kafka.Header
}

func (d *rowwiseDecoder) take(a *assembler, p int32, off int64, m *kafka.Message) error {
	var row workloads.Row
	v := m.Value
	if v != nil { // a tombstone's row stays zero; an empty value is not nil
		if err := d.codec.DecodeRow(v, &row); err != nil {
			if !errors.Is(err, workloads.ErrParse) {
				return err
			}
			a.parseFailed(p, off, err)
			return nil
		}
	}
	d.rows = append(d.rows, row)
	d.parts = append(d.parts, p)
	d.offs = append(d.offs, off)
	d.sizes = append(d.sizes, len(v))
	d.nulls = append(d.nulls, v == nil)
	if d.keys != nil {
		d.mkeys = append(d.mkeys, m.Key)
		d.mhdrs = append(d.mhdrs, m.Headers)
	}
	return nil
}

func (d *rowwiseDecoder) pending() int { return len(d.rows) }

func (d *rowwiseDecoder) build(a *assembler) error {
	for i := range d.rows {
		if d.keys != nil {
			appendMessageKey(d.keys, d.mkeys[i], d.mhdrs[i])
		}
		if d.nulls[i] {
			d.rb.AddNull()
			a.addedNull(d.parts[i], d.offs[i])
			continue
		}
		d.rb.Add(&d.rows[i])
		a.added(d.parts[i], d.offs[i], d.sizes[i])
	}
	clear(d.rows)
	d.rows, d.parts, d.offs, d.sizes, d.nulls = d.rows[:0], d.parts[:0], d.offs[:0], d.sizes[:0], d.nulls[:0]
	if d.keys != nil {
		clear(d.mkeys)
		clear(d.mhdrs)
		d.mkeys, d.mhdrs = d.mkeys[:0], d.mhdrs[:0]
	}
	return nil
}

func (d *rowwiseDecoder) record() arrow.RecordBatch {
	return keyedBatch(d.rb.NewRecordBatch(), d.keys)
}

func (d *rowwiseDecoder) release() {
	d.rb.Release()
	if d.keys != nil {
		d.keys.Release()
	}
}
