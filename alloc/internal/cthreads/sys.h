/* C side of alloc's allocator-neutral helpers: the cross-thread malloc/free
 * benchmark and the per-thread churn step. Everything here calls plain
 * malloc/free, so it exercises whichever allocator the binary links. */
#ifndef FPLAB_ALLOC_SYS_H
#define FPLAB_ALLOC_SYS_H

#include <stddef.h>
#include <stdint.h>

/* What the helpers return; fpl_xt_strerror names each. Mirrored as Go
 * constants in cthreads.go. */
typedef enum {
	FPL_XT_OK = 0,
	FPL_XT_ENOMEM = -1,   /* malloc returned NULL */
	FPL_XT_ETHREAD = -2,  /* pthread_create failed */
	FPL_XT_ECORRUPT = -3, /* a block's contents changed between malloc and free */
	FPL_XT_EARG = -4,     /* invalid argument */
} fpl_xt_code;

/* Runs n malloc(size) on one new pthread and the matching free() on another,
 * handed over through a single-producer single-consumer ring. Returns
 * FPL_XT_OK and the wall time in *ns, or another code. */
fpl_xt_code fpl_crossthread(long n, size_t size, int64_t *ns);

/* Background cross-thread traffic until fpl_bg_stop: one producer and one
 * consumer pthread. fpl_bg_start returns NULL if threads cannot start. */
typedef struct fpl_bg fpl_bg;
fpl_bg *fpl_bg_start(size_t size);
/* Stops and joins; returns the first failure (or FPL_XT_OK) and the pairs
 * moved. */
fpl_xt_code fpl_bg_stop(fpl_bg *bg, long *pairs);

/* One churn step on the calling thread: rounds of malloc/calloc/realloc/
 * posix_memalign/free of op-sized and buffer-sized blocks, each written and
 * verified. */
fpl_xt_code fpl_churn_local(int rounds, unsigned seed);
/* A block of size bytes filled with tag, for handing to another thread;
 * NULL if malloc fails. */
void *fpl_churn_make(size_t size, unsigned char tag);
/* Verifies a block from fpl_churn_make and frees it. */
fpl_xt_code fpl_churn_check_free(void *p, size_t size, unsigned char tag);

const char *fpl_xt_strerror(fpl_xt_code code);

#endif
