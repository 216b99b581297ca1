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
	FPL_DRAIN_TOO_BIG = 2, /* a buffer passed 4 GiB: ends are 32-bit */
	/* a message's headers did not parse (rd_kafka_message_headers failed;
	 * fpl_drain.bad says which message and why) */
	FPL_DRAIN_BAD_HEADERS = 3,
} fpl_drain_fault;

/* The value length that marks a null header value in fpl_drain.hbuf. */
#define FPL_DRAIN_NULL_VALUE UINT32_MAX

/* A partition-EOF event: the consumer's position in partition is offset. */
typedef struct fpl_drain_eof {
	int32_t partition;
	int64_t offset;
} fpl_drain_eof;

/* The length of the error text kept per consumer error (truncated). */
#define FPL_DRAIN_ERRSTR 200

/* A consumer error: its code, where it happened (partition -1 when it is
 * not a partition's) and librdkafka's text for it. */
typedef struct fpl_drain_err {
	int32_t code;
	int32_t partition;
	int64_t offset;
	char str[FPL_DRAIN_ERRSTR];
} fpl_drain_err;

typedef struct fpl_drain {
	/* payload bytes of the last drain, back to back */
	unsigned char *buf;
	size_t len, cap;
	/* per message: end of its payload in buf, partition, offset, and 1 if
	 * its value is null (a tombstone: payload NULL, nothing in buf), 0 if
	 * it is a value, empty or not */
	uint32_t *ends;
	int32_t *parts;
	int64_t *offs;
	unsigned char *nulls;
	int n, capn;
	/* partition-EOF events of the last drain, in arrival order */
	fpl_drain_eof *eofs;
	int neof, capeof;
	/* consumer errors of the last drain, in arrival order (EOF is not an
	 * error); errs counts them all, errv keeps the first nerr of them
	 * (all, unless an array could not grow) */
	fpl_drain_err *errv;
	int errs, nerr, caperr;
	fpl_drain_fault fault;
	/* the message whose headers did not parse (FPL_DRAIN_BAD_HEADERS):
	 * its partition and offset, and rd_kafka_message_headers' code */
	fpl_drain_err bad;

	/* A keyed drain (keys != 0) also keeps every message's key and
	 * headers; the arrays below are NULL otherwise, and an unkeyed drain
	 * never asks librdkafka for headers. Keys lie back to back in kbuf,
	 * with per message the end of its key and 1 if it has none (key NULL:
	 * nothing in kbuf; an empty key is not null). Headers lie back to back
	 * in hbuf, each as its name's length (uint32_t, host order), the name,
	 * its value's length (uint32_t, FPL_DRAIN_NULL_VALUE for a null value)
	 * and the value; per message the end of its headers in hbuf (a message
	 * without headers adds nothing). */
	int keys;
	unsigned char *kbuf;
	size_t klen, kcap;
	uint32_t *kends;
	unsigned char *knulls;
	unsigned char *hbuf;
	size_t hlen, hcap;
	uint32_t *hends;

	/* A crossing's destination (fpl_drain_aim, for one fpl_drain_run):
	 * with dst, of dcap bytes, payloads go to dst back to back while they
	 * fit: messages [0, split) are there, dlen bytes in all, their ends
	 * relative to dst. The first payload that does not fit goes to buf as
	 * without a destination, so does every message after it (ends
	 * relative to buf), and the callback yields (rd_kafka_yield: the rest
	 * stays queued for the next crossing). Without a destination split is
	 * 0: every message is in buf. yields counts the crossing's yields. */
	rd_kafka_t *rk;
	unsigned char *dst;
	size_t dlen, dcap;
	int split;
	int yields;

	/* A batch-queue drain (fpl_drain_batchq: msgs != NULL) crosses with
	 * rd_kafka_consume_batch_queue instead: up to maxmsgs messages, each
	 * handed back as its own rd_kafka_message_t, into msgs, then taken
	 * one by one and destroyed. The whole call's messages are taken, so a
	 * full destination does not yield: the rest goes to buf. */
	rd_kafka_message_t **msgs;
	size_t maxmsgs;
} fpl_drain;

/* Returns NULL if the initial buffers cannot be allocated. keys != 0 makes
 * a keyed drain. */
fpl_drain *fpl_drain_new(rd_kafka_t *rk, int capn, size_t cap, int keys);
void fpl_drain_free(fpl_drain *d);
/* One crossing: serves the queue for up to timeout_ms into d (d->n
 * messages, d->neof EOF events, d->errs errors), aimed at dst
 * (fpl_drain_aim). Returns
 * rd_kafka_consume_callback_queue's result: the number of messages served
 * (EOF events and errors included), or -1. */
int fpl_drain_run(rd_kafka_queue_t *q, int timeout_ms, fpl_drain *d, unsigned char *dst, size_t dcap);
/* Makes d a batch-queue drain of up to max messages per crossing; 0 if
 * the array cannot be allocated. */
int fpl_drain_batchq(fpl_drain *d, size_t max);
/* One crossing of a batch-queue drain: rd_kafka_consume_batch_queue for up
 * to timeout_ms and d->maxmsgs messages, each taken (fpl_drain_take) and
 * destroyed. Returns its result: messages (EOF events and errors
 * included), or -1. */
int fpl_drain_run_batch(rd_kafka_queue_t *q, int timeout_ms, fpl_drain *d, unsigned char *dst, size_t dcap);
/* What fpl_drain_run does with one message, given its headers (NULL:
 * none; read only by a keyed drain): exposed so the drain's bookkeeping is
 * testable without a broker. */
void fpl_drain_take(rd_kafka_message_t *m, const rd_kafka_headers_t *hdrs, fpl_drain *d);
/* Resets d to an empty drain, as fpl_drain_run does before serving. */
void fpl_drain_reset(fpl_drain *d);
/* Sets the next crossing's destination (NULL: none), as fpl_drain_run
 * does after the reset; it clears it again once served, so C never keeps
 * the pointer past the call. */
void fpl_drain_aim(fpl_drain *d, unsigned char *dst, size_t dcap);
/* rd_kafka_conf_get on the running client's configuration. */
rd_kafka_conf_res_t fpl_conf_get(rd_kafka_t *rk, const char *name, char *dst, size_t size);

#endif
