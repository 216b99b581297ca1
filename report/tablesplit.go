package report

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/fastpathlab/fplab/results"
)

// maxTableColumns is the most Markdown columns one table of report.md
// has, its row labels included. A results table takes a column for its
// row labels, two for its baseline (value, CV) and three for every other
// value of its axis (value, CV, vs base); its figures are about 14
// characters ("2.712M ± ∞[^4]"), 6 ("18.8% !") and 21 ("+29.76% (p=0.000
// n=6)"), and a row label about 25 ("batch=8192/alloc=mimalloc2"), so nine
// columns — the labels and three values — are about 140 characters: one
// wide screen, and a sweep of three values (batch 1024, 8192, 65536) stays
// one table. A run of the references spec (seven paths by four formats,
// two clusters and two decoders) printed its tables 21 columns wide.
const maxTableColumns = 9

// tableLook is what a table's rendering in report.md adds to results'
// own: a heading suffix (plots.EmulatedLabel for an emulated run) and the
// Markdown link to its full-width CSV beside the report ("" when there is
// none).
type tableLook struct {
	suffix string
	csv    string
}

// colRange is the axis values [from, to) of a table that one part of it
// shows.
type colRange struct{ from, to int }

// groupWidth is how many Markdown columns axis value j of a table takes:
// the baseline its value and CV, any other value a vs base as well
// (results.Table.WriteMarkdownNotes).
func groupWidth(j int) int {
	if j == 0 {
		return 2
	}
	return 3
}

// splitCols cuts t's axis values, in order, into as few runs as keep each
// part within maxTableColumns with the row labels repeated in every part;
// a row note (Compare's) follows the last value, so it counts with it. A
// part holds at least one value whatever the bound, so no column is lost.
func splitCols(t results.Table) []colRange {
	note := 0
	for _, r := range t.Rows {
		if r.Note != "" {
			note = 1
		}
	}
	var parts []colRange
	cur, width := colRange{}, 1
	for j := range t.Cols {
		w := groupWidth(j)
		if j == len(t.Cols)-1 {
			w += note
		}
		if cur.to > cur.from && width+w > maxTableColumns {
			parts = append(parts, cur)
			cur, width = colRange{from: j, to: j}, 1
		}
		cur.to++
		width += w
	}
	return append(parts, cur)
}

// writeTable renders t through results' own Markdown renderer, the one
// tables/*.md use, so both print every figure the same way (and a row
// shares one scale across all its columns, as there); only the marks
// differ: warnings and gaps are the report's numbered footnotes, and a gap
// says why it is one (gapIndex).
//
// A table wider than maxTableColumns is printed as several parts, one run
// of its axis values each, under headings "columns i–j of N", every part
// with the row labels. Benchstat splits its tables by unit and by a
// projection of the benchmark keys; the report's tables are split that way
// already (one per unit and axis), so what is left to split is the
// columns of one axis. Each part is cut from the one rendering of the whole
// table, so a figure reads the same in every part as in tables/*.md.
// Footnote marks are placed as each part is written, so the report's
// footnotes are numbered in the order a reader meets them.
func writeTable(b *strings.Builder, n *notes, t results.Table, gi gapIndex, look tableLook) {
	title := t.Title()
	if look.suffix != "" {
		t.Heading = title + look.suffix
	}
	dn := &deferredNotes{tn: tableNotes{n: n, t: t, gi: gi}}
	var full strings.Builder
	t.WriteMarkdownNotes(&full, dn) // a strings.Builder does not fail
	parts := splitCols(t)
	lines, ok := tableLines(full.String(), t)
	if !ok || len(parts) == 1 {
		// One part (or a rendering this cannot cut): the table as
		// results writes it.
		b.WriteString(dn.resolve(full.String()))
		b.WriteString("\n")
		return
	}
	// Markdown column of each axis value's first cell: the labels, then
	// the groups in order.
	first := make([]int, len(t.Cols)+1)
	first[0] = 1
	for j := range t.Cols {
		first[j+1] = first[j] + groupWidth(j)
	}
	for i, p := range parts {
		span := fmt.Sprintf("column %d of %d", p.from+1, len(t.Cols))
		if p.to-p.from > 1 {
			span = fmt.Sprintf("columns %d–%d of %d", p.from+1, p.to, len(t.Cols))
		}
		fmt.Fprintf(b, "### %s\n\n", mdText(title+", "+span+look.suffix))
		if i == 0 {
			fmt.Fprintf(b, "Split by column into %d parts to fit a screen", len(parts))
		} else {
			fmt.Fprintf(b, "Part %d of %d; *vs base* compares with %s, column 1 (part 1)", i+1, len(parts), mdText(t.ColLabel(0)))
		}
		if look.csv != "" {
			b.WriteString("; full width: " + look.csv)
		}
		b.WriteString(".\n\n")
		to := first[p.to]
		if i == len(parts)-1 {
			to = len(lines[0]) // the note column, if any, follows the last value
		}
		for _, cells := range lines {
			part := append([]string{cells[0]}, cells[first[p.from]:to]...)
			for k, c := range part {
				part[k] = dn.resolve(c)
			}
			b.WriteString("| " + strings.Join(part, " | ") + " |\n")
		}
		b.WriteString("\n")
	}
}

