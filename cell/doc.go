// Package cell is the lab's one vocabulary: the axis keys, the values each
// closed axis takes (paths, formats, allocators, check.crcs, clusters,
// codecs, record sizes, tombstone shares, transactions, parity cases), and
// the one encoding of a cell as a sub-benchmark name.
//
// Where it sits in the flow:
//
//	spec -> [cells] -> child process -> result -> journal -> tables/plots/report
//
// The ladder expands a spec into Cells and names each with Cell.Name; the
// rung child is handed the same Cell on its command line and prints the same
// name; the journal, tables, plots and report read names back with Parse
// (typed, strict) or Split and Dims (any key=value parts, for names written
// by other tools or older runs). Nothing here imports another package of
// the lab, so every layer, from workloads to the report, can use it.
//
// A name is key=value parts joined by '/', in a fixed order:
//
//	path=fast/format=json/batch=8192/brokers=3/alloc=go/crc=off[/cluster=kafka][/compression=lz4][/size=1024][/keys=on][/nulls=0.01][/txn=aborts][/case=appended][/decoder=stock][/ckpt=1s][/prof=on][/fault=kill][/aa=a]
//
// The optional axes (cluster, compression and the topic-shape axes size,
// keys, nulls, txn and case, and decoder) are left out at their Default
// (embedded, none, 100, off, 0, off, none, lab), so names of the default runs read as they always have. Metric unit names live in package
// results (units.go), beside the table that says which way each improves.
package cell
