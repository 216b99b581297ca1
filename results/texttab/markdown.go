package texttab

import (
	"fmt"
	"io"
	"strings"
)

// WriteMarkdown writes t as a GitHub-flavoured Markdown table: the first
// row is the header, then the delimiter row, then the other rows. Cells
// are written as given: they are Markdown source (see Escape).
func (t *Table) WriteMarkdown(w io.Writer) error {
	if t.rows == 0 {
		return nil
	}
	g := t.grid()
	rules := make([]string, len(t.cols))
	for i, c := range t.cols {
		rules[i] = c.align.rule()
	}
	var b strings.Builder
	b.WriteString(mdRow(g[0]))
	if t.TightRule {
		b.WriteString("|" + strings.Join(rules, "|") + "|\n")
	} else {
		b.WriteString(mdRow(rules))
	}
	for _, r := range g[1:] {
		b.WriteString(mdRow(r))
	}
	if _, err := io.WriteString(w, b.String()); err != nil {
		return fmt.Errorf("write markdown table: %w", err)
	}
	return nil
}

func mdRow(cells []string) string {
	return "| " + strings.Join(cells, " | ") + " |\n"
}

// markdownEscaper keeps text from breaking a table cell (a '|' or a line
// break) or starting markup (emphasis, an HTML tag).
var markdownEscaper = strings.NewReplacer("|", `\|`, "*", `\*`, "_", `\_`, "<", "&lt;", "\r", "", "\n", " ")

// Escape makes plain text safe in a Markdown table cell or a line of
// prose: '|', '*' and '_' are escaped, '<' becomes "&lt;", and line breaks
// become spaces. Text meant as Markdown (a `code` span, a link) is not
// escaped.
func Escape(s string) string { return markdownEscaper.Replace(s) }
