package source

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/confluentinc/confluent-kafka-go/v2/kafka"

	"github.com/fastpathlab/fplab/source/consume"
	"github.com/fastpathlab/fplab/source/internal/drain"
	"github.com/fastpathlab/fplab/workloads"
)

// fastReader drains librdkafka in bulk and decodes inline: per crossing,
// the queue's backlog of payloads arrives in one C buffer, and each is
// decoded straight from that buffer into the Arrow builders. A column that
// holds payloads as they are (workloads.Direct: raw) has the crossing copy
// them straight into its data instead, for this batch and the next.
type fastReader struct {
	cfg     *Config
	rdk     *rdkConsumer
	dr      *drain.Drain
	col     workloads.Columnar
	direct  workloads.Direct // col, when it is one; else nil
	decoder string           // Assertions.Decoder
	a       *assembler
	// the current drain and the cursor into it: messages [0, split) have
	// their payloads in dst (the column's data tail), the rest in buf
	dst   []byte
	split int
	buf   []byte
	ends  []uint32
	parts []int32
	offs  []int64
	nulls []bool
	i     int
	// keyed reads only (keys not nil): the key and headers columns, and
	// the current drain's keys and headers (drain.KeyViews)
	keys   *workloads.KeyColumns
	kbuf   []byte
	kends  []uint32
	knulls []bool
	hbuf   []byte
	hends  []uint32
	// eofs are the current drain's partition-EOF events, applied once its
	// messages are all decoded.
	eofs []drain.EOF
	// ahead is the second drain of a read that crosses ahead
	// (Tuning.Ahead, ahead.go); nil otherwise.
	ahead *ahead[*drain.Drain]
}

func openFast(ctx context.Context, cfg *Config) (*fastReader, error) {
	rdk, err := openRdk(cfg)
	if err != nil {
		return nil, err
	}
	col, decoder, err := newColumnar(ctx, cfg)
	if err != nil {
		rdk.close()
		return nil, err
	}
	dr, err := drain.New(rdk.c, cfg.Batch, cfg.Keys)
	if err == nil && cfg.Tuning.BatchQueue {
		// at most a batch per crossing, as upstream's batch-queue drain
		if err = dr.UseBatchQueue(cfg.Batch); err != nil {
			dr.Close()
		}
	}
	var h *ahead[*drain.Drain]
	if err == nil && cfg.Tuning.Ahead {
		var spare *drain.Drain
		if spare, err = drain.New(rdk.c, cfg.Batch, cfg.Keys); err != nil {
			dr.Close()
		} else {
			h = newAhead(spare)
		}
	}
	if err != nil {
		col.Release()
		rdk.close()
		return nil, err
	}
	direct, _ := col.(workloads.Direct)
	if h != nil {
		// the batch's data is not a crossing ahead's to write
		direct = nil
	}
	return &fastReader{
		cfg: cfg, rdk: rdk, dr: dr, decoder: decoder,
		col: col, direct: direct, ahead: h,
		keys: keyColumns(cfg),
		a:    assemblerFor(cfg, rdk.start, rdk.stop),
	}, nil
}

func (r *fastReader) Next(ctx context.Context) (*consume.Batch, error) {
	defer r.rdk.wake(ctx)()
	a := r.a
	for {
		for r.i < len(r.ends) && !a.full() {
			if err := r.decodeRun(); err != nil {
				return nil, err
			}
		}
		if r.i == len(r.ends) {
			// An EOF event follows its partition's messages in the queue:
			// once the crossing's messages are in the batch, the batch's
			// split may carry the positions the events prove.
			if err := r.applyEOFs(); err != nil {
				return nil, err
			}
		}
		if a.full() {
			return a.emit(keyedBatch(r.col.NewRecordBatch(), r.keys)), nil
		}
		if a.done() {
			if a.rows() > 0 {
				return a.emit(keyedBatch(r.col.NewRecordBatch(), r.keys)), nil
			}
			return nil, io.EOF
		}
		// A live read's batch that is not full: the crossing's messages
		// are all in it (it would be full otherwise), and once its linger
		// has passed it is handed over as it is. The clock is read only
		// while a linger runs, never on a bounded read.
		var now time.Time
		if a.lingering() {
			now = time.Now()
			if a.lingerDue(now) {
				return a.emit(keyedBatch(r.col.NewRecordBatch(), r.keys)), nil
			}
		}
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("fast: %w", err)
		}
		if err := r.rdk.discover(a, r.cfg); err != nil {
			return nil, err
		}
		if err := r.drainOnce(a.waitMs(int(pollWait/time.Millisecond), now)); err != nil {
			return nil, err
		}
	}
}

