// Package plots draws a run's figures with gonum/plot. It sits at the end
// of the lab's flow
//
//	spec -> cells -> child process -> result -> journal -> tables/plots/report
//	                                                              ^^^^^
//
// and reads nothing but []results.Row (the journal): no Kafka, no ladder.
// Package report calls WriteAll and links the images.
//
// # Shape
//
// The data model is kept apart from rendering. Plan turns rows into
// Figures — plain data: panels of Series (one per consume path, a Point per
// batch size holding the median, min and max across repetitions) or of
// BarSets, budget lines and Marks, plus title, caption and legend. Render
// draws one Figure as PNG or SVG through a few small plotters that
// implement gonum's plot.Plotter, DataRanger and Thumbnailer interfaces
// (rangeLine, barSet, budgetLine, markSet). WriteAll does both for a run
// directory and returns the files written.
//
// Every figure holds the dimensions it does not plot at one setting so that
// it compares like with like: the setting (e.g. brokers=3 alloc=go crc=off)
// with the most cells that have the figure's metric wins, Options.Prefer
// breaks ties, and the caption names it. A/A calibration cells (aa=) are
// left out; the report shows them as the noise floor.
//
// # The figures (per format, in <run>/plots/, .png and .svg)
//
//   - throughput-<format>: steady-state throughput (rec/s) vs batch size,
//     one line per path. Points are medians across repetitions; error bars
//     span min to max. The batch axis is log scale, labelled at the batch
//     sizes run (256, 1024, 8192, 65536), when the sizes span a decade.
//   - tradeoff-<format>: the checkpoint trade-off, three panels over the
//     same batch axis: throughput, checkpoint duration p99 (ckpt-p99-ms)
//     with the budget as a dashed line, and records replayed after an
//     injected failure (replay-rec). The knee of each path (see Knee) is
//     ringed on the throughput and p99 panels.
//   - alloc-<format>, crc-<format>, brokers-<format>: bar charts of
//     throughput grouped by path, one bar per allocator, CRC setting or
//     broker count, with min-max error bars; a cell without a successful
//     repetition shows "n/a", never a zero bar.
//
// A figure without data is not drawn: Plan gives it a Skip reason and
// WriteAll lists it in plots/skipped.txt. Emulated runs (Options.Emulated,
// from the manifest) carry EmulatedLabel in every title.
//
// # The knee
//
// Knee(rows, budgetMs) is, per format, path and setting, the batch size
// with the highest median throughput whose median ckpt-p99-ms is within the
// budget (DefaultBudgetMs, 100 ms); ties go to the lower p99, then the
// smaller batch. Lines where no batch qualifies say why ("none within
// budget ...", "no ckpt-p99-ms samples").
//
// Text is set in gonum's embedded Liberation fonts, never the host's, so
// images are reproducible; the golden tests compare decoded pixels with a
// small tolerance (go test ./plots -update rewrites testdata/golden).
package plots
