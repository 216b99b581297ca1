// Package recycle is an Arrow memory.Allocator that hands the buffers of
// released record batches out again, so a path that emits batch after
// batch of the same shape stops allocating, zeroing fresh pages and
// collecting garbage per batch.
//
// Where it sits in the flow:
//
//	spec -> cells -> child process (fplab rung) -> [source: a path's reader -> workloads/recycle -> the cell's allocator] -> result -> journal -> tables/plots/report
//
// A columnar path (shallow, fast, franz) builds its batches through one
// Allocator wrapped around the cell's allocator (Go, mimalloc v2 or v3,
// each behind the rung's counting allocator). When the consumer releases a
// batch, Arrow frees its buffers into the pool; the next batch's builders
// take them back. What the cell's allocator sees is the pool's misses
// only, so the cell's Arrow and Go allocation figures show the saving.
//
// Every buffer handed out is zeroed, as Go's and the lab's mimalloc
// allocators zero theirs. The pool is bounded (Limits); a buffer that does
// not fit goes back to the cell's allocator at once, and Close returns the
// pooled ones, so the cell's balance check still holds. A batch released
// after Close goes straight to the cell's allocator.
package recycle
