package drain

// #include "drain.h"
import "C"

import (
	"fmt"
	"sync"

	"github.com/confluentinc/confluent-kafka-go/v2/kafka"
)

// A Waker cuts short a wait on a consumer's queue from another goroutine:
// confluent-kafka-go's Poll and a Drain's Run both wait on the consumer
// queue, and rd_kafka_queue_yield on it ends the wait at once (the wait
// returns what it has, nothing when it has nothing). A yield with no wait
// under way ends the next one instead, which then returns at once. It is
// what Kafka's KafkaConsumer.wakeup is to a Java poll, without the
// exception: the reader sees an empty wait and goes on.
type Waker struct {
	mu sync.Mutex
	q  *C.rd_kafka_queue_t
}

// NewWaker holds a handle of c's consumer queue until Close.
func NewWaker(c *kafka.Consumer) (*Waker, error) {
	rk, err := rkOf(c)
	if err != nil {
		return nil, err
	}
	q := C.rd_kafka_queue_get_consumer(rk)
	if q == nil {
		return nil, fmt.Errorf("librdkafka consumer has no consumer queue (no group.id)")
	}
	return &Waker{q: q}, nil
}

// Wake ends the consumer queue's current wait, or its next one. It may be
// called from any goroutine, also during or after Close (then it does
// nothing).
func (w *Waker) Wake() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.q != nil {
		C.rd_kafka_queue_yield(w.q)
	}
}

// Close releases the queue handle; the consumer stays open.
func (w *Waker) Close() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.q != nil {
		C.rd_kafka_queue_destroy(w.q)
		w.q = nil
	}
}
