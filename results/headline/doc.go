// Package headline answers a spec's question on the first screen of its
// report: a spec lists the comparisons it was written for ("fast/flink by
// format"), and this package turns each into rows of ratios with their
// intervals, held against the run's own A/A noise floor, and into two or
// three sentences that say what the run resolved and what it did not.
//
//	spec -> cells -> child process -> result -> journal -> tables/plots/report
//	                                                        ^^^^^^^^^^^^^^^^^^^
//	                                                        the report's headline
//
// It sits above results (the Analysis it reads, the ratio and noise floor
// it reuses) and cell (the axis keys and values); it draws nothing and
// parses no flags. As in golang.org/x/perf, the model (Parse, Check,
// Compute, Row) is apart from its renderings (WriteText, WriteMarkdown,
// Sentences), and no renderer computes anything again.
//
// # Grammar
//
// A headline is one short string:
//
//	A/B [on V[, V...]] [by AXIS[, AXIS...]] [in UNIT] [upstream FIGURE]
//
//	fast/flink by format, cluster      rec/s of path=fast over path=flink, a row per (format, cluster)
//	fast/java on raw                   only the format=raw cells
//	fast/decoder=none                  each path=fast cell over its consume-only twin
//	mimalloc3/go in peak-RSS-MB        another unit than rec/s
//	crc=on/crc=off, ckpt=1s/ckpt=off   key=value sides
//
// A, B and each V are a key=value part as a cell name writes it, or a bare
// value, which stands for the one axis of the run (or of the spec) whose
// values include it; when several do, the swept ones (more than one value)
// are preferred, and a value still ambiguous is an error: write it
// key=value. A part a name writes only when it is set (ckpt, wake,
// pause, discover, commit, rescale, prof, fault) is off when unset, so
// ckpt=off is the cells without a ckpt part. "upstream FIGURE" names a
// figure from outside the run for the same comparison (upstream's
// 2.1-3.2×), which Sentences sets beside the ratio; Text leaves the clause
// out. "on", "by", "in" and "upstream" are keywords.
//
// When A and B name one axis, the numerator is the cells with A's value
// and the denominator those with B's. When they name two axes (fast/
// decoder=none), B changes one axis of A's cells: the numerator is A's
// cells without B's value, the denominator A's cells with it, so each
// cell is set against its twin. The unit is rec/s unless "in" names
// another the cells report; results' derived shares (pct-of-twin, ...)
// are per table, not per repetition, and are refused.
//
// # Pairing and verdicts
//
// Compute reads the swept cells of a results.Analysis (never the A/A
// cells). Within one by group, a numerator cell pairs with the
// denominator cells equal to it on every axis but the compared one
// (and the on and by axes, equal already); an axis none of the
// denominator's cells carries is left out of the match. Several pairs in
// one group (say, two batch sizes) are one row each, labelled by the
// parts on which they differ: nothing is pooled. A group one side has no
// cell in, while other groups have both sides, is where the spec did not
// run that side (flink on raw): it makes no row. Otherwise a group
// without a pair is one Missing row that names the cell the run lacks, or
// the cell that failed every repetition.
//
// Each pair is results.Index.CompareRatio of the numerator over the
// denominator: the ratio of medians, Moses' distribution-free interval
// and the Mann-Whitney p. A row is Resolved when p < Alpha, the interval
// excludes 1 and it lies wholly outside 1 ± the A/A floor, the largest
// Detectable of the run's A/A pairs for the unit (results.Noise); with
// no A/A pair for the unit it resolves on p and the interval alone and
// says so. Otherwise it is "~", as benchstat words it: not significant,
// within the floor, or too few repetitions for an interval.
//
// # API
//
//   - Parse reads one headline (syntax and vocabulary, no run); Check
//     holds it against a spec's axes (the ladder, when a spec loads);
//     RunAxes gives the same map for a run.
//   - Compute turns the comparisons into Rows over an Analysis.
//   - WriteText (terminal), WriteMarkdown (the report) and Sentences (the
//     report's opening lines) render Rows.
//
// Errors are one line that names the headline as the spec writes it
// (headline "fast/flink by format": path=flink is not run by this spec),
// so the spec loader can put its file and line before it.
package headline
