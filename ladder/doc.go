// Package ladder runs the lab's sweeps. It sits at the head of the flow
//
//	spec -> cells -> child process -> result -> journal -> tables/plots/report
//
// and owns it up to the journal: it reads the YAML spec, expands it into
// cells (package cell's cell.Cell), runs every cell-repetition in a child
// process (`fplab rung`, whose argv is ladder/rungargs' one encoding; the
// ladder never links the rung), parses the child's benchmark line into a
// journal row (results.ParseBench) and appends it (results.Journal). The
// rest of the flow is other packages': results renders raw.txt and the
// tables, report (called by cmd/fplab) the plots and report.md.
//
// The API, in flow order:
//
//   - LoadSpec, ParseSpec -> *Spec: syntax, every limit the lab knows and
//     the axis combinations that cannot run, refused before anything starts
//     as a *SpecError{File, Line, Field, Msg} with Pos().
//   - Expand -> []cell.Cell (full product or a covering set, minus
//     exclusions); NewSchedule -> *Schedule (warm-up and measured rounds,
//     each a fresh seeded shuffle, plus one A/A calibration pair per round).
//   - Run(ctx, Options) and Resume(ctx, dir, Options) -> the run directory
//     (Options checked once at the entry: zero is the default, a value out
//     of bounds an error naming the field). A run is one broker per cluster
//     shape (Infra, Cluster; KafkaInfra is the real one, tests use a fake),
//     the corpus loaded once per format and shape (a live cell loads none:
//     its child makes, writes and deletes a topic of its own, rungCell),
//     every entry a child of the binary built for its allocator, with a
//     hard timeout; then the spec's micro-benchmarks, and raw.txt, tables
//     and the manifest.
//     ProfilePaths names a profiled cell's files, LiveDir where live cells
//     keep their latency histograms and lag series.
//   - How a session ends: ErrFailedCells (a *FailedCellsError: the run
//     finished with failed rows), ErrInfra (a dead broker, a full disk or a
//     failed load stopped the run: a failed cell is followed by a probe of
//     its cluster, Cluster.Alive; the cell is left unjournaled for Resume),
//     ErrLocked (another ladder holds the directory's flock, LockFile).
//     docs/exit-codes.md maps these to the CLI's exit status.
//
// Errors name no package: they say which operation failed and wrap their
// cause with %w; the CLI writes the one prefix ("fplab ladder: ").
package ladder
