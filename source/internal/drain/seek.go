package drain

// #include <stdlib.h>
// #include "drain.h"
import "C"

import (
	"fmt"
	"time"
	"unsafe"

	"github.com/confluentinc/confluent-kafka-go/v2/kafka"
)

// Seek moves c's fetch position of each assigned partition parts[i] of
// topic to offsets[i] (rd_kafka_seek_partitions), waiting at most timeout
// for the consumer to take it: once it returns nil no message fetched
// before it reaches the application. confluent-kafka-go's SeekPartitions
// waits for ever. A wait that ran out, or a partition that could not be
// moved, is an error naming it.
func Seek(c *kafka.Consumer, topic string, parts []int32, offsets []int64, timeout time.Duration) error {
	if len(parts) != len(offsets) {
		return fmt.Errorf("seek: %d partitions, %d offsets", len(parts), len(offsets))
	}
	if len(parts) == 0 {
		return nil
	}
	ms := int(timeout / time.Millisecond)
	if ms < 1 {
		return fmt.Errorf("seek: timeout %v is under a millisecond (0 would not wait at all)", timeout)
	}
	rk, err := rkOf(c)
	if err != nil {
		return err
	}
	ctopic := C.CString(topic)
	defer C.free(unsafe.Pointer(ctopic))
	list := C.rd_kafka_topic_partition_list_new(C.int(len(parts)))
	defer C.rd_kafka_topic_partition_list_destroy(list)
	for i, p := range parts {
		tp := C.rd_kafka_topic_partition_list_add(list, ctopic, C.int32_t(p))
		tp.offset = C.int64_t(offsets[i])
	}
	if e := C.rd_kafka_seek_partitions(rk, list, C.int(ms)); e != nil {
		defer C.rd_kafka_error_destroy(e)
		return fmt.Errorf("seek %s to %v within %v: %s", topic, offsets, timeout, C.GoString(C.rd_kafka_error_string(e)))
	}
	for _, tp := range unsafe.Slice(list.elems, int(list.cnt)) {
		if tp.err != 0 {
			return fmt.Errorf("seek %s partition %d to %d: %s", topic, int32(tp.partition), int64(tp.offset), C.GoString(C.rd_kafka_err2str(C.int(tp.err))))
		}
	}
	return nil
}
