// Package history keeps runs over time: every repetition of every cell of
// every run added to it, with the commit, host, architecture and build
// flags it ran on and the run's A/A floor per unit, so one question — did
// this commit move this cell on this host, by how much, since when — is a
// query rather than a hand-made table.
//
//	spec -> cells -> child process -> result -> journal -> tables/plots/report
//	                                                     \-> history (this package)
//
// It reads run directories through results (results.ReadRun, the Index's
// one rule for counting rows, Index.Floors) and writes them into a store.
//
// A store is a SQL database with one schema and one list of migrations for
// both engines it runs on:
//
//   - embedded (the default): a SQLite file, through modernc.org/sqlite,
//     SQLite translated to Go. It needs no server and no cgo (the lab keeps
//     C to source/ and alloc/), its file is the whole store, and SQLite's
//     locking lets two fplab processes add runs to one file at once.
//   - shared: PostgreSQL, through github.com/jackc/pgx/v5, selected by a
//     postgres:// URL; a team's store for several dedicated hosts.
//
// The API, in the order of the flow:
//
//   - Open(ctx, url) opens (and creates or migrates) a store; a store
//     written by a newer schema is refused and left as it is.
//   - Store.Add(ctx, run) records a run, all or nothing, in one
//     transaction. Adding a run twice changes nothing (Unchanged); a run
//     already stored with different rows, an incomplete run and a run of a
//     newer layout (results.RunFormat) are refused with an error naming
//     the run, and nothing is written. A run from a dirty tree is kept and
//     marked.
//   - Store.Runs and Store.Series read it back: the runs, and one (cell,
//     unit, host) series in commit order, with each run's floor.
//   - Store.Changes and Store.AllChanges find where a series changed
//     (results/changepoint over the runs' medians, each change held to the
//     A/A floors of the runs either side), with the commit range.
//   - WriteRuns, WriteSeries and WriteChanges print them.
package history
