package profile

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// grid is a rendered table: the first column left-aligned, the others
// right-aligned, so text and Markdown renderers share one layout.
type grid struct {
	header []string
	rows   [][]string
	left   int // columns [0, left) are left-aligned; at least 1
}

func (g *grid) add(cells ...string) { g.rows = append(g.rows, cells) }

func (g *grid) leftCols() int {
	if g.left < 1 {
		return 1
	}
	return g.left
}

// writeText writes g as space-padded columns.
func (g *grid) writeText(w io.Writer) error {
	width := make([]int, len(g.header))
	for _, r := range append([][]string{g.header}, g.rows...) {
		for i, c := range r {
			if i < len(width) {
				width[i] = max(width[i], utf8.RuneCountInString(c))
			}
		}
	}
	for _, r := range append([][]string{g.header}, g.rows...) {
		var b strings.Builder
		for i := range width {
			c := ""
			if i < len(r) {
				c = r[i]
			}
			pad := strings.Repeat(" ", width[i]-utf8.RuneCountInString(c))
			if i > 0 {
				b.WriteString("  ")
			}
			if i < g.leftCols() {
				b.WriteString(c)
				if i < len(width)-1 {
					b.WriteString(pad)
				}
			} else {
				b.WriteString(pad + c)
			}
		}
		if _, err := fmt.Fprintln(w, b.String()); err != nil {
			return err
		}
	}
	return nil
}

// writeMarkdown writes g as a GitHub Markdown table.
func (g *grid) writeMarkdown(w io.Writer) error {
	line := func(cells []string) string {
		esc := make([]string, len(g.header))
		for i := range esc {
			if i < len(cells) {
				esc[i] = strings.ReplaceAll(cells[i], "|", `\|`)
			}
		}
		return "| " + strings.Join(esc, " | ") + " |"
	}
	sep := make([]string, len(g.header))
	for i := range sep {
		if i < g.leftCols() {
			sep[i] = "---"
		} else {
			sep[i] = "--:"
		}
	}
	lines := []string{line(g.header), "|" + strings.Join(sep, "|") + "|"}
	for _, r := range g.rows {
		lines = append(lines, line(r))
	}
	_, err := io.WriteString(w, strings.Join(lines, "\n")+"\n")
	return err
}
