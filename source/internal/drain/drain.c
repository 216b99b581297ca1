#include <stdlib.h>
#include <string.h>

#include "drain.h"

fpl_drain *fpl_drain_new(int capn, size_t cap) {
	fpl_drain *d = calloc(1, sizeof *d);
	if (!d)
		return NULL;
	d->capn = capn;
	d->cap = cap;
	d->buf = malloc(cap);
	d->ends = malloc(sizeof *d->ends * (size_t)capn);
	d->parts = malloc(sizeof *d->parts * (size_t)capn);
	d->offs = malloc(sizeof *d->offs * (size_t)capn);
	if (!d->buf || !d->ends || !d->parts || !d->offs) {
		fpl_drain_free(d);
		return NULL;
	}
	return d;
}

void fpl_drain_free(fpl_drain *d) {
	if (!d)
		return;
	free(d->buf);
	free(d->ends);
	free(d->parts);
	free(d->offs);
	free(d);
}

/* grow_index and grow return FPL_DRAIN_OK or FPL_DRAIN_NOMEM. */
static fpl_drain_fault grow_index(fpl_drain *d) {
	int capn = d->capn ? d->capn * 2 : 1024;
	uint32_t *ends = realloc(d->ends, sizeof *ends * (size_t)capn);
	if (ends)
		d->ends = ends;
	int32_t *parts = realloc(d->parts, sizeof *parts * (size_t)capn);
	if (parts)
		d->parts = parts;
	int64_t *offs = realloc(d->offs, sizeof *offs * (size_t)capn);
	if (offs)
		d->offs = offs;
	if (!ends || !parts || !offs)
		return FPL_DRAIN_NOMEM;
	d->capn = capn;
	return FPL_DRAIN_OK;
}

static fpl_drain_fault grow(fpl_drain *d, size_t need) {
	size_t cap = d->cap ? d->cap : 4096;
	while (cap < need)
		cap *= 2;
	unsigned char *b = realloc(d->buf, cap);
	if (!b)
		return FPL_DRAIN_NOMEM;
	d->buf = b;
	d->cap = cap;
	return FPL_DRAIN_OK;
}

static void on_message(rd_kafka_message_t *m, void *opaque) {
	fpl_drain *d = opaque;
	if (m->err) {
		if (d->errs++ == 0)
			d->first_err = m->err;
		return;
	}
	if (d->fault != FPL_DRAIN_OK)
		return;
	/* the queue drain moves the whole backlog (librdkafka applies no
	 * per-call limit to rd_kafka_consume_callback_queue): grow to it */
	if (d->n == d->capn && (d->fault = grow_index(d)) != FPL_DRAIN_OK)
		return;
	size_t need = d->len + m->len;
	if (need > UINT32_MAX) {
		d->fault = FPL_DRAIN_TOO_BIG;
		return;
	}
	if (need > d->cap && (d->fault = grow(d, need)) != FPL_DRAIN_OK)
		return;
	if (m->len)
		memcpy(d->buf + d->len, m->payload, m->len);
	d->len = need;
	d->ends[d->n] = (uint32_t)d->len;
	d->parts[d->n] = m->partition;
	d->offs[d->n] = m->offset;
	d->n++;
}

int fpl_drain_run(rd_kafka_queue_t *q, int timeout_ms, fpl_drain *d) {
	d->n = 0;
	d->len = 0;
	d->errs = 0;
	d->first_err = 0;
	return rd_kafka_consume_callback_queue(q, timeout_ms, on_message, d);
}

rd_kafka_conf_res_t fpl_conf_get(rd_kafka_t *rk, const char *name, char *dst, size_t size) {
	size_t n = size;
	return rd_kafka_conf_get(rd_kafka_conf(rk), name, dst, &n);
}
