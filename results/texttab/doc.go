// Package texttab is the lab's one table layout layer: a grid of cells
// built row by row and rendered as aligned text, as Markdown or as CSV, and
// the one way a figure is printed in it. It is the shape of benchstat's
// internal texttab (golang.org/x/perf/cmd/benchstat/internal/texttab) with
// the Markdown and CSV renderers beside the text one.
//
// # Where it sits
//
//	spec -> cells -> child process -> result -> journal -> tables/plots/report
//	                                                       ^^^^^^^^^^^^^^^^^^^
//	                                                       every table of them
//
// It knows nothing of runs, rows or statistics: results builds a Table for
// each rendering of a results.Table (tables/*.txt, *.md, *.csv, fplab
// compare), package report for each of report.md's tables, and
// results/profile for its bucket grids. It imports only the standard
// library and golang.org/x/perf/benchunit, so results/profile, which
// imports nothing else of the lab, can use it too.
//
// # Building a table
//
//	t := texttab.New(texttab.AlignDefault, texttab.AlignRight)
//	t.Row().Cells("bucket", "cpu")
//	t.Row().Cells("decode", "40.0ms")
//	t.WriteText(w)     // or WriteMarkdown, WriteCSV
//
// New fixes each column's alignment (Markdown's delimiter row says it
// too; SetAlign changes one); SetMargin sets the text printed before a
// column (default: none before the first, one space before the others). Row starts a row, Cell and
// Span add cells at the current column, Col skips to a column. A cell may
// override its column's alignment and margin (Aligned, WithMargin); a
// Span covers several columns.
//
// # Text
//
// WriteText lays the cells out in fixed-width columns. A column is as wide
// as its widest cell plus its widest margin; a margin is printed only
// before a cell that has a value (or whose margin is not blank), so a
// column whose cells are all empty takes no room, and no line ends in
// spaces. A Span wider than the columns it covers widens the last of them,
// so what follows moves right and nothing is overwritten. Widths count
// runes (the tables hold "±", "│", "µ" and superscripts).
//
// # Markdown and CSV
//
// WriteMarkdown writes the first row as the header, then the delimiter row
// from the columns' alignments ("---", ":--", "--:", ":-:"; TightRule
// leaves out the spaces), then the other rows; cells are Markdown source,
// written as given (Escape escapes text for them). WriteCSV writes every
// row through encoding/csv. In both, a Span is its value followed by empty
// cells and margins are not written.
//
// # Footnotes and gaps
//
// Footnotes numbers distinct texts in order of first use and renders each
// number as a mark: superscript digits by default ("¹", as benchstat),
// or what Footnotes.Mark returns ("[^3]" in report.md). Gap ("—") is what
// a table prints where it has no figure; the renderers of results.Table
// take a hook (results.Notes) that decides how a footnote or a gap is
// marked.
//
// # Numbers
//
// Every figure the lab prints in a table, a report line or an axis label
// is scaled by golang.org/x/perf/benchunit with decimal prefixes (the units
// are the children's own, MB/s and peak-RSS-MB are already scaled, so
// binary prefixes would mislead): Scale picks the prefix and precision for
// a set of values (one table row, as benchstat), Number prints one value
// on its own scale ("4.500M", "504.5m", "250.6"), and Label prints it
// without the trailing zeros an axis tick does not need ("2.5M", "950").
package texttab
