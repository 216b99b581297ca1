// Package rung runs ONE cell of the ladder, in the child process the ladder
// starts for it (`fplab rung`), and prints its result in Go benchmark format.
//
// Where it sits in the flow:
//
//	spec -> cells -> [child process: rung] -> result -> journal -> tables/plots/report
//
// Its input is a rungargs.Cell, decoded from argv by package
// ladder/rungargs (the one encoding the ladder and a checkpointing
// supervisor write); the name it prints is that cell's cell.Cell.Name, the
// very name the ladder journals, so the ladder compares the two exactly.
// This package links librdkafka (through source); rungargs does not, so the
// ladder builds without cgo.
//
// The API: Run measures a cell (cmd/fplab's `fplab rung` calls it with the
// binary's Build). Run checks what every cell claims (a valid cell, an
// optimised build, the allocator in force) and hands the cell to the
// Runner its path registered (Register, from an init function in the
// path's own file, as franz-go's kfake registers one file per API): the Go
// paths share one (gopaths.go), the ceiling has its own (ceiling.go), and
// the JVM references register from package ladder/rung/jvmref, which a
// binary links with a blank import. A path no file registered fails with
// one line. A Runner checks its cell's claims (CheckCountedTopic for a
// path that only counts records), reads with StallTimeout as its reader's
// stall bound, and prints with WriteResult.
//
// A rung proves its cell before it reports: the binary's allocator is the
// one the cell names (alloc.Proof), the cluster has the broker count the
// cell names (read back from metadata), the corpus's batches are stored
// with the compression codec the cell names (read back from the batches'
// attributes), librdkafka runs with the cell's
// check.crcs (read back from its effective configuration), the fast path
// crossed into C once per drain rather than once per record, the build is
// optimised (no -race, no -N -l), and every batch matches the corpus: its row
// count, and a checksum of its decoded columns against the checksum the
// corpus generator computes for the records the batch says it holds. Any
// violation is an error and no figure is printed.
//
// The measured window runs from the first record to the last batch and
// the end of its checks; start-up (connect, metadata, watermarks, assign,
// first fetch) is reported separately as startup-ms. A plain cell checks
// each batch's positions as it arrives and its checksum behind the reader,
// on a goroutine of its own (checker), so a path's reader waits on the
// lab's checks only when they fall too far behind; verify-ns/rec reports
// those waits.
//
// The rung holds nothing per record: the corpus's expected hashes are a
// file (expected.go, made in pieces and cached per run) that each verifier
// reads in a window per partition (window.go). Its own memory is taken
// just before the path opens and the process's peak reset there
// (rss_linux.go), so a cell reports the path's memory (path-peak-RSS-MB)
// apart from the harness's (harness-RSS-MB).
//
// A live cell (mode=live, live.go) reads a fresh topic while a producer
// process of its own (role producer, liveproducer.go) writes the cell's
// records at its rate; each row's end-to-end latency from its record's
// intended send time goes into an HdrHistogram and the reader's lag
// behind the schedule into a series (livestats.go), both kept in the
// cell's live directory. Its batches are verified as a plain cell's are,
// and each partition's offsets must follow each other without a gap or a
// repeat. A maxrate cell (maxrate.go) runs a bounded search over such
// reads for the highest rate its path sustains. A path whose reader is
// another process (the JVM references) reads live through LiveRead
// (liveref.go): the same topic, producer, recorder and checks, fed with
// the hand-overs the reader reports as offset ranges, and per-partition
// checksums of its values in place of the row checks.
package rung
