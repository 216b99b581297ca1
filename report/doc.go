// Package report writes a run's report.md: the one document a reader opens
// after a ladder. It sits at the end of the lab's flow
//
//	spec -> cells -> child process -> result -> journal -> tables/plots/report
//	                                                                    ^^^^^^
//
// and reads only the run directory (results.ReadRun: manifest.json and
// journal.jsonl). It sits above results and plots and imports nothing of
// the ladder, so `fplab report <run>` works on any finished or interrupted
// run: every figure it prints (tables, noise floor, knee, on/off ratios)
// comes from results, and plots only draws (Plan, WriteAll).
//
// Write(runDir, opt) draws the figures (plots.WriteAll into plots/) and
// writes <runDir>/report.md with, in order:
//
//   - Run: the manifest — host, CPU, arch, kernel, governor/SMT/THP, Go,
//     librdkafka and allocator versions, commit and dirty flag, build flags,
//     start/end and wall time, measured-time fraction, the emulated flag
//     (with plots.EmulatedLabel in a banner), journal counts, and the ladder
//     spec folded.
//   - Merged runs (only for a directory written by MergeReport): the runs
//     merged, one per arch= value, with host, CPU, kernel, emulated flag,
//     commit and row counts.
//   - Noise floor: results.NoiseFloor for every A/A calibration pair
//     (cell/aa=a, cell/aa=b) and every unit both sides report; without a
//     pair, a sentence saying deltas cannot be set against noise.
//   - Knee: results.Knee under the checkpoint p99 budget (Options.BudgetMs,
//     default 100 ms); lines where no batch qualifies say "none within
//     budget" or why there is no candidate.
//   - What a setting costs: for each toggled setting (checkpoints,
//     check.crcs, the profiler) every on cell against its off twin in the
//     run, on rec/s: ratio of medians, Hodges-Lehmann shift, Moses' 95%
//     interval (results.CompareRatio), U-test p, and whether the interval
//     shows the cost within Options.CostBudget (default 2%): shown,
//     exceeded or not resolved. Left out when no cell has a twin.
//   - Figures: each drawn figure as a relative PNG link with its caption and
//     SVG link, in plots.Plan's order — the overview of every cell's rec/s,
//     one figure per axis that varies (by-path, by-format, ...), then the
//     per-format figures; figures without data listed with the reason.
//   - Tables: results.BuildTablesWith of the swept cells (A/A cells left
//     out; axis values in the spec's order, so its first value is the
//     baseline column) rendered by results' own Markdown renderer
//     (Table.WriteMarkdownNotes, the one tables/*.md use, so a figure reads
//     the same in both) with the report's footnotes and gaps — rec/s
//     unfolded, every other unit in a <details> block; a run with no swept
//     axis gets one row per cell.
//   - Failed cells: failed/total repetitions, reasons and signals, and each
//     stderr tail in a collapsed block.
//   - Notes: the footnotes.
//
// Every table of the report is a results/texttab table rendered as
// Markdown, and every measured figure outside the results tables (the
// knee's rec/s and p99, a cell's median) is printed by texttab.Number, the
// tables' formatter. Repetitions are counted as results.Index counts them
// (a resumed (cell, rep) pair once, by its last row) in the run table, the
// gaps' footnotes, the noise floor and the failed cells alike.
//
// Bad input never crashes or invents a number: a failed cell, a metric
// without samples, a missing manifest field or a single repetition is a gap
// "—" whose footnote says why. Only a missing or unreadable manifest or
// journal is an error, one line naming the file. Links are relative to the
// run directory (Options.LinkBase prefixes them for a copy in docs/), and
// headings start at "#", so the file reads on its own or embedded.
//
// MergeReport(outDir, runDirs, force, opt) merges several runs
// (results.Merge) into a new directory and writes its report; it validates
// every input before it writes anything and renames a staging directory
// into place, so a failed merge leaves nothing behind. An emulated run's
// table headings carry plots.EmulatedLabel.
//
// The golden tests build fixture runs with results' own writers and compare
// report.md with testdata/*.golden.md (go test ./report -update
// rewrites them).
package report
