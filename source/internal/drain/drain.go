package drain

// #include <stdlib.h>
// #include "drain.h"
import "C"

import (
	"encoding/binary"
	"fmt"
	"reflect"
	"unsafe"

	"github.com/confluentinc/confluent-kafka-go/v2/kafka"
)

// The faults that end a drain (fpl_drain_fault in drain.h).
const (
	faultNone   = C.FPL_DRAIN_OK
	faultNoMem  = C.FPL_DRAIN_NOMEM
	faultTooBig = C.FPL_DRAIN_TOO_BIG
	faultBadHdr = C.FPL_DRAIN_BAD_HEADERS
)

// nullValue is the length that marks a null header value in the header
// buffer (FPL_DRAIN_NULL_VALUE).
const nullValue = C.FPL_DRAIN_NULL_VALUE

// The results of rd_kafka_conf_get (rd_kafka_conf_res_t in rdk.h).
const (
	confOK      = C.RD_KAFKA_CONF_OK
	confUnknown = C.RD_KAFKA_CONF_UNKNOWN
)

// The error codes the drain tells apart from the others (rdk.h).
const (
	errPartitionEOF = C.RD_KAFKA_RESP_ERR__PARTITION_EOF
	errNoEnt        = C.RD_KAFKA_RESP_ERR__NOENT
	errBadMsg       = C.RD_KAFKA_RESP_ERR__BAD_MSG
)

// Drain owns the C side of the fast path: the consumer queue of a
// confluent-kafka-go consumer and the contiguous payload buffer.
type Drain struct {
	q *C.rd_kafka_queue_t
	d *C.fpl_drain
	// batchQ: each crossing is rd_kafka_consume_batch_queue (UseBatchQueue)
	batchQ bool
	// eofs and errs are reused copies of the last Run's events.
	eofs []EOF
	errs []Err
	// testDst are the destinations tests aimed at (aim), freed at Close.
	testDst []unsafe.Pointer
}

// EOF is a partition-EOF event: the consumer's position in Partition is
// Offset (it has read, or skipped as invisible, everything before it).
type EOF struct {
	Partition int32
	Offset    int64
}

// Err is a consumer error as librdkafka reported it: its code, the
// partition and offset it concerns (Partition -1 when it is the client's,
// not a partition's) and librdkafka's text.
type Err struct {
	Code      kafka.ErrorCode
	Partition int32
	Offset    int64
	Text      string
}

// rkOf returns the librdkafka handle inside a confluent-kafka-go consumer.
// confluent-kafka-go does not export it; the field is read by reflection so
// the lab's own cgo layer can drive the same client the other paths use.
func rkOf(c *kafka.Consumer) (*C.rd_kafka_t, error) {
	h := reflect.ValueOf(c).Elem().FieldByName("handle")
	if !h.IsValid() {
		return nil, fmt.Errorf("confluent-kafka-go Consumer has no handle field (library layout changed)")
	}
	rk := h.FieldByName("rk")
	if !rk.IsValid() || rk.Kind() != reflect.Pointer || rk.IsNil() {
		return nil, fmt.Errorf("confluent-kafka-go handle has no rd_kafka_t (library layout changed)")
	}
	return (*C.rd_kafka_t)(rk.UnsafePointer()), nil
}

// Conf reads a property back from the running librdkafka client of c.
func Conf(c *kafka.Consumer, name string) (string, error) {
	rk, err := rkOf(c)
	if err != nil {
		return "", err
	}
	cname := C.CString(name)
	defer C.free(unsafe.Pointer(cname))
	var buf [256]C.char
	switch res := C.fpl_conf_get(rk, cname, &buf[0], C.size_t(len(buf))); res {
	case confOK:
		return C.GoString(&buf[0]), nil
	case confUnknown:
		return "", fmt.Errorf("librdkafka has no property %q", name)
	default:
		return "", fmt.Errorf("librdkafka property %q: rd_kafka_conf_get result %d", name, int(res))
	}
}

