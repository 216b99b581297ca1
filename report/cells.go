package report

import (
	"fmt"
	"strings"

	"github.com/fastpathlab/fplab/results"
	"github.com/fastpathlab/fplab/results/texttab"
)

// writeCells is the fallback of the tables section when no axis is swept
// (one cell, or cells that differ in nothing the tables can pivot on): one
// row per cell, one column per unit, the median (results.Summarize, printed
// as the tables print a figure) and the repetitions behind it, counted as
// results.Index counts them.
func writeCells(b *strings.Builder, n *notes, x *results.Index) {
	cells, units := x.Cells(), x.Units()
	if len(cells) == 0 {
		b.WriteString("No table: the journal has no rows.\n\n")
		return
	}
	if len(units) == 0 {
		b.WriteString("No table: no repetition succeeded (see Failed cells).\n\n")
		return
	}
	b.WriteString("No axis is swept, so there is nothing to pivot: each cell's median across its successful repetitions, with their count.\n\n")
	head := []string{"cell"}
	align := []string{":--"}
	for _, u := range units {
		head = append(head, mdText(u))
		align = append(align, "--:")
	}
	t := table(align, head...)
	for _, c := range cells {
		t.Row().Cell("`" + c.Name + "`")
		for _, u := range units {
			vs := c.Samples[u]
			switch {
			case len(vs) > 0:
				t.Cell(fmt.Sprintf("%s (n=%d)", texttab.Number(results.Summarize(vs).Center), len(vs)))
			case c.Failed > 0 && c.OK == 0:
				t.Cell(n.gap(fmt.Sprintf("%s: all %d repetitions failed; see Failed cells", c.Name, c.Failed)))
			default:
				t.Cell(n.gap(fmt.Sprintf("%s: no %s samples in its successful repetitions", c.Name, u)))
			}
		}
	}
	putTable(b, t)
}
