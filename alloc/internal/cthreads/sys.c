// Allocator-neutral C helpers (all variants): see sys.h.
#define _GNU_SOURCE
#include "sys.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

const char *fpl_xt_strerror(fpl_xt_code code) {
	switch (code) {
	case FPL_XT_OK: return "ok";
	case FPL_XT_ENOMEM: return "malloc returned NULL";
	case FPL_XT_ETHREAD: return "pthread_create failed";
	case FPL_XT_ECORRUPT: return "block contents changed between malloc and free";
	case FPL_XT_EARG: return "invalid argument";
	}
	return "unknown error";
}

#define RING 512 /* blocks in flight between the two threads, like an op queue */

/* fpl_ring.stop: the producer's state. */
enum {
	RING_RUNNING = 0,
	RING_STOP = 1, /* background mode: the producer is asked to stop */
	RING_DONE = 2, /* the producer made its last block */
};

typedef struct {
	void *slot[RING];
	_Atomic long head; /* written by the producer */
	_Atomic long tail; /* written by the consumer */
	_Atomic int stop;  /* RING_RUNNING, RING_STOP or RING_DONE */
	long n;            /* pairs to move; <0 means until stop */
	size_t size;
	_Atomic int err; /* an fpl_xt_code: FPL_XT_OK until a thread fails */
	long moved;
} fpl_ring;

static void spin_pause(int *spins) {
	if (++*spins > 64) {
		*spins = 0;
		sched_yield();
	}
}

/* Touches the first and last byte so the block is really used and the
 * compiler cannot drop the malloc/free pair. */
static void stamp(void *p, size_t size, long i) {
	volatile unsigned char *b = p;
	b[0] = (unsigned char)i;
	b[size - 1] = (unsigned char)(i >> 3);
}

static int stamped(void *p, size_t size, long i) {
	volatile unsigned char *b = p;
	return b[0] == (unsigned char)i && b[size - 1] == (unsigned char)(i >> 3);
}

static void *producer(void *arg) {
	fpl_ring *r = arg;
	int spins = 0;
	for (long i = 0; r->n < 0 || i < r->n; i++) {
		if (r->n < 0 && atomic_load_explicit(&r->stop, memory_order_relaxed) != RING_RUNNING)
			break;
		void *p = malloc(r->size);
		if (p == NULL) {
			atomic_store(&r->err, FPL_XT_ENOMEM);
			break;
		}
		stamp(p, r->size, i);
		while (i - atomic_load_explicit(&r->tail, memory_order_acquire) >= RING) {
			if (atomic_load_explicit(&r->err, memory_order_relaxed))
				return NULL;
			spin_pause(&spins);
		}
		r->slot[i % RING] = p;
		atomic_store_explicit(&r->head, i + 1, memory_order_release);
	}
	atomic_store(&r->stop, RING_DONE);
	return NULL;
}

static void *consumer(void *arg) {
	fpl_ring *r = arg;
	int spins = 0;
	long i = 0;
	for (;;) {
		long head = atomic_load_explicit(&r->head, memory_order_acquire);
		if (i == head) {
			if (atomic_load(&r->stop) == RING_DONE && i == atomic_load(&r->head))
				break;
			if (atomic_load_explicit(&r->err, memory_order_relaxed))
				break;
			spin_pause(&spins);
			continue;
		}
		for (; i < head; i++) {
			void *p = r->slot[i % RING];
			if (!stamped(p, r->size, i))
				atomic_store(&r->err, FPL_XT_ECORRUPT);
			free(p);
			atomic_store_explicit(&r->tail, i + 1, memory_order_release);
		}
	}
	r->moved = i;
	return NULL;
}

