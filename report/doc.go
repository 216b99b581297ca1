// Package report writes a run's report.md: the one document a reader opens
// after a ladder.
//
//	spec -> cells -> child process -> result -> journal -> tables/plots/report
//	                                                                    ^^^^^^
//
// It reads only the run directory (results.ReadRun) and imports nothing of
// the ladder, so `fplab report <run>` works on any finished or interrupted
// run. It sits above results and plots: Render analyses the run once
// (results.Analyze) and hands that one analysis to every section and to
// plots.Plan; the figures are planned once, drawn (plots.WriteAll) and
// linked.
//
// The API: Write(runDir, opt) writes <runDir>/report.md (and the figures);
// Render builds the Markdown of a run read with results.ReadRun;
// MergeReport merges runs from several hosts into a new directory and
// writes its report, leaving nothing behind when it fails (MergeReportBy
// merges one spec's runs at several records instead). Options are
// checked once at each entry. Bad data is a gap with a footnote, never an
// error; only an unreadable manifest or journal is one (a
// results.FileError naming the file).
//
// The sections, their order and the counting rules are in
// docs/analysis.md ("The report").
package report
