// Package rdkprobe allocates through librdkafka's own malloc
// (rd_kafka_mem_malloc, in the static librdkafka that confluent-kafka-go
// links into the binary), so a test can check that the allocator package
// alloc claims really serves librdkafka, not just the lab's own C code.
//
// Where it sits: outside the flow (spec -> cells -> child process ->
// result -> journal -> tables/plots/report); only its own test imports it,
// run once per allocator variant (go test -tags mimalloc2 ./alloc/...).
// The API is the two calls, Malloc and Free.
package rdkprobe
