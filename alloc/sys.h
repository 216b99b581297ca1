/* C side of alloc's allocator-neutral helpers: the cross-thread malloc/free
 * benchmark and the per-thread churn step. Everything here calls plain
 * malloc/free, so it exercises whichever allocator the binary links. */
#ifndef FPLAB_ALLOC_SYS_H
#define FPLAB_ALLOC_SYS_H

#include <stddef.h>
#include <stdint.h>

/* Runs n malloc(size) on one new pthread and the matching free() on another,
 * handed over through a single-producer single-consumer ring. Returns 0 and
 * the wall time in *ns, or a negative code (see fpl_xt_strerror). */
int fpl_crossthread(long n, size_t size, int64_t *ns);

/* Background cross-thread traffic until fpl_bg_stop: one producer and one
 * consumer pthread. fpl_bg_start returns NULL if threads cannot start. */
typedef struct fpl_bg fpl_bg;
fpl_bg *fpl_bg_start(size_t size);
/* Stops and joins; returns 0 or a negative code, and the pairs moved. */
int fpl_bg_stop(fpl_bg *bg, long *pairs);

/* One churn step on the calling thread: rounds of malloc/calloc/realloc/
 * posix_memalign/free of op-sized and buffer-sized blocks, each written and
 * verified. Returns 0 or a negative code. */
int fpl_churn_local(int rounds, unsigned seed);
/* A block of size bytes filled with tag, for handing to another thread. */
void *fpl_churn_make(size_t size, unsigned char tag);
/* Verifies a block from fpl_churn_make and frees it; 0 or a negative code. */
int fpl_churn_check_free(void *p, size_t size, unsigned char tag);

const char *fpl_xt_strerror(int code);

#endif
