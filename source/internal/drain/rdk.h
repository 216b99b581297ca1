/* The few librdkafka declarations the lab's own cgo layer needs. The
 * library itself is the static copy confluent-kafka-go links into the
 * binary; these prototypes match its public C API (rdkafka.h, 2.x). */
#ifndef FPLAB_RDK_H
#define FPLAB_RDK_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

typedef struct rd_kafka_s rd_kafka_t;
typedef struct rd_kafka_conf_s rd_kafka_conf_t;
typedef struct rd_kafka_queue_s rd_kafka_queue_t;
typedef struct rd_kafka_topic_s rd_kafka_topic_t;
typedef struct rd_kafka_headers_s rd_kafka_headers_t;

typedef struct rd_kafka_message_s {
	int err;
	rd_kafka_topic_t *rkt;
	int32_t partition;
	void *payload;
	size_t len;
	void *key;
	size_t key_len;
	int64_t offset;
	void *_private;
} rd_kafka_message_t;

/* The one rd_kafka_resp_err_t value the drain tells apart (rdkafka.h): the
 * consumer reached the end of a partition; the event's offset is the
 * consumer's position there. Every other error code is passed through. */
enum { RD_KAFKA_RESP_ERR__PARTITION_EOF = -191 };
/* What rd_kafka_message_headers returns for a message without headers,
 * and the code a keyed drain reports for headers it could not read. */
enum { RD_KAFKA_RESP_ERR__NOENT = -156, RD_KAFKA_RESP_ERR__BAD_MSG = -199 };

typedef enum { RD_KAFKA_CONF_UNKNOWN = -2, RD_KAFKA_CONF_INVALID = -1, RD_KAFKA_CONF_OK = 0 } rd_kafka_conf_res_t;

const rd_kafka_conf_t *rd_kafka_conf(rd_kafka_t *rk);
rd_kafka_conf_res_t rd_kafka_conf_get(const rd_kafka_conf_t *conf, const char *name, char *dest, size_t *dest_size);
rd_kafka_queue_t *rd_kafka_queue_get_consumer(rd_kafka_t *rk);
void rd_kafka_queue_destroy(rd_kafka_queue_t *rkqu);
void rd_kafka_yield(rd_kafka_t *rk);
ssize_t rd_kafka_consume_batch_queue(rd_kafka_queue_t *rkqu, int timeout_ms, rd_kafka_message_t **rkmessages,
                                     size_t rkmessages_size);
void rd_kafka_message_destroy(rd_kafka_message_t *rkmessage);
int rd_kafka_consume_callback_queue(rd_kafka_queue_t *rkqu, int timeout_ms,
                                    void (*consume_cb)(rd_kafka_message_t *rkmessage, void *commit_opaque),
                                    void *commit_opaque);
const char *rd_kafka_err2str(int err);

/* A message's headers (the keyed drain), and building a header list (the
 * drain's bookkeeping test). */
int rd_kafka_message_headers(const rd_kafka_message_t *rkmessage, rd_kafka_headers_t **hdrsp);
size_t rd_kafka_header_cnt(const rd_kafka_headers_t *hdrs);
int rd_kafka_header_get_all(const rd_kafka_headers_t *hdrs, size_t idx, const char **namep,
                            const void **valuep, size_t *sizep);
rd_kafka_headers_t *rd_kafka_headers_new(size_t initial_count);
void rd_kafka_headers_destroy(rd_kafka_headers_t *hdrs);
int rd_kafka_header_add(rd_kafka_headers_t *hdrs, const char *name, ssize_t name_size, const void *value,
                        ssize_t value_size);

/* The main (reply) queue and its events: statistics documents and client
 * errors (main.go). confluent-kafka-go forwards the main queue to the
 * consumer queue (rd_kafka_poll_set_consumer); a Main takes it back. */
typedef struct rd_kafka_op_s rd_kafka_event_t;
typedef int rd_kafka_event_type_t;
enum { RD_KAFKA_EVENT_NONE = 0x0, RD_KAFKA_EVENT_ERROR = 0x8, RD_KAFKA_EVENT_STATS = 0x40 };

rd_kafka_queue_t *rd_kafka_queue_get_main(rd_kafka_t *rk);
void rd_kafka_queue_forward(rd_kafka_queue_t *src, rd_kafka_queue_t *dst);
rd_kafka_event_t *rd_kafka_queue_poll(rd_kafka_queue_t *rkqu, int timeout_ms);
void rd_kafka_queue_yield(rd_kafka_queue_t *rkqu);
rd_kafka_event_type_t rd_kafka_event_type(const rd_kafka_event_t *rkev);
const char *rd_kafka_event_stats(rd_kafka_event_t *rkev);
int rd_kafka_event_error(rd_kafka_event_t *rkev);
const char *rd_kafka_event_error_string(rd_kafka_event_t *rkev);
void rd_kafka_event_destroy(rd_kafka_event_t *rkev);

/* Seeking assigned partitions with a bound on the wait (seek.go):
 * confluent-kafka-go's SeekPartitions waits with no timeout. The two
 * structs are rdkafka.h's public layout. */
typedef int rd_kafka_resp_err_t;
typedef struct rd_kafka_topic_partition_s {
	char *topic;
	int32_t partition;
	int64_t offset;
	void *metadata;
	size_t metadata_size;
	void *opaque;
	rd_kafka_resp_err_t err;
	void *_private;
} rd_kafka_topic_partition_t;
typedef struct rd_kafka_topic_partition_list_s {
	int cnt;
	int size;
	rd_kafka_topic_partition_t *elems;
} rd_kafka_topic_partition_list_t;
typedef struct rd_kafka_error_s rd_kafka_error_t;

rd_kafka_topic_partition_list_t *rd_kafka_topic_partition_list_new(int size);
void rd_kafka_topic_partition_list_destroy(rd_kafka_topic_partition_list_t *rkparlist);
rd_kafka_topic_partition_t *rd_kafka_topic_partition_list_add(rd_kafka_topic_partition_list_t *rktparlist,
                                                              const char *topic, int32_t partition);
rd_kafka_error_t *rd_kafka_seek_partitions(rd_kafka_t *rk, rd_kafka_topic_partition_list_t *partitions, int timeout_ms);
rd_kafka_resp_err_t rd_kafka_error_code(const rd_kafka_error_t *error);
const char *rd_kafka_error_string(const rd_kafka_error_t *error);
void rd_kafka_error_destroy(rd_kafka_error_t *error);

#endif