// New attaches a drain to c's consumer queue, its buffers sized for batch
// messages of 128 bytes (they grow to whatever one crossing brings). A
// keyed drain (keys) also keeps every message's key and headers
// (KeyViews); an unkeyed one never asks librdkafka for them.
func New(c *kafka.Consumer, batch int, keys bool) (*Drain, error) {
	rk, err := rkOf(c)
	if err != nil {
		return nil, err
	}
	d := C.fpl_drain_new(rk, C.int(batch), C.size_t(batch*128), C.int(b2i(keys)))
	if d == nil {
		return nil, fmt.Errorf("cannot allocate a drain buffer for %d messages", batch)
	}
	return &Drain{q: C.rd_kafka_queue_get_consumer(rk), d: d}, nil
}

// UseBatchQueue makes every later Run cross with
// rd_kafka_consume_batch_queue, up to max messages per crossing, instead
// of rd_kafka_consume_callback_queue: librdkafka then locks the queue per
// message and hands each over as its own message object, which the drain
// takes like the callback's and destroys. It exists to measure that API
// against the callback drain (upstream: the callback drain was +11% raw);
// the fast path's own drain is the callback one. Without a destination a
// crossing is the same either way; with one, a batch-queue crossing that
// fills it takes the rest of its messages into the drain's buffer.
func (d *Drain) UseBatchQueue(max int) error {
	if max < 1 {
		return fmt.Errorf("batch-queue drain of %d messages per crossing", max)
	}
	if C.fpl_drain_batchq(d.d, C.size_t(max)) == 0 {
		return fmt.Errorf("cannot allocate a batch-queue drain of %d messages", max)
	}
	d.batchQ = true
	return nil
}

// BatchQueue reports whether the drain crosses with
// rd_kafka_consume_batch_queue (UseBatchQueue).
func (d *Drain) BatchQueue() bool { return d.batchQ }

// Run is the one cgo crossing per drain: it moves the queued backlog,
// waiting up to timeoutMs for the first message, into the buffers and
// returns how many messages arrived (EOF events and errors are counted
// apart: EOFs, Errs). The previous Run's contents are gone.
//
// With a destination dst (not empty), payloads are copied into dst, back
// to back from dst[0], for as long as they fit: Split tells how many
// messages went there. The first one that does not fit, and any after it,
// go to the drain's own buffer as without a destination, and the crossing
// ends there (the rest stays queued). dst may be Go memory: it is written
// only during Run.
func (d *Drain) Run(timeoutMs int, dst []byte) (int, error) {
	// rd_kafka_consume_callback_queue's own result (messages served, or -1
	// on error) is not needed: the callback counted what arrived (messages,
	// EOF events, errors), and crossings that bring nothing end in the
	// reader's stall timeout.
	var p *C.uchar
	if len(dst) > 0 {
		p = (*C.uchar)(unsafe.Pointer(unsafe.SliceData(dst)))
	}
	if d.batchQ {
		C.fpl_drain_run_batch(d.q, C.int(timeoutMs), d.d, p, C.size_t(len(dst)))
	} else {
		C.fpl_drain_run(d.q, C.int(timeoutMs), d.d, p, C.size_t(len(dst)))
	}
	switch d.d.fault {
	case faultNone:
	case faultTooBig:
		return 0, fmt.Errorf("drain buffer over 4 GiB")
	case faultNoMem:
		return 0, fmt.Errorf("drain buffers could not grow past %d bytes / %d messages", int(d.d.cap), int(d.d.capn))
	case faultBadHdr:
		b := d.d.bad
		return 0, fmt.Errorf("fast: partition %d offset %d: the message's headers do not parse: %v",
			int32(b.partition), int64(b.offset), kafka.ErrorCode(b.code))
	default:
		return 0, fmt.Errorf("drain fault %d", int(d.d.fault))
	}
	return int(d.d.n), nil
}

// Split reports where the last Run put the payloads: messages [0, split)
// in its destination, n bytes of it, their ends (Views) relative to the
// destination's start; messages [split, Run's count) in the drain's own
// buffer (Views' buf), their ends relative to it. Without a destination
// split is 0.
func (d *Drain) Split() (split, n int) { return int(d.d.split), int(d.d.dlen) }

