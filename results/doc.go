// Package results is the lab's run store and its analysis: it turns what
// ladder children print into a run directory, reads run directories back,
// and computes everything the tables, the comparisons, the figures and the
// report show.
//
//	spec -> cells -> child process -> result -> journal -> tables/plots/report
//	                                  ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
//	                                  this package
//
// It is a leaf: of the project it imports only cell (the vocabulary) and
// results/texttab (the table layout); plots only draws what it computes and
// report sits above both.
//
// The API, in the order of the flow:
//
//   - A child's result: ParseBench reads one child's stdout into a Bench;
//     units.go names every unit once (UnitRecPerSec, UnitCkptP99, ...).
//   - The run directory: NewRunDir, WriteManifest/ReadManifest,
//     OpenJournal/Journal.Append/ReadJournal (a resumed ladder skips
//     Finished pairs), WriteRaw (raw.txt for stock benchstat), ReadRun.
//     A failed read of the journal, the manifest or sources.json is a
//     *FileError with File, Line and Pos().
//   - Counting: Index, the one rule for rows (a resumed (cell, rep) once,
//     by its last row; a repeated unit once, by its first value), split by
//     Index.SplitAA into the sweep and the A/A calibration cells.
//   - Analysis: Analyze builds one Analysis per run — the index, Knee,
//     LatencyKnee (live cells) and KneePairs, BuildTables (with the shares
//     of the run's references), Parity and the noise floor
//     (Index.NoiseFloor, Index.CompareRatio) — which every section of the
//     report and every figure read.
//   - Tables: Table and Stat (Summarize is the one median and interval),
//     rendered through texttab by WriteText, WriteCSV, WriteMarkdown and
//     WriteMarkdownNotes; WriteTableFiles writes tables/.
//   - Between runs: Compare and CheckComparable (regressions), Merge,
//     WriteMergedTo and ReadSources (runs from several hosts; MergeBy
//     records, one spec's runs at several corpus lengths).
//
// The derivations (statistics, table layout, the knees, the noise floor,
// merging, regressions) are in docs/analysis.md.
package results