// tableLines returns the cells of each line of the Markdown table in md,
// t's rendering by WriteMarkdownNotes, header and delimiter row included.
// texttab writes a row as "| " + its cells joined by " | " + " |", and
// every text in a cell is escaped (texttab.Escape turns '|' into "\|"), so
// " | " only ever separates cells. It reports false unless every line has
// the columns t's layout gives (the labels, the groups of groupWidth, a
// note column when a row has a note): a rendering it does not know is
// printed whole rather than cut wrong.
func tableLines(md string, t results.Table) ([][]string, bool) {
	want := 1
	for j := range t.Cols {
		want += groupWidth(j)
	}
	for _, r := range t.Rows {
		if r.Note != "" {
			want++
			break
		}
	}
	var lines [][]string
	for _, l := range strings.Split(md, "\n") {
		if !strings.HasPrefix(l, "|") {
			continue
		}
		cells := strings.Split(strings.TrimSuffix(strings.TrimPrefix(l, "| "), " |"), " | ")
		if len(cells) != want {
			return nil, false
		}
		lines = append(lines, cells)
	}
	return lines, len(lines) >= 2
}

// deferredNotes is the results.Notes of a table that may be split: it
// marks each footnote reference and gap with a placeholder and registers
// the footnote only when resolve writes the placeholder out, so footnotes
// are numbered in the order the parts print them, not the order of the
// whole table's rows.
type deferredNotes struct {
	tn    tableNotes
	marks []func() string
}

func (d *deferredNotes) Ref(warnings []string) string {
	if len(warnings) == 0 {
		return ""
	}
	return d.mark(func() string { return d.tn.Ref(warnings) })
}

func (d *deferredNotes) Gap(g results.Gap) string {
	return d.mark(func() string { return d.tn.Gap(g) })
}

// mark stores f and returns its placeholder, "\x00<index>\x00": a NUL is
// neither Markdown nor anything a cell holds, nor part of " | ".
func (d *deferredNotes) mark(f func() string) string {
	d.marks = append(d.marks, f)
	return "\x00" + strconv.Itoa(len(d.marks)-1) + "\x00"
}

var placeholder = regexp.MustCompile("\x00([0-9]+)\x00")

// resolve replaces the placeholders in s, left to right, with the marks
// they stand for, registering their footnotes.
func (d *deferredNotes) resolve(s string) string {
	return placeholder.ReplaceAllStringFunc(s, func(m string) string {
		i, _ := strconv.Atoi(strings.Trim(m, "\x00"))
		return d.marks[i]()
	})
}
