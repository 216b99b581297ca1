// Package texttab is the lab's one table layout layer: a grid of cells
// built row by row and rendered as aligned text, as Markdown or as CSV, and
// the one way a figure is printed in it (benchstat's internal texttab with
// Markdown and CSV beside the text renderer).
//
//	spec -> cells -> child process -> result -> journal -> tables/plots/report
//	                                                       ^^^^^^^^^^^^^^^^^^^
//	                                                       every table of them
//
// It knows nothing of runs, rows or statistics: results lays out each
// rendering of a results.Table with it, report each of report.md's tables,
// results/profile its bucket grids. It imports only the standard library
// and golang.org/x/perf/benchunit.
//
//	t := texttab.New(texttab.AlignDefault, texttab.AlignRight)
//	t.Row().Cells("bucket", "cpu")
//	t.Row().Cells("decode", "40.0ms")
//	t.WriteText(w)     // or WriteMarkdown, WriteCSV
//
// The API: New, Row, Cell, Cells, Span, Col, SetAlign, SetMargin, Aligned,
// WithMargin build a table; WriteText, WriteMarkdown and WriteCSV render
// it; Footnotes, Gap and Escape mark notes and gaps; Scale, Number and
// Label print figures with benchunit's decimal prefixes. The layout rules
// are in docs/analysis.md ("Table layout and numbers").
package texttab
