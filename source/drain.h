/* The fast path's drain: one call moves the consumer queue's backlog from
 * librdkafka into one contiguous buffer with per-message index arrays. */
#ifndef FPLAB_DRAIN_H
#define FPLAB_DRAIN_H

#include "rdk.h"

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
	/* set when a buffer could not grow: the drain is unusable */
	int oom;
} fpl_drain;

fpl_drain *fpl_drain_new(int capn, size_t cap);
void fpl_drain_free(fpl_drain *d);
int fpl_drain_run(rd_kafka_queue_t *q, int timeout_ms, fpl_drain *d);
int fpl_conf_get(rd_kafka_t *rk, const char *name, char *dst, size_t size);

#endif
