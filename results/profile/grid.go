package profile

import (
	"io"
	"strings"

	"github.com/fastpathlab/fplab/results/texttab"
)

// WriteText writes b as a plain-text table of buckets, the top functions
// of each non-empty bucket, and the profile's limits.
func WriteText(w io.Writer, b Breakdown) error { return write(w, b, asText) }

// WriteMarkdown writes b as Markdown: a heading, the bucket table, the top
// functions table and the profile's limits as a quote.
func WriteMarkdown(w io.Writer, b Breakdown) error { return write(w, b, asMarkdown) }

// WriteDiffText writes d as plain-text tables, one per value type.
func WriteDiffText(w io.Writer, d DiffTable) error { return write(w, d, asText) }

// WriteDiffMarkdown writes d as Markdown, one table per value type, each
// under the title as a heading.
func WriteDiffMarkdown(w io.Writer, d DiffTable) error { return write(w, d, asMarkdown) }

// laidOut is what the writers render: a Breakdown or a DiffTable, each
// laid out as one document whatever the format, so text and Markdown show
// the same figures (texttab renders both).
type laidOut interface{ document(format) document }

func write(w io.Writer, v laidOut, f format) error { return v.document(f).write(w, f) }

// format is a rendering: plain text or Markdown.
type format bool

const (
	asText     format = false
	asMarkdown format = true
)

// document is one rendering of a breakdown or a diff: a title, tables
// each under an optional caption, and the profile's limits as a note.
type document struct {
	title    string
	sections []section
	note     string
}

type section struct {
	caption string // "" for none; lower case, capitalised in Markdown
	grid    *grid
}

// write renders d: in Markdown the title is a "###" heading, a caption a
// capitalised paragraph and the note a quote.
func (d document) write(w io.Writer, f format) error {
	var sb strings.Builder
	if f == asMarkdown {
		sb.WriteString("### ")
	}
	sb.WriteString(d.title + "\n")
	for _, s := range d.sections {
		sb.WriteString("\n")
		if s.caption != "" {
			if f == asMarkdown {
				sb.WriteString(strings.ToUpper(s.caption[:1]) + s.caption[1:] + ":\n\n")
			} else {
				sb.WriteString(s.caption + ":\n")
			}
		}
		var err error
		if f == asMarkdown {
			err = s.grid.tab.WriteMarkdown(&sb)
		} else {
			err = s.grid.tab.WriteText(&sb)
		}
		if err != nil {
			return err
		}
	}
	if f == asMarkdown {
		sb.WriteString("\n> " + d.note + "\n")
	} else {
		sb.WriteString("\nnote: " + d.note + "\n")
	}
	_, err := io.WriteString(w, sb.String())
	return err
}

// grid is a table of a profile: its first left columns (at least one)
// left-aligned, the others right-aligned, two spaces apart in text; in
// Markdown a '|' in a cell is escaped and the delimiter row is tight
// (|---|--:|).
type grid struct {
	tab  *texttab.Table
	f    format
	rows int // rows below the header
}

func newGrid(f format, left int, header ...string) *grid {
	g := &grid{tab: texttab.New(), f: f}
	g.tab.TightRule = true
	for i := range header {
		a := texttab.AlignRight
		if i < max(left, 1) {
			a = texttab.AlignDefault
		}
		g.tab.SetAlign(i, a)
		if i > 0 {
			g.tab.SetMargin(i, "  ")
		}
	}
	g.add(header...)
	g.rows = 0
	return g
}

func (g *grid) add(cells ...string) {
	g.tab.Row()
	for _, c := range cells {
		if g.f == asMarkdown {
			c = strings.ReplaceAll(c, "|", `\|`)
		}
		g.tab.Cell(c)
	}
	g.rows++
}