// Errs reports the consumer errors of the last Run: how many there were,
// and each one kept (all of them unless the drain faulted), in order.
func (d *Drain) Errs() (int, []Err) {
	d.errs = d.errs[:0]
	if n := int(d.d.nerr); n > 0 {
		for _, e := range unsafe.Slice(d.d.errv, n) {
			d.errs = append(d.errs, Err{
				Code:      kafka.ErrorCode(e.code),
				Partition: int32(e.partition),
				Offset:    int64(e.offset),
				Text:      C.GoString(&e.str[0]),
			})
		}
	}
	return int(d.d.errs), d.errs
}

// EOFs reports the partition-EOF events of the last Run, in order. They
// are not errors and are not in Errs. The slice is reused by the next Run.
func (d *Drain) EOFs() []EOF {
	d.eofs = d.eofs[:0]
	if n := int(d.d.neof); n > 0 {
		for _, e := range unsafe.Slice(d.d.eofs, n) {
			d.eofs = append(d.eofs, EOF{Partition: int32(e.partition), Offset: int64(e.offset)})
		}
	}
	return d.eofs
}

// Views exposes the last Run's buffers to Go without copying: the payloads
// of the messages that did not go to Run's destination (Split) back to
// back, and per message the end of its payload (in buf, or in the
// destination for the messages there), its
// partition, its offset and whether its value is null (a tombstone, which
// adds nothing to buf; an empty value is not null). They stay valid until
// the next Run or Close.
func (d *Drain) Views() (buf []byte, ends []uint32, parts []int32, offs []int64, nulls []bool) {
	n := int(d.d.n)
	if n == 0 {
		return nil, nil, nil, nil, nil
	}
	buf = unsafe.Slice((*byte)(unsafe.Pointer(d.d.buf)), int(d.d.len))
	ends = unsafe.Slice((*uint32)(unsafe.Pointer(d.d.ends)), n)
	parts = unsafe.Slice((*int32)(unsafe.Pointer(d.d.parts)), n)
	offs = unsafe.Slice((*int64)(unsafe.Pointer(d.d.offs)), n)
	// the C flags are 0 or 1, which is a Go bool's representation
	nulls = unsafe.Slice((*bool)(unsafe.Pointer(d.d.nulls)), n)
	return buf, ends, parts, offs, nulls
}

// KeyViews exposes a keyed drain's keys and headers of the last Run to Go
// without copying (all nil for an unkeyed drain or an empty Run): the keys
// back to back, per message the end of its key in keys and whether it has
// none (a null key adds nothing to keys; an empty key is not null), and
// the headers back to back with per message the end of its headers in
// hdrs; Headers walks one message's. They stay valid until the next Run or
// Close.
func (d *Drain) KeyViews() (keys []byte, keyEnds []uint32, keyNulls []bool, hdrs []byte, hdrEnds []uint32) {
	n := int(d.d.n)
	if n == 0 || d.d.keys == 0 {
		return nil, nil, nil, nil, nil
	}
	// a non-nil slice even when no key has a byte: an empty key's view
	// must not be nil, which would read as a null key
	keys = unsafe.Slice((*byte)(unsafe.Pointer(d.d.kbuf)), int(d.d.klen))
	keyEnds = unsafe.Slice((*uint32)(unsafe.Pointer(d.d.kends)), n)
	keyNulls = unsafe.Slice((*bool)(unsafe.Pointer(d.d.knulls)), n)
	hdrs = unsafe.Slice((*byte)(unsafe.Pointer(d.d.hbuf)), int(d.d.hlen))
	hdrEnds = unsafe.Slice((*uint32)(unsafe.Pointer(d.d.hends)), n)
	return keys, keyEnds, keyNulls, hdrs, hdrEnds
}

// Headers walks the headers of one message: hdrs[from:to] of KeyViews'
// header buffer, from the previous message's end to its own.
type Headers struct{ b []byte }

// HeadersOf returns the walk of the headers in b.
func HeadersOf(b []byte) Headers { return Headers{b} }

