package source

// #include <stdlib.h>
// #include "drain.h"
import "C"

import (
	"fmt"
	"reflect"
	"unsafe"

	"github.com/confluentinc/confluent-kafka-go/v2/kafka"
)

// drain owns the C side of the fast path: the consumer queue of a
// confluent-kafka-go consumer and the contiguous payload buffer.
type drain struct {
	q *C.rd_kafka_queue_t
	d *C.fpl_drain
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

// effectiveConf reads a property back from the running librdkafka client.
func effectiveConf(c *kafka.Consumer, name string) (string, error) {
	rk, err := rkOf(c)
	if err != nil {
		return "", err
	}
	cname := C.CString(name)
	defer C.free(unsafe.Pointer(cname))
	var buf [256]C.char
	if res := C.fpl_conf_get(rk, cname, &buf[0], C.size_t(len(buf))); res != C.RD_KAFKA_CONF_OK {
		return "", fmt.Errorf("source: librdkafka has no property %q (result %d)", name, int(res))
	}
	return C.GoString(&buf[0]), nil
}

func newDrain(c *kafka.Consumer, batch int) (*drain, error) {
	rk, err := rkOf(c)
	if err != nil {
		return nil, err
	}
	d := C.fpl_drain_new(C.int(batch), C.size_t(batch*128))
	if d == nil {
		return nil, fmt.Errorf("source: cannot allocate a drain buffer for %d messages", batch)
	}
	return &drain{q: C.rd_kafka_queue_get_consumer(rk), d: d}, nil
}

// run is the one cgo crossing per drain: it moves the queued backlog into
// the buffer and returns how many messages arrived.
func (d *drain) run(timeoutMs int) (int, error) {
	C.fpl_drain_run(d.q, C.int(timeoutMs), d.d)
	switch d.d.oom {
	case 0:
	case 3:
		return 0, fmt.Errorf("source: drain buffer over 4 GiB")
	default:
		return 0, fmt.Errorf("source: drain buffers could not grow past %d bytes / %d messages", int(d.d.cap), int(d.d.capn))
	}
	return int(d.d.n), nil
}

// errs reports the consumer errors of the last drain and the first code.
func (d *drain) errs() (int, kafka.ErrorCode) {
	return int(d.d.errs), kafka.ErrorCode(d.d.first_err)
}

// views exposes the last drain's buffers to Go without copying. They stay
// valid until the next run.
func (d *drain) views() (buf []byte, ends []uint32, parts []int32, offs []int64) {
	n := int(d.d.n)
	if n == 0 {
		return nil, nil, nil, nil
	}
	buf = unsafe.Slice((*byte)(unsafe.Pointer(d.d.buf)), int(d.d.len))
	ends = unsafe.Slice((*uint32)(unsafe.Pointer(d.d.ends)), n)
	parts = unsafe.Slice((*int32)(unsafe.Pointer(d.d.parts)), n)
	offs = unsafe.Slice((*int64)(unsafe.Pointer(d.d.offs)), n)
	return buf, ends, parts, offs
}

func (d *drain) close() {
	if d.q != nil {
		C.rd_kafka_queue_destroy(d.q)
		d.q = nil
	}
	if d.d != nil {
		C.fpl_drain_free(d.d)
		d.d = nil
	}
}
