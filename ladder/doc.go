// Package ladder runs the lab's sweeps. It sits at the head of the flow
//
//	spec -> cells -> child process -> result -> journal -> tables/plots/report
//
// and owns the first half of it: the YAML spec (LoadSpec), its expansion into
// cells (full product or a covering set, minus exclusions), the schedule
// (warm-up and measured rounds, each a fresh seeded shuffle, plus one A/A
// calibration pair per round), the process model (one broker per cluster
// shape, the corpus loaded once per format and shape, every cell-repetition
// a child `rung` process of the binary built for its allocator, with a hard
// timeout), the journal and Resume, progress output and the run directory.
//
// LoadSpec refuses every spec the lab cannot run (limits.go) before
// anything starts. A failed cell is followed by a probe of its cluster
// (Cluster.Alive): a dead broker or a full disk stops the run with ErrInfra
// and leaves the cell unjournaled for Resume; a run that ends with failed
// rows returns ErrFailedCells. A session holds an flock on the run
// directory (lock.go; a second one gets ErrLocked). docs/exit-codes.md maps
// these to the CLI's exit status.
//
// Rendering (raw.txt, tables, noise floor) belongs to package results; the
// ladder only calls it. Brokers and corpus loading sit behind the Infra
// interface so the ladder can be tested without Kafka.
package ladder
