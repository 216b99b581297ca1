package plots

import (
	"fmt"
	"sort"
	"strings"

	"github.com/fastpathlab/fplab/cell"
	"github.com/fastpathlab/fplab/results"
)

// maxRows is the most cells one overview image holds; a larger run (the
// full ladder has 630 cells) gets overview-1, overview-2, ... so that each
// image stays readable at the report's width.
const maxRows = 60

// overviewFigures draws every cell's rec/s with its interval, one row per
// cell sorted by cell name (figure "overview", or "overview-<page>").
// Cells without a successful repetition are rows that say so, never a
// zero; a run with one cell still gets its row.
func overviewFigures(ds *dataset, opt Options, styles map[string]int) []Figure {
	title := "Throughput of every cell"
	cells := append([]*cellData(nil), ds.cells...)
	if !anyHas(cells, results.UnitRecPerSec) {
		return []Figure{{Name: "overview", Title: opt.title(title), Skip: "no cell has a " + results.UnitRecPerSec + " sample"}}
	}
	sort.SliceStable(cells, func(i, j int) bool { return cellLess(cells[i], cells[j]) })
	axes := runAxes(cells)
	colourByPath := indexOf(axes, cell.Path) >= 0
	var rows []CellRow
	var stats []Stat
	for _, c := range cells {
		r := CellRow{Label: shortName(c, axes), Style: neutralStyle}
		if colourByPath {
			r.Style = styles[c.dims[cell.Path]]
		}
		if c.failed > 0 && c.ok > 0 {
			r.Label += fmt.Sprintf(" (%d of %d failed)", c.failed, c.failed+c.ok)
		}
		switch {
		case c.has(results.UnitRecPerSec):
			r.Stat = c.stat(results.UnitRecPerSec)
			stats = append(stats, r.Stat)
		case c.ok == 0:
			r.Note = fmt.Sprintf("failed: %d of %d repetitions", c.failed, c.failed)
		default:
			r.Note = "no rec/s samples"
		}
		rows = append(rows, r)
	}
	var b strings.Builder
	b.WriteString("One row per cell, sorted by cell name. ")
	b.WriteString(intervalCaption("Dots", stats))
	if len(stats) < len(rows) {
		b.WriteString(" A row with a note instead of a dot has no rec/s sample: it is not drawn as a number.")
	}
	b.WriteString(held(heldSetting(cells)))
	b.WriteString(" A/A calibration cells are left out (see the noise floor).")
	var legend []LegendEntry
	if colourByPath {
		for _, p := range values(cells, cell.Path) {
			legend = append(legend, LegendEntry{Label: p, Kind: LegendDot, Style: styles[p]})
		}
	}
	legend = append(legend, noIntervalEntry(stats)...)
	pages := (len(rows) + maxRows - 1) / maxRows
	figs := make([]Figure, 0, pages)
	for p := 0; p < pages; p++ {
		fig := Figure{Name: "overview", Title: opt.title(title), Caption: b.String(), Legend: legend}
		if pages > 1 {
			fig.Name = fmt.Sprintf("overview-%d", p+1)
			fig.Title = opt.title(fmt.Sprintf("%s (%d of %d)", title, p+1, pages))
		}
		page := rows[p*maxRows : min(len(rows), (p+1)*maxRows)]
		fig.Panels = []Panel{{Kind: RowPanel, XLabel: "throughput (rec/s)", Rows: page}}
		figs = append(figs, fig)
	}
	return figs
}

func anyHas(cells []*cellData, unit string) bool {
	for _, c := range cells {
		if c.has(unit) {
			return true
		}
	}
	return false
}
