// Package drain is the fast path's cgo layer: the lab's own C over the
// librdkafka that confluent-kafka-go links into the binary.
//
// Where it sits in the flow:
//
//	spec -> cells -> child process (fplab rung) -> [source: fast path -> drain] -> result -> journal -> tables/plots/report
//
// A Drain moves the backlog of a consumer's queue into one contiguous C
// buffer per crossing (rd_kafka_consume_callback_queue with drain.c's
// callback), with per-message end offset, partition, offset and null-value
// arrays that Views exposes to Go without a copy. A crossing may be given
// a destination: payloads go there, back to back, while they fit; the
// first that does not goes to the C buffer and the crossing ends there
// (Split): the callback calls rd_kafka_yield, and librdkafka puts what it
// did not serve back at the queue's head. A null value (a
// tombstone, payload NULL) is flagged and adds no byte; an empty value is
// not null. A keyed drain (New with keys) also copies every message's key
// and headers (rd_kafka_message_headers, rd_kafka_header_get_all) into two
// more buffers with per-message ends and a null-key flag (KeyViews,
// Headers); an unkeyed one never asks for headers. What else the queue
// brings is kept apart: partition-EOF events
// (the consumer's position, EOFs) and consumer errors with their partition,
// offset and text (Errs). Conf reads a property back from the
// running client (rd_kafka_conf_get), which is how every librdkafka path
// proves its check.crcs. A Main (Detach) takes a consumer's main queue
// back from its consumer queue, where confluent-kafka-go forwards it, so
// the statistics documents librdkafka emits there (which would abort a
// crossing) and the client errors are served apart (Poll, Wake). A
// Waker yields the consumer queue from another goroutine, ending a wait
// under way (wake.go); Seek moves assigned partitions' fetch positions
// with a bound on the wait (rd_kafka_seek_partitions; confluent-kafka-go's
// SeekPartitions waits for ever), which every librdkafka path's Resume
// uses.
//
// All of them take a *kafka.Consumer: confluent-kafka-go does not export its
// rd_kafka_t, so the handle is found by reflection, and a changed library
// layout is an error, not a crash. rdk.h declares the few librdkafka
// functions used; the C return codes are named in drain.h (fpl_drain_fault)
// and rdk.h (rd_kafka_conf_res_t, RD_KAFKA_RESP_ERR__PARTITION_EOF) and
// mirrored as Go constants; rd_kafka_topic_partition_t and its list are
// declared with rdkafka.h's public layout for Seek.
//
// This is the only cgo under source/; the package source/consume, the API
// the paths implement, has none.
package drain
