package drain

// #include <stdlib.h>
// #include "drain.h"
import "C"

import (
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
)

// The results of rd_kafka_conf_get (rd_kafka_conf_res_t in rdk.h).
const (
	confOK      = C.RD_KAFKA_CONF_OK
	confUnknown = C.RD_KAFKA_CONF_UNKNOWN
)

// The one error code the drain tells apart from the others (rdk.h).
const errPartitionEOF = C.RD_KAFKA_RESP_ERR__PARTITION_EOF

// Drain owns the C side of the fast path: the consumer queue of a
// confluent-kafka-go consumer and the contiguous payload buffer.
type Drain struct {
	q *C.rd_kafka_queue_t
	d *C.fpl_drain
	// eofs and errs are reused copies of the last Run's events.
	eofs []EOF
	errs []Err
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
		return nil, fmt.Errorf("source: confluent-kafka-go Consumer has no handle field (library layout changed)")
	}
	rk := h.FieldByName("rk")
	if !rk.IsValid() || rk.Kind() != reflect.Pointer || rk.IsNil() {
		return nil, fmt.Errorf("source: confluent-kafka-go handle has no rd_kafka_t (library layout changed)")
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
		return "", fmt.Errorf("source: librdkafka has no property %q", name)
	default:
		return "", fmt.Errorf("source: librdkafka property %q: rd_kafka_conf_get result %d", name, int(res))
	}
}

// New attaches a drain to c's consumer queue, its buffers sized for batch
// messages of 128 bytes (they grow to whatever one crossing brings).
func New(c *kafka.Consumer, batch int) (*Drain, error) {
	rk, err := rkOf(c)
	if err != nil {
		return nil, err
	}
	d := C.fpl_drain_new(C.int(batch), C.size_t(batch*128))
	if d == nil {
		return nil, fmt.Errorf("source: cannot allocate a drain buffer for %d messages", batch)
	}
	return &Drain{q: C.rd_kafka_queue_get_consumer(rk), d: d}, nil
}

// Run is the one cgo crossing per drain: it moves the queued backlog,
// waiting up to timeoutMs for the first message, into the buffer and
// returns how many messages arrived (EOF events and errors are counted
// apart: EOFs, Errs). The buffer's previous contents are gone.
func (d *Drain) Run(timeoutMs int) (int, error) {
	// rd_kafka_consume_callback_queue's own result (messages served, or -1
	// on error) is not needed: the callback counted what arrived (messages,
	// EOF events, errors), and crossings that bring nothing end in the
	// reader's stall timeout.
	C.fpl_drain_run(d.q, C.int(timeoutMs), d.d)
	switch d.d.fault {
	case faultNone:
	case faultTooBig:
		return 0, fmt.Errorf("source: drain buffer over 4 GiB")
	case faultNoMem:
		return 0, fmt.Errorf("source: drain buffers could not grow past %d bytes / %d messages", int(d.d.cap), int(d.d.capn))
	default:
		return 0, fmt.Errorf("source: drain fault %d", int(d.d.fault))
	}
	return int(d.d.n), nil
}

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
// back to back, and per message the end of its payload in buf, its
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
}

// take hands one message to the drain as a crossing's callback does, and
// reset empties it as a crossing does first: the drain's bookkeeping
// (nulls, EOF events, errors, growth) is tested through them without a
// broker.
func (d *Drain) take(code kafka.ErrorCode, partition int32, offset int64, payload []byte, null bool) {
	var m C.rd_kafka_message_t
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
	C.fpl_drain_take(&m, d.d)
}

func (d *Drain) reset() { C.fpl_drain_reset(d.d) }
