/* C side of the go variant's proof and counters (glibc malloc). */
#ifndef FPLAB_ALLOC_GLIBC_H
#define FPLAB_ALLOC_GLIBC_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
	int64_t arena, ordblks, hblks, hblkhd, uordblks, fordblks, keepcost;
} fpl_glibc_counters;

typedef struct {
	char malloc_from[256];   /* object defining the malloc this process calls */
	int via_plt;             /* &malloc was a canonical PLT entry in the executable */
	int mi_symbol_visible;   /* a mimalloc symbol resolvable at run time */
	int64_t inuse_before, inuse_during, inuse_after; /* mallinfo2 uordblks+hblkhd */
	int burst_blocks;
	size_t burst_size;
	int burst_failed;
} fpl_glibc_proof;

const char *fpl_glibc_version(void);
void fpl_glibc_counters_read(fpl_glibc_counters *c);
void fpl_glibc_prove(fpl_glibc_proof *p);

#endif
