package texttab

import (
	"fmt"
	"io"
	"sort"
	"strings"
)

// shown reports whether c takes room and is printed: it has a value, or a
// margin that is not blank (the "│" closing a header row).
func (c cell) shown() bool { return c.value != "" || strings.TrimSpace(c.margin) != "" }

// WriteText writes t as fixed-width text, one line per row (see the
// package documentation for the layout rules).
func (t *Table) WriteText(w io.Writer) error {
	ncols := len(t.cols)
	margins := make([]int, ncols)
	for _, c := range t.cells {
		if c.shown() {
			margins[c.col] = max(margins[c.col], Width(c.margin))
		}
	}
	cells := make([]cell, 0, len(t.cells))
	for _, c := range t.cells {
		if c.shown() {
			cells = append(cells, c)
		}
	}
	// Widths, margins included: single cells first, then spans from the
	// narrowest, each widening the last column it covers if it must.
	sort.SliceStable(cells, func(i, j int) bool { return cells[i].span < cells[j].span })
	widths := make([]int, ncols)
	for _, c := range cells {
		need := margins[c.col] + Width(c.value)
		if c.span == 1 {
			widths[c.col] = max(widths[c.col], need)
			continue
		}
		have := 0
		for k := c.col; k < c.col+c.span; k++ {
			have += widths[k]
		}
		if have < need {
			widths[c.col+c.span-1] += need - have
		}
	}
	offs := make([]int, ncols+1)
	for i, wd := range widths {
		offs[i+1] = offs[i] + wd
	}

	sort.SliceStable(cells, func(i, j int) bool {
		if cells[i].row != cells[j].row {
			return cells[i].row < cells[j].row
		}
		return cells[i].col < cells[j].col
	})
	var b strings.Builder
	next := 0
	for row := 0; row < t.rows; row++ {
		at := 0
		for ; next < len(cells) && cells[next].row == row; next++ {
			c := cells[next]
			b.WriteString(strings.Repeat(" ", max(0, offs[c.col]-at)))
			at = max(at, offs[c.col])
			b.WriteString(AlignRight.pad(c.margin, margins[c.col]))
			at += max(margins[c.col], Width(c.margin))
			s := c.align.pad(c.value, offs[c.col+c.span]-offs[c.col]-margins[c.col])
			b.WriteString(s)
			at += Width(s)
		}
		b.WriteString("\n")
	}
	if _, err := io.WriteString(w, b.String()); err != nil {
		return fmt.Errorf("write text table: %w", err)
	}
	return nil
}
