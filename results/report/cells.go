package report

import (
	"fmt"
	"sort"
	"strings"

	"github.com/fastpathlab/fplab/results"
)

// writeCells is the fallback of the tables section when no axis is swept
// (one cell, or cells that differ in nothing the tables can pivot on): one
// row per cell, one column per unit, the median and the repetitions behind
// it.
func writeCells(b *strings.Builder, n *notes, main []results.Row) {
	type cell struct {
		name    string
		samples map[string][]float64
		failed  int
	}
	byName := make(map[string]*cell)
	var cells []*cell
	var units []string
	seenUnit := make(map[string]bool)
	for _, r := range main {
		c := byName[r.Cell]
		if c == nil {
			c = &cell{name: r.Cell, samples: make(map[string][]float64)}
			byName[r.Cell] = c
			cells = append(cells, c)
		}
		if !r.OK {
			c.failed++
			continue
		}
		got := make(map[string]bool)
		for _, m := range r.Metrics {
			if got[m.Unit] {
				continue
			}
			got[m.Unit] = true
			c.samples[m.Unit] = append(c.samples[m.Unit], m.Value)
			if !seenUnit[m.Unit] {
				seenUnit[m.Unit] = true
				units = append(units, m.Unit)
			}
		}
	}
	if len(cells) == 0 {
		b.WriteString("No table: the journal has no rows.\n\n")
		return
	}
	if len(units) == 0 {
		b.WriteString("No table: no repetition succeeded (see Failed cells).\n\n")
		return
	}
	b.WriteString("No axis is swept, so there is nothing to pivot: each cell's median across its successful repetitions, with their count.\n\n")
	sort.SliceStable(cells, func(i, j int) bool { return cells[i].name < cells[j].name })
	head := []string{"cell"}
	align := []string{":--"}
	for _, u := range units {
		head = append(head, mdText(u))
		align = append(align, "--:")
	}
	b.WriteString(row(head...))
	b.WriteString(row(align...))
	for _, c := range cells {
		rec := []string{"`" + c.name + "`"}
		for _, u := range units {
			vs := c.samples[u]
			switch {
			case len(vs) > 0:
				rec = append(rec, fmt.Sprintf("%s (n=%d)", si(medianOf(vs)), len(vs)))
			case c.failed > 0 && len(c.samples) == 0:
				rec = append(rec, n.gap(fmt.Sprintf("%s: all %d repetitions failed; see Failed cells", c.name, c.failed)))
			default:
				rec = append(rec, n.gap(fmt.Sprintf("%s: no %s samples in its successful repetitions", c.name, u)))
			}
		}
		b.WriteString(row(rec...))
	}
	b.WriteString("\n")
}

func medianOf(vs []float64) float64 {
	s := append([]float64(nil), vs...)
	sort.Float64s(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}