// Next returns the next header's name and value (nil for a null value,
// empty but not nil for an empty one), and false after the last.
func (h *Headers) Next() (name, value []byte, ok bool) {
	b := h.b
	if len(b) < 4 {
		return nil, nil, false
	}
	n := int(binary.NativeEndian.Uint32(b))
	if len(b) < 8+n {
		return nil, nil, false
	}
	name, b = b[4:4+n:4+n], b[4+n:]
	v := binary.NativeEndian.Uint32(b)
	b = b[4:]
	if v == nullValue {
		h.b = b
		return name, nil, true
	}
	if uint64(len(b)) < uint64(v) {
		return nil, nil, false
	}
	value, h.b = b[:v:v], b[v:]
	return name, value, true
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// Close releases the queue handle and the buffers. The consumer itself
// stays open: its owner closes it.
func (d *Drain) Close() {
	if d.q != nil {
		C.rd_kafka_queue_destroy(d.q)
		d.q = nil
	}
	if d.d != nil {
		C.fpl_drain_free(d.d)
		d.d = nil
	}
	for _, p := range d.testDst {
		C.free(p)
	}
	d.testDst = nil
}

// meta is a test message's key (nil: none) and headers (a nil value: a
// null one).
type meta struct {
	key  []byte
	hdrs []kafka.Header
}

// take hands one message to the drain as a crossing's callback does, and
// reset empties it as a crossing does first: the drain's bookkeeping
// (nulls, keys and headers, EOF events, errors, growth) is tested through
// them without a broker.
func (d *Drain) take(code kafka.ErrorCode, partition int32, offset int64, payload []byte, null bool) {
	d.takeMeta(code, partition, offset, payload, null, meta{})
}

func (d *Drain) takeMeta(code kafka.ErrorCode, partition int32, offset int64, payload []byte, null bool, mt meta) {
	var m C.rd_kafka_message_t
	var hdrs *C.rd_kafka_headers_t
	if mt.hdrs != nil {
		hdrs = C.rd_kafka_headers_new(C.size_t(len(mt.hdrs)))
		defer C.rd_kafka_headers_destroy(hdrs)
		for _, h := range mt.hdrs {
			name := C.CString(h.Key)
			var val unsafe.Pointer
			if h.Value != nil {
				val = C.CBytes(append(append([]byte(nil), h.Value...), 0)) // not NULL, even when empty
			}
			C.rd_kafka_header_add(hdrs, name, -1, val, C.ssize_t(len(h.Value)))
			C.free(unsafe.Pointer(name))
			C.free(val)
		}
	}
	if mt.key != nil {
		k := C.CBytes(append(append([]byte(nil), mt.key...), 0))
		defer C.free(k)
		m.key = k
		m.key_len = C.size_t(len(mt.key))
	}
	m.err = C.int(code)
	m.partition = C.int32_t(partition)
	m.offset = C.int64_t(offset)
	if partition >= 0 { // a partition's message has a topic handle (never read)
		rkt := C.malloc(1)
		defer C.free(rkt)
		m.rkt = (*C.rd_kafka_topic_t)(rkt)
	}
	if !null {
		p := C.malloc(C.size_t(len(payload)) + 1) // not NULL, even when empty
		defer C.free(p)
		copy(unsafe.Slice((*byte)(p), len(payload)), payload)
		m.payload = p
		m.len = C.size_t(len(payload))
	}
	C.fpl_drain_take(&m, hdrs, d.d)
}

func (d *Drain) reset() { C.fpl_drain_reset(d.d) }

// aim sets the next takes' destination of n bytes (none when n is 0) as a
// Run does, and returns it: C memory, since C keeps it between takes,
// freed at Close.
func (d *Drain) aim(n int) []byte {
	var dst *C.uchar
	if n > 0 {
		dst = (*C.uchar)(C.malloc(C.size_t(n)))
		d.testDst = append(d.testDst, unsafe.Pointer(dst))
	}
	C.fpl_drain_aim(d.d, dst, C.size_t(n))
	if dst == nil {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(dst)), n)
}

// yields is how often the takes since the last reset yielded.
func (d *Drain) yields() int { return int(d.d.yields) }
