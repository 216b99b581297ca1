#include <stdlib.h>
#include <string.h>

#include "drain.h"

fpl_drain *fpl_drain_new(rd_kafka_t *rk, int capn, size_t cap, int keys) {
	fpl_drain *d = calloc(1, sizeof *d);
	if (!d)
		return NULL;
	d->rk = rk;
	d->capn = capn;
	d->cap = cap;
	d->buf = malloc(cap);
	d->ends = malloc(sizeof *d->ends * (size_t)capn);
	d->parts = malloc(sizeof *d->parts * (size_t)capn);
	d->offs = malloc(sizeof *d->offs * (size_t)capn);
	d->nulls = malloc(sizeof *d->nulls * (size_t)capn);
	int ok = d->buf && d->ends && d->parts && d->offs && d->nulls;
	if (keys) {
		/* keys of about 16 bytes, two headers of about 32 */
		d->keys = 1;
		d->kcap = (size_t)capn * 16;
		d->hcap = (size_t)capn * 32;
		d->kbuf = malloc(d->kcap);
		d->kends = malloc(sizeof *d->kends * (size_t)capn);
		d->knulls = malloc(sizeof *d->knulls * (size_t)capn);
		d->hbuf = malloc(d->hcap);
		d->hends = malloc(sizeof *d->hends * (size_t)capn);
		ok = ok && d->kbuf && d->kends && d->knulls && d->hbuf && d->hends;
	}
	if (!ok) {
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
	free(d->kbuf);
	free(d->kends);
	free(d->knulls);
	free(d->hbuf);
	free(d->hends);
	free(d->msgs);
	free(d);
}

int fpl_drain_batchq(fpl_drain *d, size_t max) {
	rd_kafka_message_t **m = realloc(d->msgs, max * sizeof *m);
	if (!m)
		return 0;
	d->msgs = m;
	d->maxmsgs = max;
	return 1;
}

/* grow_array reallocates *p to n elements of size each; it leaves *p as it
 * was and returns 0 if that fails. */
static int grow_array(void **p, size_t n, size_t size) {
	void *q = realloc(*p, n * size);
	if (!q)
		return 0;
	*p = q;
	return 1;
}

/* grow_index, grow_buf and the event growers return FPL_DRAIN_OK or
 * FPL_DRAIN_NOMEM. */
static fpl_drain_fault grow_index(fpl_drain *d) {
	size_t capn = d->capn ? (size_t)d->capn * 2 : 1024;
	int ok = grow_array((void **)&d->ends, capn, sizeof *d->ends);
	ok &= grow_array((void **)&d->parts, capn, sizeof *d->parts);
	ok &= grow_array((void **)&d->offs, capn, sizeof *d->offs);
	ok &= grow_array((void **)&d->nulls, capn, sizeof *d->nulls);
	if (d->keys) {
		ok &= grow_array((void **)&d->kends, capn, sizeof *d->kends);
		ok &= grow_array((void **)&d->knulls, capn, sizeof *d->knulls);
		ok &= grow_array((void **)&d->hends, capn, sizeof *d->hends);
	}
	if (!ok)
		return FPL_DRAIN_NOMEM;
	d->capn = (int)capn;
	return FPL_DRAIN_OK;
}

/* grow_buf grows a byte buffer of capacity *cap to at least need bytes. */
static fpl_drain_fault grow_buf(unsigned char **buf, size_t *cap, size_t need) {
	size_t c = *cap ? *cap : 4096;
	while (c < need)
		c *= 2;
	unsigned char *b = realloc(*buf, c);
	if (!b)
		return FPL_DRAIN_NOMEM;
	*buf = b;
	*cap = c;
	return FPL_DRAIN_OK;
}

static void put_u32(unsigned char *p, uint32_t v) { memcpy(p, &v, sizeof v); }

/* take_meta keeps the key and headers of message d->n of a keyed drain:
 * room for both is made before either is written. */
static fpl_drain_fault take_meta(rd_kafka_message_t *m, const rd_kafka_headers_t *h, fpl_drain *d) {
	size_t klen = m->key ? m->key_len : 0;
	size_t kneed = d->klen + klen;
	size_t cnt = h ? rd_kafka_header_cnt(h) : 0;
	size_t hneed = d->hlen;
	for (size_t i = 0; i < cnt; i++) {
		const char *name;
		const void *val;
		size_t size;
		if (rd_kafka_header_get_all(h, i, &name, &val, &size))
			return FPL_DRAIN_BAD_HEADERS;
		if (size >= FPL_DRAIN_NULL_VALUE)
			return FPL_DRAIN_TOO_BIG;
		hneed += 8 + strlen(name) + (val ? size : 0);
	}
	if (kneed > UINT32_MAX || hneed > UINT32_MAX)
		return FPL_DRAIN_TOO_BIG;
	fpl_drain_fault f;
	if (kneed > d->kcap && (f = grow_buf(&d->kbuf, &d->kcap, kneed)) != FPL_DRAIN_OK)
		return f;
	if (hneed > d->hcap && (f = grow_buf(&d->hbuf, &d->hcap, hneed)) != FPL_DRAIN_OK)
		return f;
	if (klen)
		memcpy(d->kbuf + d->klen, m->key, klen);
	d->klen = kneed;
	d->kends[d->n] = (uint32_t)kneed;
	d->knulls[d->n] = m->key == NULL;
	unsigned char *p = d->hbuf + d->hlen;
	for (size_t i = 0; i < cnt; i++) {
		const char *name;
		const void *val;
		size_t size;
		rd_kafka_header_get_all(h, i, &name, &val, &size);
		size_t nlen = strlen(name);
		put_u32(p, (uint32_t)nlen);
		memcpy(p + 4, name, nlen);
		p += 4 + nlen;
		if (!val) {
			put_u32(p, FPL_DRAIN_NULL_VALUE);
			p += 4;
			continue;
		}
		put_u32(p, (uint32_t)size);
		if (size)
			memcpy(p + 4, val, size);
		p += 4 + size;
	}
	d->hlen = hneed;
	d->hends[d->n] = (uint32_t)hneed;
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

/* bad_headers notes which message's headers did not parse, and why. */
static void bad_headers(fpl_drain *d, rd_kafka_message_t *m, int code) {
	d->bad.code = code;
	d->bad.partition = m->partition;
	d->bad.offset = m->offset;
	d->bad.str[0] = 0;
}

void fpl_drain_take(rd_kafka_message_t *m, const rd_kafka_headers_t *hdrs, fpl_drain *d) {
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
	/* to the destination while every payload so far fitted there and this
	 * one does too */
	int direct = d->dst && d->split == d->n && d->dlen + len <= d->dcap;
	size_t need = (direct ? d->dlen : d->len) + len;
	if (need > UINT32_MAX) {
		d->fault = FPL_DRAIN_TOO_BIG;
		return;
	}
	if (!direct && need > d->cap && (d->fault = grow_buf(&d->buf, &d->cap, need)) != FPL_DRAIN_OK)
		return;
	if (d->keys && (d->fault = take_meta(m, hdrs, d)) != FPL_DRAIN_OK) {
		if (d->fault == FPL_DRAIN_BAD_HEADERS)
			bad_headers(d, m, RD_KAFKA_RESP_ERR__BAD_MSG);
		return;
	}
	if (direct) {
		if (len)
			memcpy(d->dst + d->dlen, m->payload, len);
		d->dlen = need;
		d->split++;
	} else {
		if (len)
			memcpy(d->buf + d->len, m->payload, len);
		d->len = need;
	}
	d->ends[d->n] = (uint32_t)need;
	d->parts[d->n] = m->partition;
	d->offs[d->n] = m->offset;
	d->nulls[d->n] = m->payload == NULL;
	d->n++;
	/* the destination is full: the rest waits in the queue (a batch-queue
	 * crossing has dequeued its messages already: they go to buf) */
	if (d->dst && !direct && !d->msgs) {
		d->yields++;
		rd_kafka_yield(d->rk);
	}
}

static void on_message(rd_kafka_message_t *m, void *opaque) { fpl_drain_take(m, NULL, opaque); }

/* on_message_keyed is a keyed drain's callback: it asks librdkafka for the
 * message's headers (parsed on this first call) and takes the message with
 * them. A message whose headers do not parse faults the drain. */
static void on_message_keyed(rd_kafka_message_t *m, void *opaque) {
	fpl_drain *d = opaque;
	rd_kafka_headers_t *h = NULL;
	if (!m->err && d->fault == FPL_DRAIN_OK) {
		int e = rd_kafka_message_headers(m, &h);
		if (e == RD_KAFKA_RESP_ERR__NOENT) {
			h = NULL;
		} else if (e) {
			d->fault = FPL_DRAIN_BAD_HEADERS;
			bad_headers(d, m, e);
			return;
		}
	}
	fpl_drain_take(m, h, d);
}

void fpl_drain_reset(fpl_drain *d) {
	d->n = 0;
	d->len = 0;
	d->neof = 0;
	d->errs = 0;
	d->nerr = 0;
	d->klen = 0;
	d->hlen = 0;
	d->dlen = 0;
	d->split = 0;
	d->yields = 0;
}

void fpl_drain_aim(fpl_drain *d, unsigned char *dst, size_t dcap) {
	d->dst = dst;
	d->dcap = dst ? dcap : 0;
}

int fpl_drain_run(rd_kafka_queue_t *q, int timeout_ms, fpl_drain *d, unsigned char *dst, size_t dcap) {
	fpl_drain_reset(d);
	fpl_drain_aim(d, dst, dcap);
	int r = rd_kafka_consume_callback_queue(q, timeout_ms, d->keys ? on_message_keyed : on_message, d);
	/* dst may be Go memory: C keeps no pointer to it past the call */
	fpl_drain_aim(d, NULL, 0);
	return r;
}

int fpl_drain_run_batch(rd_kafka_queue_t *q, int timeout_ms, fpl_drain *d, unsigned char *dst, size_t dcap) {
	fpl_drain_reset(d);
	fpl_drain_aim(d, dst, dcap);
	ssize_t r = rd_kafka_consume_batch_queue(q, timeout_ms, d->msgs, d->maxmsgs);
	for (ssize_t i = 0; i < r; i++) {
		if (d->keys)
			on_message_keyed(d->msgs[i], d);
		else
			on_message(d->msgs[i], d);
		rd_kafka_message_destroy(d->msgs[i]);
	}
	fpl_drain_aim(d, NULL, 0);
	return (int)r;
}

rd_kafka_conf_res_t fpl_conf_get(rd_kafka_t *rk, const char *name, char *dst, size_t size) {
	size_t n = size;
	return rd_kafka_conf_get(rd_kafka_conf(rk), name, dst, &n);
}
