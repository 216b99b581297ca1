package plots

import (
	"fmt"
	"maps"
	"sort"
	"strings"

	"github.com/fastpathlab/fplab/cell"
	"github.com/fastpathlab/fplab/results"
)

// maxRateFigureName is the file stem of the max-rate figure.
const maxRateFigureName = "max-rate"

const maxRateTitle = "Maximum sustainable rate beside the bounded drain"

// maxRateFigure draws, per mode=maxrate cell, two bars: the highest rate
// its live trials sustained (max-rate-rec/s) and the rec/s of its bounded
// twin, the cell with the same name but mode=bounded and no linger (n/a
// when the run has none). Groups are labelled by the axes that vary among
// the maxrate cells (by path when nothing else does). It is skipped when
// the run has no maxrate cell with max-rate-rec/s samples.
func maxRateFigure(ds *dataset, opt Options) Figure {
	fig := Figure{Name: maxRateFigureName, Title: opt.title(maxRateTitle)}
	bounded := make(map[string]*cellData)
	var cells []*cellData
	for _, c := range ds.cells {
		switch {
		case c.dims[cell.Mode] == cell.ModeMaxRate && c.has(results.UnitMaxRate):
			cells = append(cells, c)
		case axisValue(c, cell.Mode) == cell.ModeBounded:
			bounded[results.Setting(c.dims)] = c
		}
	}
	sort.SliceStable(cells, func(i, j int) bool { return cellLess(cells[i], cells[j]) })
	if len(cells) == 0 {
		fig.Skip = fmt.Sprintf("no %s samples (no mode=%s cells in this run)", results.UnitMaxRate, cell.ModeMaxRate)
		return fig
	}
	var labelAxes []string
	for _, k := range runAxes(cells) {
		if k != cell.Mode {
			labelAxes = append(labelAxes, k)
		}
	}
	if len(labelAxes) == 0 {
		labelAxes = []string{cell.Path}
	}
	live := BarSet{Label: "max sustainable rate (live)", Style: 0}
	drain := BarSet{Label: "bounded drain", Style: 1}
	panel := Panel{Kind: BarPanel, XLabel: strings.Join(labelAxes, " "), YLabel: "records/s"}
	gaps := false
	for _, c := range cells {
		panel.Groups = append(panel.Groups, groupLabel(c, labelAxes))
		live.Values = append(live.Values, c.stat(results.UnitMaxRate))
		var st Stat
		if b := bounded[results.Setting(boundedTwin(c.dims))]; b != nil {
			st = b.stat(results.UnitRecPerSec)
		}
		gaps = gaps || st.N == 0
		drain.Values = append(drain.Values, st)
	}
	panel.Bars = []BarSet{live, drain}
	fig.Panels = []Panel{panel}
	fig.Legend = []LegendEntry{
		{Label: live.Label, Kind: LegendBar, Style: live.Style},
		{Label: drain.Label, Kind: LegendBar, Style: drain.Style},
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Bars: median of %s per cell; error bars span min–max. ", repCount(barStats(panel.Bars)))
	b.WriteString("Max sustainable rate: the highest producer rate a cell's live trials kept up with (lag and p99 within budget); bounded drain: the same cell reading a topic loaded before it opened.")
	if gaps {
		b.WriteString(" n/a: the run has no bounded twin of that cell.")
	}
	b.WriteString(held(heldSetting(cells)))
	fig.Caption = b.String()
	return fig
}

// boundedTwin is a maxrate cell's dims as its bounded twin names them:
// mode=bounded is the default, so the mode part is gone, and so is the
// linger, which only live and maxrate cells have.
func boundedTwin(dims map[string]string) map[string]string {
	twin := maps.Clone(dims)
	delete(twin, cell.Mode)
	delete(twin, cell.Linger)
	return twin
}

// groupLabel is a bar group's label: the values of keys, "path=fast" as
// just "fast" when the path is all that varies.
func groupLabel(c *cellData, keys []string) string {
	if len(keys) == 1 && keys[0] == cell.Path {
		return c.dims[cell.Path]
	}
	return shortName(c, keys)
}
