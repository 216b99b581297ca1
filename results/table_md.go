package results

import (
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/fastpathlab/fplab/results/texttab"
)

// Notes is the hook through which a Markdown rendering of a Table marks
// what its cells cannot say as a figure: the footnotes of a figure's
// warnings and the gaps where it has none. WriteMarkdown's own Notes
// (tables/*.md) marks footnotes with superscripts listed below the table
// and leaves gaps blank ("-" for a CV); package report numbers them across
// report.md ("[^3]") and says why each gap is one. Both print every figure
// the same way.
type Notes interface {
	// Ref returns what follows a figure with these warnings: "" for none.
	Ref(warnings []string) string
	// Gap renders an entry without a figure.
	Gap(g Gap) string
}

// GapKind is what a table entry lacks.
type GapKind int

const (
	// GapCell: the cell has no Stat. The ladder cell was not run, every
	// repetition failed or none reported the unit; only the journal says
	// which. Its CV and delta entries are left empty.
	GapCell GapKind = iota
	// GapCV: the cell's CV is undefined (WhyNoCV).
	GapCV
	// GapDelta: the row's first column has no Stat to compare with
	// (WhyNoDelta).
	GapDelta
)

// Why a CV or a delta is a gap.
const (
	WhyNoCV    = "one repetition (or a zero mean): no spread to measure"
	WhyNoDelta = "no baseline: the first column of this row has no data"
)

// Gap is one table entry without a figure.
type Gap struct {
	Kind GapKind
	// Row and Col locate the cell: Rows[Row].Cells[Col].
	Row, Col int
	// Why says what is missing (WhyNoCV, WhyNoDelta); "" for GapCell.
	Why string
}

// legendNotes is WriteMarkdown's Notes: superscript footnotes, listed
// below the table.
type legendNotes struct{ fn *texttab.Footnotes }

func (n legendNotes) Ref(ws []string) string {
	if m := n.fn.Refs(" ", ws...); m != "" {
		return " " + m
	}
	return ""
}

func (legendNotes) Gap(g Gap) string {
	if g.Kind == GapCV {
		return "-"
	}
	return ""
}

// WriteMarkdown renders t as a GitHub-flavoured Markdown table under a
// "###" heading, with the same cells as WriteText ("3.991M ± 1%", CV with
// "!" when noisy, "vs base" deltas) and the legend and footnotes below.
func (t Table) WriteMarkdown(w io.Writer) error {
	var fn texttab.Footnotes
	var b strings.Builder
	if err := t.WriteMarkdownNotes(&b, legendNotes{&fn}); err != nil {
		return err
	}
	var legend []string
	if t.anyNoisy() {
		legend = append(legend, noisyLegend(t.NoisyCV))
	}
	legend = append(legend, fn.Lines()...)
	if len(legend) > 0 {
		b.WriteString("\n")
		for _, l := range legend {
			b.WriteString(texttab.Escape(l) + "  \n")
		}
	}
	if _, err := io.WriteString(w, b.String()); err != nil {
		return fmt.Errorf("write markdown: %w", err)
	}
	return nil
}

// WriteMarkdownNotes renders t's "###" heading and Markdown table, its
// footnotes and gaps marked by n, and no legend: the caller lists the
// notes (package report, across the whole report).
func (t Table) WriteMarkdownNotes(w io.Writer, n Notes) error {
	hasNote := false
	for _, r := range t.Rows {
		hasNote = hasNote || r.Note != ""
	}
	aligns := []texttab.Align{texttab.AlignLeft}
	head := []string{texttab.Escape(labelHeader(t))}
	for j := range t.Cols {
		head = append(head, texttab.Escape(t.ColLabel(j)+" "+t.Unit), "CV")
		aligns = append(aligns, texttab.AlignRight, texttab.AlignRight)
		if j > 0 {
			head = append(head, "vs base")
			aligns = append(aligns, texttab.AlignRight)
		}
	}
	if hasNote {
		head = append(head, "")
		aligns = append(aligns, texttab.AlignLeft)
	}
	tab := texttab.New(aligns...)
	tab.Row().Cells(head...)
	for i, r := range t.Rows {
		tab.Row().Cell(texttab.Escape(r.Label))
		sc := rowScale(r.Cells)
		for j, st := range r.Cells {
			if st == nil {
				tab.Cells(n.Gap(Gap{Kind: GapCell, Row: i, Col: j}), "")
				if j > 0 {
					tab.Cell("")
				}
				continue
			}
			cv := fmtCV(st.CV)
			if math.IsNaN(st.CV) {
				cv = n.Gap(Gap{Kind: GapCV, Row: i, Col: j, Why: WhyNoCV})
			}
			if st.Noisy {
				cv += " !"
			}
			tab.Cells(sc.Format(st.Center)+" ± "+st.CI+n.Ref(st.Warnings), cv)
			if j > 0 {
				if d := st.Delta; d != nil {
					tab.Cell(d.Text + " (" + d.Note + ")" + n.Ref(d.Warnings))
				} else {
					tab.Cell(n.Gap(Gap{Kind: GapDelta, Row: i, Col: j, Why: WhyNoDelta}))
				}
			}
		}
		if hasNote {
			tab.Col(len(aligns) - 1).Cell(texttab.Escape(r.Note))
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "### %s\n\n", texttab.Escape(t.Title()))
	if err := tab.WriteMarkdown(&b); err != nil {
		return fmt.Errorf("table %s: %w", t.Title(), err)
	}
	if _, err := io.WriteString(w, b.String()); err != nil {
		return fmt.Errorf("write markdown: %w", err)
	}
	return nil
}