static int64_t now_ns(void) {
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static fpl_xt_code run_pair(fpl_ring *r, pthread_t *pt, pthread_t *ct) {
	if (pthread_create(ct, NULL, consumer, r) != 0)
		return FPL_XT_ETHREAD;
	if (pthread_create(pt, NULL, producer, r) != 0) {
		atomic_store(&r->err, FPL_XT_ETHREAD);
		atomic_store(&r->stop, RING_DONE);
		pthread_join(*ct, NULL);
		return FPL_XT_ETHREAD;
	}
	return FPL_XT_OK;
}

fpl_xt_code fpl_crossthread(long n, size_t size, int64_t *ns) {
	if (n <= 0 || size == 0)
		return FPL_XT_EARG;
	fpl_ring *r = calloc(1, sizeof *r);
	if (r == NULL)
		return FPL_XT_ENOMEM;
	r->n = n;
	r->size = size;
	pthread_t pt, ct;
	int64_t t0 = now_ns();
	fpl_xt_code rc = run_pair(r, &pt, &ct);
	if (rc == FPL_XT_OK) {
		pthread_join(pt, NULL);
		pthread_join(ct, NULL);
		*ns = now_ns() - t0;
		rc = atomic_load(&r->err);
	}
	free(r);
	return rc;
}

struct fpl_bg {
	fpl_ring r;
	pthread_t pt, ct;
};

fpl_bg *fpl_bg_start(size_t size) {
	if (size == 0)
		return NULL;
	fpl_bg *bg = calloc(1, sizeof *bg);
	if (bg == NULL)
		return NULL;
	bg->r.n = -1;
	bg->r.size = size;
	if (run_pair(&bg->r, &bg->pt, &bg->ct) != FPL_XT_OK) {
		free(bg);
		return NULL;
	}
	return bg;
}

fpl_xt_code fpl_bg_stop(fpl_bg *bg, long *pairs) {
	atomic_store(&bg->r.stop, RING_STOP);
	pthread_join(bg->pt, NULL);
	pthread_join(bg->ct, NULL);
	fpl_xt_code rc = atomic_load(&bg->r.err);
	*pairs = bg->r.moved;
	free(bg);
	return rc;
}

void *fpl_churn_make(size_t size, unsigned char tag) {
	unsigned char *p = malloc(size);
	if (p != NULL)
		memset(p, tag, size);
	return p;
}

fpl_xt_code fpl_churn_check_free(void *p, size_t size, unsigned char tag) {
	const unsigned char *b = p;
	fpl_xt_code rc = FPL_XT_OK;
	for (size_t i = 0; i < size; i += 61)
		if (b[i] != tag)
			rc = FPL_XT_ECORRUPT;
	if (b[size - 1] != tag)
		rc = FPL_XT_ECORRUPT;
	free(p);
	return rc;
}

fpl_xt_code fpl_churn_local(int rounds, unsigned seed) {
	static const size_t sizes[] = {16, 64, 232, 280, 1024, 65536};
	enum { K = sizeof sizes / sizeof sizes[0] };
	for (int r = 0; r < rounds; r++) {
		void *blk[K];
		for (int k = 0; k < K; k++) {
			size_t sz = sizes[(k + seed + r) % K];
			switch ((seed + r + k) % 3) {
			case 0: blk[k] = malloc(sz); break;
			case 1: blk[k] = calloc(1, sz); break;
			default:
				if (posix_memalign(&blk[k], 64, sz) != 0)
					blk[k] = NULL;
			}
			if (blk[k] == NULL)
				return FPL_XT_ENOMEM;
			memset(blk[k], (int)(k + 1), sz);
			blk[k] = realloc(blk[k], sz * 2);
			if (blk[k] == NULL)
				return FPL_XT_ENOMEM;
			memset((char *)blk[k] + sz, (int)(k + 1), sz);
		}
		for (int k = 0; k < K; k++) {
			size_t sz = sizes[(k + seed + r) % K] * 2;
			const unsigned char *b = blk[k];
			if (b[0] != (unsigned char)(k + 1) || b[sz - 1] != (unsigned char)(k + 1))
				return FPL_XT_ECORRUPT;
			free(blk[k]);
		}
	}
	return FPL_XT_OK;
}
