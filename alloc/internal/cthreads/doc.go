// Package cthreads is alloc's allocator-neutral C: pthreads that malloc and
// free through whatever allocator the binary links (sys.c). Package alloc
// builds its cross-thread benchmark (alloc.CrossThread) and its thread churn
// stress (alloc.ChurnThreads) on it; nothing else imports it.
//
// Where it sits in the flow:
//
//	spec -> cells -> child process (fplab rung / fplab micro) -> [alloc -> cthreads] -> result -> journal -> tables/plots/report
//
// What is in it:
//
//   - CrossThread: n malloc on one pthread, the matching free on another,
//     the pattern librdkafka has per consumed message.
//   - StartBackground and Background.Stop: the same traffic, open-ended,
//     beside the churn.
//   - ChurnLocal: one round of malloc/calloc/realloc/posix_memalign/free on
//     the calling thread.
//   - NewBlock and Block.CheckFree: a C block made on one thread and freed
//     on another.
//
// The C helpers return an fpl_xt_code (sys.h), mirrored as Code (OK, NoMem,
// Thread, Corrupt, BadArg); a Code other than OK is the error, with
// fpl_xt_strerror's text. No build tags: the allocator is whichever the
// binary links (see package cmalloc).
package cthreads
