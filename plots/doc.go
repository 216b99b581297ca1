// Package plots draws a run's figures with gonum/plot. It sits at the end
// of the lab's flow
//
//	spec -> cells -> child process -> result -> journal -> tables/plots/report
//	                                                              ^^^^^
//
// and reads nothing but []results.Row (the journal): no Kafka, no ladder.
// It only draws: what it shows is computed in package results (the cells'
// samples, results.SweptCells; their summary, results.Summarize; the knee,
// results.Knee; the unit names, results.UnitRecPerSec and the rest; the
// setting a figure holds, results.Setting; the axis labels,
// texttab.Label, the tables' number formatter) and the cell vocabulary
// (keys, path order, cell.Less) is package cell's. The cells'
// samples are counted as the tables and the report count them
// (results.Index): a resumed (cell, rep) pair once, by its last row.
// Package report sits above both: it calls results for the analysis and
// WriteAll here for the images, and links them.
//
// # Shape
//
// The data model is kept apart from rendering. Plan turns rows into
// Figures — plain data: panels of Series (one per consume path, a Point per
// batch size holding the median, min and max across repetitions), of
// BarSets, budget lines and Marks, of DotSets (by-axis) or of CellRows
// (overview), plus title, caption and legend. Render draws one Figure as
// PNG or SVG through a few small plotters that implement gonum's
// plot.Plotter, DataRanger and Thumbnailer interfaces (rangeLine, barSet,
// budgetLine, markSet, dotGroups, rowSet). WriteAll does both for a run
// directory and returns the files written.
//
// Every per-format figure holds the dimensions it does not plot at one
// setting so that it compares like with like: the setting (e.g. brokers=3
// alloc=go crc=off) with the most cells that have the figure's metric wins,
// Options.Prefer breaks ties, and the caption names it. The overview and
// the axis figures draw every cell instead. A/A calibration cells (aa=) are
// left out of all figures; the report shows them as the noise floor.
//
// # The figures of every run (in <run>/plots/, .png and .svg)
//
//   - overview: every cell's rec/s, one row per cell sorted by cell name
//     (part by part, numbers numerically, paths least to most native),
//     labelled with the short cell name (only the parts that vary in the
//     run; the caption names the rest once; a one-cell run is labelled with
//     its whole name). A dot at the median, a horizontal bar for its 95%
//     interval; rows are coloured by path. A cell without a successful
//     repetition is a row saying "failed: n of n repetitions", never a zero;
//     a cell with some failed repetitions says so in its label. Above
//     maxRows (60) cells the rows are paged: overview-1, overview-2, ...
//   - by-<axis>, for every axis (cell-name key) that takes two or more
//     values among the run's cells, path included: rec/s by that axis. The
//     x axis lists the axis's values (a cell without the key counts as
//     "(none)", e.g. ckpt off); each cell is a dot at its median with its
//     95% interval as whiskers. The other varying axes either split the
//     figure into panels or colour the dots (a legend names each setting),
//     chosen by facetAxes: format gets a panel each when every format has
//     two or more of the axis's values (the paths ladder: rec/s by path, a
//     panel per format, each format on its own scale), and further axes
//     become panels, in cell-name order, only while a panel would hold more
//     than maxSets (8) settings and the figure stays within maxPanels (6).
//     A covering run (smoke) thus gets one panel with a dot per cell. The
//     dots of one category sit side by side; a category whose cells all
//     failed says "failed" and the caption names those cells.
//
// Both use the tables' summary: the median and its distribution-free 95%
// interval from benchmath.AssumeNothing at results.Confidence (Stat,
// summarize), so an error bar here is the "± x%" of a table. With fewer
// than 6 successful repetitions there is no interval: the dot is drawn
// hollow and has no whiskers.
//
// # The figures per format (in <run>/plots/, .png and .svg)
//
//   - throughput-<format>: steady-state throughput (rec/s) vs batch size,
//     one line per path. Points are medians across repetitions; error bars
//     span min to max. The batch axis is log scale, labelled at the batch
//     sizes run (256, 1024, 8192, 65536), when the sizes span a decade.
//   - tradeoff-<format>: the checkpoint trade-off, three panels over the
//     same batch axis: throughput, checkpoint duration p99 (ckpt-p99-ms)
//     with the budget as a dashed line, and records replayed after an
//     injected failure (replay-rec). The knee of each path (results.Knee
//     under Options.BudgetMs) is ringed on the throughput and p99 panels.
//   - alloc-<format>, crc-<format>, brokers-<format>: bar charts of
//     throughput grouped by path, one bar per allocator, CRC setting or
//     broker count, with min-max error bars; a cell without a successful
//     repetition shows "n/a", never a zero bar.
//
// A figure without data is not drawn: Plan gives it a Skip reason and
// WriteAll lists it in plots/skipped.txt. The overview is skipped only when
// no cell has a rec/s sample, and an axis figure exists only for an axis
// that varies, so skipped.txt lists per-format figures that do not apply
// (one batch size, checkpoints off, an allocator not swept). Emulated runs (Options.Emulated,
// from the manifest) carry EmulatedLabel in every title.
//
// Text is set in gonum's embedded Liberation fonts, never the host's, so
// images are reproducible; the golden tests compare decoded pixels with a
// small tolerance, as a fraction of the image and per 16x16 block so that
// one moved dot is caught, for the seeded sweep and for runs shaped like
// the smoke and paths specs and like a one-cell run (go test ./plots
// -update rewrites testdata/golden).
package plots
