// Package ceiling measures the broker's serving ceiling on the host: how
// fast the cluster hands a topic's bytes to one client that does nothing
// but fetch and count.
//
// Where it sits in the flow, as the ladder's path=ceiling (cell.PathCeiling):
//
//	spec -> cells -> child process (fplab rung) -> [ceiling.Read] -> result -> journal -> tables/plots/report
//
// Its API is Config, Read and Result. Read sends raw Fetch requests (kmsg
// over franz-go's connections; no consumer, no record parsing) and counts
// records from the v2 record-batch headers, per partition from the log
// start to the high watermark captured at open; it returns the counts or
// one error line. Pure Go, no cgo, and of the project it imports nothing,
// so a rung links it alone.
//
// What the figure means, how the bounds are read and which failures end a
// read are in docs/paths.md ("The ceiling").
package ceiling
