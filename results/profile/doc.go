// Package profile breaks a cell's Go profiles down by where the time (or
// the allocation) goes in the consume fast path: librdkafka/cgo, decode,
// checksum/verify, Arrow building, the franz-go client, GC, the rest of
// the runtime, other.
//
//	spec -> cells -> child process -> result -> journal -> tables/plots/report
//	                 ^^^^^^^^^^^^^                          ^^^^^^^^^^^^^^^^^^
//	                 writes the profiles                    this package reads them
//
// The API: Load reads a pprof file the rung wrote (--cpuprofile,
// --memprofile); Buckets turns it into a Breakdown (Classifier, GCRules and
// OwnerRules decide each sample's bucket), Breakdown.PerUnit normalises it
// by the records the cell read, Diff compares two cells; WriteText,
// WriteMarkdown, WriteDiffText and WriteDiffMarkdown render them through
// results/texttab for the report and `fplab profile diff RUN CELL_A
// CELL_B`. It owns the bucket rules and their renderings; it does not find
// files in a run directory or run anything. Of the lab it imports only
// results/texttab.
//
// What is charged, the bucket rule in full and the profiler's limits
// (librdkafka's own threads are invisible to it) are in docs/analysis.md
// ("Profiles").
package profile
