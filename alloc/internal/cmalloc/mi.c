//go:build mimalloc2 || mimalloc3

// mimalloc variants: proof and counters; see mi.h.
#define _GNU_SOURCE
#include "mi.h"

#include <dlfcn.h>
#include <mimalloc-stats.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* Thread-counting stat that release builds keep: v2 counts threads, v3
 * counts thread-local heaps ("theaps"). */
static int read_stats(mi_stats_t *s) {
	memset(s, 0, sizeof *s);
	s->size = sizeof *s;
	s->version = MI_STAT_VERSION;
	return mi_stats_get(s);
}

static int64_t threads_total(const mi_stats_t *s) {
#if FPL_MI_SERIES == 2
	return s->threads.total;
#else
	return s->theaps.total;
#endif
}

fpl_mi_rc fpl_mi_counters_read(fpl_mi_counters *c) {
	memset(c, 0, sizeof *c);
	mi_stats_t s;
	if (!read_stats(&s))
		return FPL_MI_STATS_REJECTED;
	c->reserved = s.reserved.current;
	c->committed = s.committed.current;
	c->reserved_total = s.reserved.total;
	c->committed_total = s.committed.total;
	c->mmap_calls = s.mmap_calls.total;
	c->commit_calls = s.commit_calls.total;
	c->purge_calls = s.purge_calls.total;
	c->arena_count = s.arena_count.total;
	c->threads_total = threads_total(&s);
#if FPL_MI_SERIES == 2
	c->threads_current = s.threads.current;
#else
	c->threads_current = s.theaps.current;
	c->heaps_total = s.heaps.total;
#endif
	c->malloc_huge_count = s.malloc_huge_count.total;
	size_t elapsed, user, sys, rss, peak_rss, commit, peak_commit, faults;
	mi_process_info(&elapsed, &user, &sys, &rss, &peak_rss, &commit, &peak_commit, &faults);
	/* mi_process_info's current_rss falls back to commit on Linux; the
	 * process RSS is read from /proc on the Go side instead. */
	c->peak_rss = (int64_t)peak_rss;
	c->peak_commit = (int64_t)peak_commit;
	c->page_faults = (int64_t)faults;
	return FPL_MI_OK;
}

static void where(void *addr, char *out, size_t n) {
	Dl_info info;
	if (dladdr(addr, &info) != 0 && info.dli_fname != NULL)
		strncpy(out, info.dli_fname, n - 1);
}

/* A thread mimalloc did not create: its first malloc is its first contact
 * with the allocator (the path upstream's v3 crash was on). */
static void *fresh_thread(void *arg) {
	fpl_mi_proof *p = arg;
	void *volatile blk[64];
	int owned = 1;
	for (int i = 0; i < 64; i++) {
		blk[i] = malloc(280);
		if (blk[i] == NULL || !mi_is_in_heap_region(blk[i]))
			owned = 0;
		else
			memset(blk[i], i, 280);
	}
	for (int i = 0; i < 64; i++)
		free(blk[i]);
	p->thread_owned = owned;
	p->thread_ran = 1;
	return NULL;
}

void fpl_mi_prove(fpl_mi_proof *p) {
	memset(p, 0, sizeof *p);
	p->version = mi_version();
	p->rust_version = fplab_mimalloc_version();

	void *(*volatile fn)(size_t) = malloc;
	where((void *)fn, p->malloc_from, sizeof p->malloc_from);
	where((void *)fpl_mi_prove, p->self_from, sizeof p->self_from);
	p->malloc_is_mi_malloc = (void *)fn == (void *)mi_malloc;

	void *volatile local = malloc(280);
	if (local != NULL) {
		memset(local, 1, 280);
		p->local_owned = mi_is_in_heap_region(local);
		p->local_checked = mi_check_owned(local);
	}
	free(local);

	/* Allocated inside libc.so: only an interposing malloc catches it. */
	char *volatile dup = strdup("fplab alloc proof");
	if (dup != NULL)
		p->libc_owned = mi_is_in_heap_region(dup);
	free(dup);

	void *al = NULL;
	if (posix_memalign(&al, 64, 65536) == 0 && al != NULL) {
		p->memalign_owned = mi_is_in_heap_region(al);
		p->memalign_aligned = ((uintptr_t)al % 64) == 0;
		memset(al, 2, 65536);
		free(al);
	}

	mi_stats_t s;
	read_stats(&s);
	p->threads_before = threads_total(&s);
	pthread_t t;
	if (pthread_create(&t, NULL, fresh_thread, p) == 0)
		pthread_join(t, NULL);
	read_stats(&s);
	p->threads_after = threads_total(&s);
}
