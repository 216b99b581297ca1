package drain

// #include <string.h>
// #include "rdk.h"
import "C"

import (
	"fmt"
	"unsafe"

	"github.com/confluentinc/confluent-kafka-go/v2/kafka"
)

// The event types a Main tells apart (rdk.h).
const (
	eventError = C.RD_KAFKA_EVENT_ERROR
	eventStats = C.RD_KAFKA_EVENT_STATS
)

// Main is a consumer's main (reply) queue, taken back from its consumer
// queue. confluent-kafka-go forwards the main queue to the consumer queue
// (rd_kafka_poll_set_consumer), so librdkafka's statistics documents
// (statistics.interval.ms) and client errors arrive among the messages.
// The fast path's crossing cannot take a statistics event there:
// rd_kafka_consume_callback_queue hands every op that is not a message or
// an error to rd_kafka_message_get, which aborts the process on one
// ("unhandled optype", librdkafka 2.11.1 rdkafka_msg.c). A Main ends the
// forwarding so those events stay on the main queue, where Poll serves
// them with the event API, off the crossing.
type Main struct {
	q, cq *C.rd_kafka_queue_t
	// pending are the events that reached the consumer queue before
	// Detach, which Poll hands out first.
	pending []Event
}

// Event is one event of the main queue: a statistics document (Stats, a
// copy of librdkafka's JSON) or a client error (Err, Partition -1).
type Event struct {
	Stats []byte
	Err   *Err
}

// Detach ends the forwarding of c's main queue to its consumer queue.
// It must be called before any partition is assigned: what was forwarded
// already is taken off the consumer queue (Poll returns it first), which
// before an assignment holds nothing else.
func Detach(c *kafka.Consumer) (*Main, error) {
	rk, err := rkOf(c)
	if err != nil {
		return nil, err
	}
	cq := C.rd_kafka_queue_get_consumer(rk)
	if cq == nil {
		return nil, fmt.Errorf("librdkafka consumer has no consumer queue (no group.id)")
	}
	m := &Main{q: C.rd_kafka_queue_get_main(rk), cq: cq}
	C.rd_kafka_queue_forward(m.q, nil)
	for {
		ev := C.rd_kafka_queue_poll(m.cq, 0)
		if ev == nil {
			break
		}
		if e, ok := eventOf(ev); ok {
			m.pending = append(m.pending, e)
		}
	}
	return m, nil
}

// Poll waits up to timeoutMs for the main queue's next statistics
// document or client error; false when none came (the wait ended, Wake
// cut it short, or an event of another kind was served).
func (m *Main) Poll(timeoutMs int) (Event, bool) {
	if len(m.pending) > 0 {
		e := m.pending[0]
		m.pending = m.pending[1:]
		return e, true
	}
	ev := C.rd_kafka_queue_poll(m.q, C.int(timeoutMs))
	if ev == nil {
		return Event{}, false
	}
	return eventOf(ev)
}

// eventOf copies what a Main keeps of an event and destroys it.
func eventOf(ev *C.rd_kafka_event_t) (Event, bool) {
	defer C.rd_kafka_event_destroy(ev)
	switch C.rd_kafka_event_type(ev) {
	case eventStats:
		js := C.rd_kafka_event_stats(ev)
		if js == nil {
			return Event{}, false
		}
		return Event{Stats: C.GoBytes(unsafe.Pointer(js), C.int(C.strlen(js)))}, true
	case eventError:
		e := &Err{Code: kafka.ErrorCode(C.rd_kafka_event_error(ev)), Partition: -1, Offset: -1}
		if s := C.rd_kafka_event_error_string(ev); s != nil {
			e.Text = C.GoString(s)
		}
		return Event{Err: e}, true
	}
	return Event{}, false
}

// Wake cuts short a Poll that is waiting, or the next one if none is
// (rd_kafka_queue_yield), so a poller can be stopped at once.
func (m *Main) Wake() { C.rd_kafka_queue_yield(m.q) }

// Close forwards the main queue to the consumer queue again, as
// confluent-kafka-go set it up (its Close serves the consumer queue), and
// releases the queue handles. No Poll may run during or after it.
func (m *Main) Close() {
	if m.q == nil {
		return
	}
	C.rd_kafka_queue_forward(m.q, m.cq)
	C.rd_kafka_queue_destroy(m.q)
	C.rd_kafka_queue_destroy(m.cq)
	m.q, m.cq, m.pending = nil, nil, nil
}
