package results

import (
	"fmt"
	"io"
	"strings"
)

// WriteMarkdown renders t as a GitHub-flavoured Markdown table under a
// "###" heading, with the same cells as WriteText ("3.991M ± 1%", CV with
// "!" when noisy, "vs base" deltas) and the legend and footnotes below.
func (t Table) WriteMarkdown(w io.Writer) error {
	var fn footnotes
	anyNoisy := false
	hasNote := false
	for _, r := range t.Rows {
		hasNote = hasNote || r.Note != ""
	}
	head := []string{mdEscape(labelHeader(t))}
	align := []string{":--"}
	for j := range t.Cols {
		head = append(head, mdEscape(t.ColLabel(j)+" "+t.Unit), "CV")
		align = append(align, "--:", "--:")
		if j > 0 {
			head = append(head, "vs base")
			align = append(align, "--:")
		}
	}
	if hasNote {
		head, align = append(head, ""), append(align, ":--")
	}
	var b strings.Builder
	fmt.Fprintf(&b, "### %s\n\n", mdEscape(t.Title()))
	b.WriteString(mdRow(head))
	b.WriteString(mdRow(align))
	for _, r := range t.Rows {
		sc := rowScaler(r.Cells)
		rec := []string{mdEscape(r.Label)}
		for j, st := range r.Cells {
			if st == nil {
				rec = append(rec, "", "")
				if j > 0 {
					rec = append(rec, "")
				}
				continue
			}
			anyNoisy = anyNoisy || st.Noisy
			v := sc.Format(st.Center) + " ± " + st.CI
			if m := fn.mark(st.Warnings); m != "" {
				v += " " + m
			}
			cvText := fmtCV(st.CV)
			if st.Noisy {
				cvText += " !"
			}
			rec = append(rec, v, cvText)
			if j > 0 {
				d := ""
				if st.Delta != nil {
					d = st.Delta.Text + " (" + st.Delta.Note + ")"
					if m := fn.mark(st.Delta.Warnings); m != "" {
						d += " " + m
					}
				}
				rec = append(rec, d)
			}
		}
		if hasNote {
			rec = append(rec, mdEscape(r.Note))
		}
		b.WriteString(mdRow(rec))
	}
	var notes []string
	if anyNoisy {
		notes = append(notes, noisyLegend(t.NoisyCV))
	}
	notes = append(notes, fn.lines()...)
	if len(notes) > 0 {
		b.WriteString("\n")
		for _, n := range notes {
			b.WriteString(mdEscape(n) + "  \n")
		}
	}
	if _, err := io.WriteString(w, b.String()); err != nil {
		return fmt.Errorf("results: write markdown: %v", err)
	}
	return nil
}

func mdRow(cells []string) string {
	return "| " + strings.Join(cells, " | ") + " |\n"
}

// mdEscape keeps text from breaking a table cell or starting markup.
func mdEscape(s string) string {
	return strings.NewReplacer("|", `\|`, "*", `\*`, "_", `\_`, "\n", " ").Replace(s)
}
