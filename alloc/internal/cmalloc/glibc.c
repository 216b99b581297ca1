//go:build !mimalloc2 && !mimalloc3

// go variant: glibc malloc serves C; see glibc.h.
#define _GNU_SOURCE
#include "glibc.h"

#include <dlfcn.h>
#include <gnu/libc-version.h>
#include <malloc.h>
#include <stdlib.h>
#include <string.h>

const char *fpl_glibc_version(void) { return gnu_get_libc_version(); }

void fpl_glibc_counters_read(fpl_glibc_counters *c) {
	struct mallinfo2 m = mallinfo2();
	c->arena = (int64_t)m.arena;
	c->ordblks = (int64_t)m.ordblks;
	c->hblks = (int64_t)m.hblks;
	c->hblkhd = (int64_t)m.hblkhd;
	c->uordblks = (int64_t)m.uordblks;
	c->fordblks = (int64_t)m.fordblks;
	c->keepcost = (int64_t)m.keepcost;
}

static int64_t inuse(void) {
	struct mallinfo2 m = mallinfo2();
	return (int64_t)(m.uordblks + m.hblkhd);
}

void fpl_glibc_prove(fpl_glibc_proof *p) {
	memset(p, 0, sizeof *p);
	void *(*volatile fn)(size_t) = malloc;
	Dl_info info;
	if (dladdr((void *)fn, &info) != 0 && info.dli_fname != NULL)
		strncpy(p->malloc_from, info.dli_fname, sizeof p->malloc_from - 1);
	/* A non-PIE executable that takes malloc's address (the bundled arm64
	 * librdkafka does) gets a canonical PLT entry: &malloc then lies in
	 * the executable although libc serves the calls. Resolve the next
	 * definition after the executable in that case; the in-use burst below
	 * still proves that glibc's accounting sees the allocations. */
	if (strstr(p->malloc_from, "libc.so") == NULL) {
		void *next = dlsym(RTLD_NEXT, "malloc");
		if (next != NULL && next != (void *)fn && dladdr(next, &info) != 0 && info.dli_fname != NULL &&
		    strstr(info.dli_fname, "libc.so") != NULL) {
			memset(p->malloc_from, 0, sizeof p->malloc_from);
			strncpy(p->malloc_from, info.dli_fname, sizeof p->malloc_from - 1);
			p->via_plt = 1;
		}
	}
	p->mi_symbol_visible = dlsym(RTLD_DEFAULT, "mi_malloc") != NULL ||
	                       dlsym(RTLD_DEFAULT, "mi_version") != NULL;

	enum { N = 1024 };
	static void *volatile blk[N];
	p->burst_blocks = N;
	p->burst_size = 280;
	p->inuse_before = inuse();
	for (int i = 0; i < N; i++) {
		blk[i] = malloc(p->burst_size);
		if (blk[i] == NULL)
			p->burst_failed = 1;
		else
			memset(blk[i], i, p->burst_size);
	}
	p->inuse_during = inuse();
	for (int i = 0; i < N; i++) {
		free(blk[i]);
		blk[i] = NULL;
	}
	p->inuse_after = inuse();
}
