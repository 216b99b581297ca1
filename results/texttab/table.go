package texttab

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Align is how a column (or one cell) is aligned.
type Align int

const (
	// AlignDefault is left in text and "---" (no alignment) in Markdown.
	AlignDefault Align = iota
	// AlignLeft is left in text and ":--" in Markdown.
	AlignLeft
	// AlignRight is right in text and "--:" in Markdown.
	AlignRight
	// AlignCenter is centred in text and ":-:" in Markdown.
	AlignCenter
)

// rule is the Markdown delimiter-row entry of an alignment.
func (a Align) rule() string {
	switch a {
	case AlignLeft:
		return ":--"
	case AlignRight:
		return "--:"
	case AlignCenter:
		return ":-:"
	}
	return "---"
}

// AlignOf is the alignment a Markdown delimiter-row entry says: ":--"
// left, "--:" right, ":-:" centre, anything else AlignDefault.
func AlignOf(rule string) Align {
	l, r := strings.HasPrefix(rule, ":"), strings.HasSuffix(rule, ":")
	switch {
	case l && r:
		return AlignCenter
	case l:
		return AlignLeft
	case r:
		return AlignRight
	}
	return AlignDefault
}

// pad fits s into w columns, in text.
func (a Align) pad(s string, w int) string {
	n := w - Width(s)
	if n <= 0 {
		return s
	}
	switch a {
	case AlignRight:
		return strings.Repeat(" ", n) + s
	case AlignCenter:
		return strings.Repeat(" ", n/2) + s
	}
	return s
}

// Table is a grid of cells built row by row. Its methods that add cells
// return the Table, so a row reads as one chain:
//
//	t.Row().Cell("decode").Cell("40.0ms", texttab.Aligned(texttab.AlignRight))
type Table struct {
	// TightRule writes Markdown's delimiter row without spaces
	// ("|---|--:|"), as the profile grids have always printed it.
	TightRule bool

	cols   []column
	cells  []cell
	rows   int // rows started
	curCol int
}

type column struct {
	align     Align
	margin    string
	hasMargin bool
}

type cell struct {
	row, col, span int
	value          string
	align          Align
	margin         string
}

// An Option changes one cell.
type Option func(*cell)

// Aligned aligns one cell other than its column (text only: Markdown
// aligns whole columns).
func Aligned(a Align) Option { return func(c *cell) { c.align = a } }

// WithMargin sets the text printed before one cell instead of its
// column's margin (text only).
func WithMargin(m string) Option { return func(c *cell) { c.margin = m } }

// New returns a table with one column per alignment given; more columns
// appear as cells are added (AlignDefault).
func New(aligns ...Align) *Table {
	t := &Table{}
	for _, a := range aligns {
		t.cols = append(t.cols, column{align: a})
	}
	return t
}

// column returns column i's settings, growing the list.
func (t *Table) column(i int) *column {
	for len(t.cols) <= i {
		t.cols = append(t.cols, column{})
	}
	return &t.cols[i]
}

// SetAlign aligns column col.
func (t *Table) SetAlign(col int, a Align) *Table {
	t.column(col).align = a
	return t
}

// SetMargin sets the text printed before the cells of column col, in
// text: " │ " between column groups, "  " between the columns of a grid.
// The default is none before the first column and one space before the
// others. Set it before adding the column's cells.
func (t *Table) SetMargin(col int, m string) *Table {
	c := t.column(col)
	c.margin, c.hasMargin = m, true
	return t
}

// Row starts a new row at column 0.
func (t *Table) Row() *Table {
	t.rows++
	t.curCol = 0
	return t
}

// Col moves to column col of the current row; cells are added left to
// right, so col may not be before the current column.
func (t *Table) Col(col int) *Table {
	if col < t.curCol {
		panic(fmt.Sprintf("texttab: cannot move from column %d back to column %d", t.curCol, col))
	}
	t.curCol = col
	return t
}

// Cell adds a one-column cell at the current column.
func (t *Table) Cell(value string, opts ...Option) *Table { return t.Span(1, value, opts...) }

// Cells adds one one-column cell per value.
func (t *Table) Cells(values ...string) *Table {
	for _, v := range values {
		t.Cell(v)
	}
	return t
}

// Span adds a cell covering cols columns from the current one.
func (t *Table) Span(cols int, value string, opts ...Option) *Table {
	if t.rows == 0 {
		t.Row()
	}
	cols = max(cols, 1)
	col := t.column(t.curCol)
	margin := col.margin
	if !col.hasMargin && t.curCol > 0 {
		margin = " "
	}
	c := cell{row: t.rows - 1, col: t.curCol, span: cols, value: value, align: col.align, margin: margin}
	for _, o := range opts {
		o(&c)
	}
	t.column(t.curCol + cols - 1)
	t.cells = append(t.cells, c)
	t.curCol += cols
	return t
}

// grid returns the cells of each row by column, a Span's value in its
// first column and empty strings elsewhere, every row as wide as the
// table.
func (t *Table) grid() [][]string {
	out := make([][]string, t.rows)
	for i := range out {
		out[i] = make([]string, len(t.cols))
	}
	for _, c := range t.cells {
		out[c.row][c.col] = c.value
	}
	return out
}

// Width is the width of s in a fixed-width font: its rune count.
func Width(s string) int { return utf8.RuneCountInString(s) }
