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
	d->nulls = malloc(sizeof *d->nulls * (size_t)capn);
	if (!d->buf || !d->ends || !d->parts || !d->offs || !d->nulls) {
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
	free(d->nulls);
	free(d->eofs);
	free(d->errv);
	free(d);
}

/* grow_index, grow and the event growers return FPL_DRAIN_OK or
 * FPL_DRAIN_NOMEM. */
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
	unsigned char *nulls = realloc(d->nulls, sizeof *nulls * (size_t)capn);
	if (nulls)
		d->nulls = nulls;
	if (!ends || !parts || !offs || !nulls)
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

static fpl_drain_fault grow_eofs(fpl_drain *d) {
	int cap = d->capeof ? d->capeof * 2 : 64;
	fpl_drain_eof *e = realloc(d->eofs, sizeof *e * (size_t)cap);
	if (!e)
		return FPL_DRAIN_NOMEM;
	d->eofs = e;
	d->capeof = cap;
	return FPL_DRAIN_OK;
}

static fpl_drain_fault grow_errs(fpl_drain *d) {
	int cap = d->caperr ? d->caperr * 2 : 16;
	fpl_drain_err *e = realloc(d->errv, sizeof *e * (size_t)cap);
	if (!e)
		return FPL_DRAIN_NOMEM;
	d->errv = e;
	d->caperr = cap;
	return FPL_DRAIN_OK;
}

/* on_error keeps a consumer error: for errors librdkafka's payload is the
 * error text (not NUL-terminated: len counts it). An error that finds no
 * room (after a fault) is still counted. */
static void on_error(rd_kafka_message_t *m, fpl_drain *d) {
	d->errs++;
	if (d->nerr == d->caperr) {
		if (d->fault != FPL_DRAIN_OK || (d->fault = grow_errs(d)) != FPL_DRAIN_OK)
			return;
	}
	fpl_drain_err *e = &d->errv[d->nerr++];
	e->code = m->err;
	/* an error without a topic (the client's, the group's) has no
	 * partition: m->partition is then meaningless */
	e->partition = m->rkt ? m->partition : -1;
	e->offset = m->offset;
	size_t n = 0;
	if (m->payload) {
		n = m->len < FPL_DRAIN_ERRSTR - 1 ? m->len : FPL_DRAIN_ERRSTR - 1;
		memcpy(e->str, m->payload, n);
	}
	e->str[n] = 0;
}

void fpl_drain_take(rd_kafka_message_t *m, fpl_drain *d) {
	if (m->err == RD_KAFKA_RESP_ERR__PARTITION_EOF) {
		if (d->fault != FPL_DRAIN_OK)
			return;
		if (d->neof == d->capeof && (d->fault = grow_eofs(d)) != FPL_DRAIN_OK)
			return;
		d->eofs[d->neof].partition = m->partition;
		d->eofs[d->neof].offset = m->offset;
		d->neof++;
		return;
	}
	if (m->err) {
		on_error(m, d);
		return;
	}
	if (d->fault != FPL_DRAIN_OK)
		return;
	/* the queue drain moves the whole backlog (librdkafka applies no
	 * per-call limit to rd_kafka_consume_callback_queue): grow to it */
	if (d->n == d->capn && (d->fault = grow_index(d)) != FPL_DRAIN_OK)
		return;
	/* a null value (a tombstone) has no payload at all; an empty value
	 * has a payload of length 0 */
	size_t len = m->payload ? m->len : 0;
	size_t need = d->len + len;
	if (need > UINT32_MAX) {
		d->fault = FPL_DRAIN_TOO_BIG;
		return;
	}
	if (need > d->cap && (d->fault = grow(d, need)) != FPL_DRAIN_OK)
		return;
	if (len)
		memcpy(d->buf + d->len, m->payload, len);
	d->len = need;
	d->ends[d->n] = (uint32_t)d->len;
	d->parts[d->n] = m->partition;
	d->offs[d->n] = m->offset;
	d->nulls[d->n] = m->payload == NULL;
	d->n++;
}

static void on_message(rd_kafka_message_t *m, void *opaque) { fpl_drain_take(m, opaque); }

void fpl_drain_reset(fpl_drain *d) {
	d->n = 0;
	d->len = 0;
	d->neof = 0;
	d->errs = 0;
	d->nerr = 0;
}

int fpl_drain_run(rd_kafka_queue_t *q, int timeout_ms, fpl_drain *d) {
	fpl_drain_reset(d);
	return rd_kafka_consume_callback_queue(q, timeout_ms, on_message, d);
}

rd_kafka_conf_res_t fpl_conf_get(rd_kafka_t *rk, const char *name, char *dst, size_t size) {
	size_t n = size;
	return rd_kafka_conf_get(rd_kafka_conf(rk), name, dst, &n);
}