// decodeRun decodes the next run of the drained messages: those in the
// bounded range, with a value, that still fit in the current batch,
// straight from the drain buffer. A tombstone is a run of its own (one
// all-null row); a message outside the range ends the run and is skipped.
func (r *fastReader) decodeRun() error {
	a := r.a
	i := r.i
	if r.nulls[i] {
		r.i++
		ok, err := a.consume(r.parts[i], r.offs[i])
		if ok {
			r.col.AppendNull()
			r.appendKeys(i, i+1)
			a.addedNull(r.parts[i], r.offs[i])
		}
		return err
	}
	j := i
	room := a.batch - a.rows()
	skip := false
	// a run lies in one buffer: the destination's, or the drain's
	end := len(r.ends)
	if i < r.split {
		end = r.split
	}
	for j < end && j-i < room && !r.nulls[j] {
		ok, err := a.consume(r.parts[j], r.offs[j])
		if err != nil {
			return err
		}
		if !ok {
			skip = true
			break
		}
		j++
	}
	r.i = j
	if skip {
		r.i++ // the out-of-range message
	}
	if j == i {
		return nil
	}
	return r.decode(i, j)
}

// decode appends the values of drained messages [i, j), all in range and
// none null: in bulk when the codec can, message by message otherwise. A
// message that does not parse is counted and located, and decoding goes on
// after it.
func (r *fastReader) decode(i, j int) error {
	a := r.a
	buf, begin := r.buf, uint32(0)
	if i < r.split {
		buf = r.dst
	}
	if i > 0 && i != r.split {
		begin = r.ends[i-1]
	}
	if bulk, ok := r.col.(workloads.Bulk); ok {
		for i < j {
			n, err := bulk.AppendBulk(buf, begin, r.ends[i:j])
			if n > 0 {
				r.appendKeys(i, i+n)
				a.addedRun(r.parts[i:i+n], r.offs[i:i+n], int(r.ends[i+n-1]-begin))
			}
			if err == nil {
				return nil
			}
			if !errors.Is(err, workloads.ErrParse) {
				return err
			}
			a.parseFailed(r.parts[i+n], r.offs[i+n], err)
			// go on in bulk after the bad one
			i += n + 1
			begin = r.ends[i-1]
		}
		return nil
	}
	for k := i; k < j; k++ {
		msg := buf[begin:r.ends[k]]
		begin = r.ends[k]
		if err := r.col.Append(msg); err != nil {
			if !errors.Is(err, workloads.ErrParse) {
				return err
			}
			a.parseFailed(r.parts[k], r.offs[k], err)
			continue
		}
		r.appendKeys(k, k+1)
		a.added(r.parts[k], r.offs[k], len(msg))
	}
	return nil
}

// appendKeys adds the keys and headers of drained messages [i, j), whose
// value rows were just appended, when the read is keyed.
func (r *fastReader) appendKeys(i, j int) {
	if r.keys == nil {
		return
	}
	kfrom, hfrom := uint32(0), uint32(0)
	if i > 0 {
		kfrom, hfrom = r.kends[i-1], r.hends[i-1]
	}
	for k := i; k < j; k++ {
		if r.knulls[k] {
			r.keys.Append(nil)
		} else {
			r.keys.Append(r.kbuf[kfrom:r.kends[k]])
		}
		hs := drain.HeadersOf(r.hbuf[hfrom:r.hends[k]])
		for {
			name, value, ok := hs.Next()
			if !ok {
				break
			}
			r.keys.AppendHeaderBytes(name, value)
		}
		kfrom, hfrom = r.kends[k], r.hends[k]
	}
}

// applyEOFs moves each partition's position to its EOF event's offset.
func (r *fastReader) applyEOFs() error {
	for _, e := range r.eofs {
		if err := r.a.eof(e.Partition, e.Offset); err != nil {
			return err
		}
	}
	r.eofs = r.eofs[:0]
	return nil
}

