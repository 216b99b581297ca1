// Package plots draws a run's figures with gonum/plot.
//
//	spec -> cells -> child process -> result -> journal -> tables/plots/report
//	                                                              ^^^^^
//
// It reads nothing but a run's analysis (results.Analysis) and, for the
// headline figure, the headline rows computed from it: no Kafka, no
// ladder, and it computes nothing the analysis holds — the cells' samples,
// the checkpoint and latency knees and their budgets come from it,
// summaries from results.Summarize, held settings from results.Setting,
// labels from texttab.Label, the live cells' percentile curves and lag
// series from Analysis.Live, the cell vocabulary from package cell.
// Package report sits above it.
//
// The API: Plan turns an analysis into Figures, plain data (panels, series,
// bars, dots, marks, curves, title, caption, legend; a figure without data
// carries a Skip reason); Render draws one Figure as PNG or SVG; WriteAll
// writes planned figures into <run>/plots/ and lists the skipped ones in
// plots/skipped.txt. HeadlineFigure draws a spec's headline rows
// (results/headline) as one more Figure, and WriteFigure writes it.
// Options (emulated label, preferred settings, formats) are checked once
// at the entry of Plan, WriteAll and WriteFigure.
//
// Which figures a run gets, what each one holds and how a setting is chosen
// are in docs/analysis.md ("Figures").
package plots
