// Package profile breaks a cell's Go profiles down by where the time (or
// the allocation) goes in the consume fast path: librdkafka/cgo, decode,
// checksum/verify, Arrow building, the franz-go client, GC, the rest of
// the runtime, other.
//
// # Where it sits
//
//	spec -> cells -> child process -> result -> journal -> tables/plots/report
//	                 ^^^^^^^^^^^^^                          ^^^^^^^^^^^^^^^^^^
//	                 writes the profiles                    this package reads them
//
// The ladder runs each cell as `fplab rung ... --cpuprofile FILE
// --memprofile FILE`: a runtime/pprof CPU profile of the whole cell and an
// "allocs" heap profile written at its end, kept with the run directory.
// This package turns one of those files into a Breakdown (Load, Buckets),
// normalises it by the records the cell read (Breakdown.PerUnit), compares
// two cells (Diff) and renders both as text or Markdown (WriteText,
// WriteMarkdown, WriteDiffText, WriteDiffMarkdown) for the report and for
//
//	fplab profile diff RUN CELL_A CELL_B
//
// It owns the bucket rules and their renderings; it does not find files in
// a run directory or run anything. A rendering lays a Breakdown or a
// DiffTable out once (a title, grids, the profile's limits) and writes it
// through results/texttab, the lab's one table layout layer, as text or
// Markdown; counts and bytes take the decimal prefix texttab.Scale
// (benchunit) picks, as every table of the lab, with three significant
// digits. Of the lab it imports only results/texttab.
//
// # What is charged
//
// CPU profiles: the "cpu" sample type (nanoseconds). Heap profiles:
// alloc_space (bytes) and alloc_objects (count), i.e. everything allocated
// over the run, not what was live at its end. Any other profile is an
// error.
//
// # The bucket rule
//
// Every sample's values go to exactly one bucket (Classifier.Classify).
// A stack is read leaf first; within a location, inlined frames innermost
// first. Two ordered tables of (bucket, predicate on the frame's function
// name and file) decide, GCRules and OwnerRules:
//
//  1. GC anywhere: if any frame of the stack matches GCRules the sample is
//     BucketGC. GCRules names the collector's entry points: runtime.gc[A-Z]*
//     (gcBgMarkWorker, gcDrain*, gcAssistAlloc* — the assist mallocgc makes
//     a mutator pay —, gcStart, gcMarkDone, gcMarkTermination,
//     gcWriteBarrier*), markroot*, scan*, greyobject, wbBufFlush*,
//     (*gcWork).*, sweeping (bgsweep, sweepone, (*sweepLocked).sweep —
//     also when mallocgc sweeps a span to refill its cache —,
//     deductSweepCredit, (*mheap).reclaim*), scavenging (bgscavenge,
//     (*scavengerState).*, (*pageAlloc).scavenge*), runtime.GC,
//     runtime._GC and forcegchelper. Allocation itself is not GC:
//     mallocgc, nextFreeFast, and the memclrNoHeapPointers that zeroes a
//     new object under mallocgc belong to whoever allocated (rule 2).
//  2. Otherwise walk from the leaf. For each frame the first OwnerRules
//     rule that matches decides: an owner rule charges its bucket; a Pass
//     rule, or no matching rule, moves on to the caller. In order:
//     - pass: arrow-go readers — methods of non-builder types in
//     arrow/array ((*String).Value, (*Int64).Value, IsNull, Release, ...),
//     the arrow package itself, arrow/bitutil, arrow/internal,
//     (*memory.Buffer).Bytes/Buf/Len/Cap — so the checksum's reads of a
//     batch are verify, not Arrow building;
//     - librdkafka/cgo: runtime.cgocall, asmcgocall*, runtime.cgo*,
//     runtime/cgo, runtime._ExternalCode and _LostExternalCode (a sample
//     in C code on a Go thread), *._Cfunc_*, *._Cmacro_*, _cgo*; C frames
//     (a name without a Go package path — every Go symbol has one —, an
//     unsymbolized location, a GCC clone such as f.cold or f.part.0, or a
//     C/C++ source file or .S; never a frame whose file is Go assembly,
//     .s, such as runtime.memmove or internal/bytealg's indexbytebody);
//     any frame of confluent-kafka-go;
//     - checksum/verify: in workloads, functions whose name holds "hash" or
//     "checksum" (BatchChecksum, RowHash, HashRow, valueHash, hashBytes,
//     ...), fold*, avalanche, rowSeed, and the corpus generator behind the
//     expected hashes ((*Corpus).*, (*Hashes).*, generate, (*rng).*,
//     splitmix, randPrice); in ladder/rung, (*verifier).*, checkClaims,
//     checkPath, checkBalanced, expectedHashes, writeHashes;
//     - pass: workloads encoders and setup (Encode, append*, New*/new*,
//     Parse*, Formats, Schema*, (*Schema).*, kind.*, column tables);
//     - decode: every other workloads function (the parse methods, scan*,
//     skip*, unescape*, csv*, proto*, rawParse, readUvarint,
//     parseDecimal, DecodeRow, (*columnar).Append, AppendBulk,
//     (*builders).*, (*rowBuilder).Add, ...);
//     - arrow: every other arrow-go frame (builders, array constructors
//     such as NewRecordBatch, memory allocators);
//     - client: franz-go (kgo, kmsg, kbin, ...).
//  3. No owner on the stack: BucketRuntime if the leaf is in package
//     runtime or internal/runtime/..., else BucketOther.
//
// So runtime helpers (memmove, mallocgc, growslice, map access), standard
// library code (strconv, hash/crc32, compression) and the consume paths'
// own frames are charged to the nearest owner above them: a memmove under
// scanJSONString is decode, an allocation under an Arrow builder is arrow,
// CRC checks franz-go runs are client. Each bucket's Top lists the frames
// that decided it (for rule 3, the leaf).
//
// # Limits
//
// Go's profiler samples Go threads only. cgo time shows as
// runtime.cgocall and _Cfunc_ frames on the Go thread that called into C;
// librdkafka's own threads (rdk:main, rdk:broker*: fetching, decompression,
// CRC checks) are invisible to it, so librdkafka/cgo here is a lower bound
// of librdkafka's CPU. Use perf (perf record -g --call-graph dwarf -p PID)
// for those threads. Likewise a heap profile is sampled and sees Go
// allocations only, never librdkafka's malloc. Every rendering says so.
package profile