// drainOnce is one cgo crossing, waiting up to waitMs for the first
// message (100 ms, less when a live batch's linger ends sooner). With a
// Direct column, the payloads go straight into its data's free tail (at
// least a batch's worth at the mean payload so far; a crossing that fills
// it ends there). Errors come first: one the client does not retry by
// itself ends the read, whatever else the crossing brought.
func (r *fastReader) drainOnce(waitMs int) error {
	var dst []byte
	n, took, err := r.takeAhead()
	if !took {
		if r.direct != nil {
			dst = r.direct.Tail(r.expect(r.a.batch))
		}
		r.a.fetched() // the buffer's records are used up
		n, err = r.dr.Run(waitMs, dst)
	}
	r.a.stats.Crossings++
	if err != nil {
		return err
	}
	split, dlen := r.dr.Split()
	r.split, r.dst = split, dst[:dlen]
	// with Config.Stats the client's errors arrive beside the crossing
	// (mainPoller), not in it
	if r.rdk.main != nil {
		if err := r.rdk.main.check(&r.a.stats); err != nil {
			return err
		}
	}
	if nerr, errs := r.dr.Errs(); nerr > 0 {
		for _, e := range errs {
			if !r.rdk.tolerated(e.Code) {
				return rdkError(consume.PathFast, e.Code, e.Partition, e.Offset, errOf(e))
			}
		}
		r.a.stats.ConsumerErrors += int64(nerr)
	}
	r.buf, r.ends, r.parts, r.offs, r.nulls = r.dr.Views()
	if r.keys != nil {
		r.kbuf, r.kends, r.knulls, r.hbuf, r.hends = r.dr.KeyViews()
	}
	r.eofs = r.dr.EOFs()
	r.i = 0
	// A live read's EOF events come whenever it catches up with the
	// producer: they are no message, so a crossing of only those is one
	// that brought nothing (and they never finish a partition there).
	if n == 0 && (len(r.eofs) == 0 || r.a.live()) {
		// nothing drained, nothing left to decode: librdkafka's position
		// may have passed what it does not deliver
		r.rdk.position(r.a)
		if r.a.done() {
			return nil
		}
		return r.a.stalled(r.cfg.Timeout)
	}
	if n > 0 {
		r.a.stats.NonEmpty++
		r.startAhead()
	}
	r.a.progress()
	return nil
}

// takeAhead takes the crossing started ahead, if there is one: its drain
// becomes the reader's.
func (r *fastReader) takeAhead() (n int, took bool, err error) {
	if r.ahead == nil {
		return 0, false, nil
	}
	d, c, ok := r.ahead.take(r.dr)
	r.dr = d
	return c.n, ok, c.err
}

// startAhead starts the next crossing on the spare drain while this one's
// messages are decoded, unless the read does not cross ahead or a
// partition was ever paused (ahead.go).
func (r *fastReader) startAhead() {
	if r.ahead == nil || r.a.ps.paused != nil {
		return
	}
	r.a.fetched()
	r.ahead.start()
}

// expect is the data tail to ask for rows more payloads: their size at the
// mean payload so far, an eighth more, and 64 KiB before the first.
func (r *fastReader) expect(rows int) int {
	a := r.a
	seen, bytes := a.stats.Records+int64(a.rows()), a.stats.Bytes+a.bytes
	if seen == 0 || bytes == 0 {
		return 64 << 10
	}
	mean := bytes/seen + 1
	return int(int64(rows)*mean*9/8) + 1024
}

// errOf is a drained consumer error as a kafka.Error with its code, its
// text on one line: librdkafka's text, or the code's when there is none.
func errOf(e drain.Err) error {
	return kafka.NewError(e.Code, strings.Join(strings.Fields(e.Text), " "), false)
}

func (r *fastReader) Stats() consume.Stats { return r.rdk.stats.count(r.a.stats) }

func (r *fastReader) Assertions() (consume.Assertions, error) {
	as, err := r.rdk.assertions()
	as.Decoder = r.decoder
	as.Drain = consume.DrainCallbackQueue
	switch {
	case r.dr.BatchQueue():
		as.Drain = consume.DrainBatchQueue
	case r.ahead != nil:
		as.Drain = consume.DrainCallbackAhead
	}
	return as, err
}

func (r *fastReader) Close() error {
	if r.ahead != nil {
		r.ahead.close(r.rdk.waker.Wake)
	}
	r.col.Release()
	if r.keys != nil {
		r.keys.Release()
	}
	r.dr.Close()
	r.buf, r.ends, r.parts, r.offs, r.nulls, r.eofs = nil, nil, nil, nil, nil, nil
	r.dst, r.split = nil, 0
	r.kbuf, r.kends, r.knulls, r.hbuf, r.hends = nil, nil, nil, nil, nil
	return r.rdk.close()
}
