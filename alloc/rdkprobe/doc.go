// Package rdkprobe lets tests and the consume cell allocate through
// librdkafka's own malloc (rd_kafka_mem_malloc, in the static librdkafka
// that confluent-kafka-go links into the binary) so they can check that the
// allocator package alloc claims really serves librdkafka, not just the
// lab's own C code. It sits beside alloc and is imported only where that
// evidence is wanted; it owns nothing but the two calls.
package rdkprobe
