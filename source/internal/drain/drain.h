/* The fast path's drain: one call moves the consumer queue's backlog from
 * librdkafka into one contiguous buffer with per-message index arrays. */
#ifndef FPLAB_DRAIN_H
#define FPLAB_DRAIN_H

#include "rdk.h"

/* Why a drain stopped taking messages (fpl_drain.fault). A fault is never
 * cleared: the messages after it are dropped, so the drain is unusable. */
typedef enum {
	FPL_DRAIN_OK = 0,
	FPL_DRAIN_NOMEM = 1,   /* a buffer could not grow (realloc failed) */
	FPL_DRAIN_TOO_BIG = 2, /* the payloads passed 4 GiB: ends are 32-bit */
} fpl_drain_fault;

typedef struct fpl_drain {
	/* payload bytes of the last drain, back to back */
	unsigned char *buf;
	size_t len, cap;
	/* per message: end of its payload in buf, partition, offset */
	uint32_t *ends;
	int32_t *parts;
	int64_t *offs;
	int n, capn;
	/* consumer errors seen in the last drain; the first is kept */
	int errs, first_err;
	fpl_drain_fault fault;
} fpl_drain;

/* Returns NULL if the initial buffers cannot be allocated. */
fpl_drain *fpl_drain_new(int capn, size_t cap);
void fpl_drain_free(fpl_drain *d);
/* One crossing: serves the queue for up to timeout_ms into d (d->n
 * messages, d->errs errors). Returns rd_kafka_consume_callback_queue's
 * result: the number of messages served, or -1. */
int fpl_drain_run(rd_kafka_queue_t *q, int timeout_ms, fpl_drain *d);
/* rd_kafka_conf_get on the running client's configuration. */
rd_kafka_conf_res_t fpl_conf_get(rd_kafka_t *rk, const char *name, char *dst, size_t size);

#endif
