package rdkprobe

// #include <stddef.h>
// /* Prototypes as in rdkafka.h 2.x; rk is unused by these two calls: NULL. */
// void *rd_kafka_mem_malloc(void *rk, size_t size);
// void rd_kafka_mem_free(void *rk, void *ptr);
import "C"

import (
	"fmt"
	"unsafe"

	// Links the static librdkafka that defines the two calls above.
	_ "github.com/confluentinc/confluent-kafka-go/v2/kafka"
)

// Malloc returns size bytes from librdkafka's allocator (rd_kafka_mem_malloc).
// Release it with Free.
func Malloc(size int) (unsafe.Pointer, error) {
	if size <= 0 {
		return nil, fmt.Errorf("rd_kafka_mem_malloc size must be positive, got %d", size)
	}
	p := C.rd_kafka_mem_malloc(nil, C.size_t(size))
	if p == nil {
		return nil, fmt.Errorf("rd_kafka_mem_malloc(%d) returned NULL", size)
	}
	return p, nil
}

// Free releases a block from Malloc through librdkafka (rd_kafka_mem_free).
func Free(p unsafe.Pointer) {
	if p != nil {
		C.rd_kafka_mem_free(nil, p)
	}
}
