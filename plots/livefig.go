package plots

import (
	"fmt"
	"sort"
	"strings"

	"github.com/fastpathlab/fplab/cell"
	"github.com/fastpathlab/fplab/results"
)

// The live figures' file stems.
const (
	latencyFigureName = "latency-percentiles"
	lagFigureName     = "lag"
)

// liveFigures draws the live cells the analysis kept (Analysis.Live: the
// swept live cells' successful repetitions): their latency percentile
// curves and their lag over time. A run without live data gets both
// figures skipped, with the reason.
func liveFigures(a *results.Analysis, ds *dataset, opt Options, styles map[string]int) []Figure {
	lat := Figure{Name: latencyFigureName, Title: opt.title(latencyTitle)}
	lag := Figure{Name: lagFigureName, Title: opt.title(lagTitle)}
	if reason := liveSkip(a, ds); reason != "" {
		lat.Skip, lag.Skip = reason, reason
		return []Figure{lat, lag}
	}
	lay := newLiveLayout(a.Live, styles)
	return []Figure{latencyFigure(lat, lay), lagFigure(lag, lay)}
}

// liveSkip says why a run has no live figure, "" when it has one.
func liveSkip(a *results.Analysis, ds *dataset) string {
	switch {
	case a.LiveErr != nil:
		return "the live cells' files could not be read: " + a.LiveErr.Error()
	case a.Live != nil && len(a.Live.Cells) > 0:
		return ""
	}
	for _, c := range ds.cells {
		if m := c.dims[cell.Mode]; m == cell.ModeLive || m == cell.ModeMaxRate {
			return "no live cell with a successful repetition left a latency histogram in " + results.LiveDir + "/"
		}
	}
	return fmt.Sprintf("no live cells (mode=%s or %s) in this run", cell.ModeLive, cell.ModeMaxRate)
}

// liveLayout lays the live cells out for both live figures alike: the
// panels, and each cell's line label and style (one label, one style, in
// every panel and both figures).
type liveLayout struct {
	panels []livePanel
	// facet is set when the panels are one per rate.
	facet bool
	// labels are the distinct line labels, in cell order: the legend.
	labels []string
	style  map[string]int
	// held is what every live cell shares, named once by the caption.
	held map[string]string
}

type livePanel struct {
	title string
	cells []*liveCell
}

// liveCell is one live cell with its line's label.
type liveCell struct {
	data  *cellData
	live  *results.LiveCell
	label string
}

// newLiveLayout labels each line by the axes that vary among the live
// cells (shortName), by path when none does. When the rate varies along
// with another axis, and takes at most maxPanels values, each rate gets a
// panel of its own and the labels leave the rate (and the mode) out:
// latency and lag grow with the rate, and a panel each keeps the lines
// that compare at one rate apart from those that do not. A mode=maxrate
// cell has no rate part and shares a panel with the other maxrate cells.
// Lines labelled by path alone keep their path's colour.
func newLiveLayout(l *results.Live, styles map[string]int) *liveLayout {
	cells := make([]*liveCell, 0, len(l.Cells))
	for i := range l.Cells {
		c := &l.Cells[i]
		cells = append(cells, &liveCell{data: &cellData{name: c.Name, dims: cell.Dims(c.Name)}, live: c})
	}
	sort.SliceStable(cells, func(i, j int) bool { return cellLess(cells[i].data, cells[j].data) })
	data := make([]*cellData, len(cells))
	for i, c := range cells {
		data[i] = c.data
	}
	axes := runAxes(data)
	rates := axisValues(data, cell.Rate)
	lay := &liveLayout{style: make(map[string]int), held: heldSetting(data)}
	lay.facet = indexOf(axes, cell.Rate) >= 0 && len(axes) > 1 && len(rates) <= maxPanels
	labelAxes := axes
	if lay.facet {
		labelAxes = nil
		for _, k := range axes {
			if k != cell.Rate && k != cell.Mode {
				labelAxes = append(labelAxes, k)
			}
		}
	}
	if len(labelAxes) == 0 {
		labelAxes = []string{cell.Path}
	}
	byPath := len(labelAxes) == 1 && labelAxes[0] == cell.Path
	for _, c := range cells {
		c.label = shortName(c.data, labelAxes)
		if _, ok := lay.style[c.label]; ok {
			continue
		}
		lay.style[c.label] = setStyleOf(len(lay.labels))
		if byPath {
			lay.style[c.label] = styles[c.data.dims[cell.Path]]
		}
		lay.labels = append(lay.labels, c.label)
	}
	if !lay.facet {
		lay.panels = []livePanel{{cells: cells}}
		return lay
	}
	for _, r := range rates {
		pn := livePanel{title: "rate=" + r + " rec/s"}
		if r == cell.Default(cell.Rate) {
			pn.title = "mode=" + cell.ModeMaxRate + ", each at the highest rate it sustained"
		}
		for _, c := range cells {
			if axisValue(c.data, cell.Rate) == r {
				pn.cells = append(pn.cells, c)
			}
		}
		lay.panels = append(lay.panels, pn)
	}
	return lay
}

// legend is one curve entry per line label the panels draw, in label
// order.
func (lay *liveLayout) legend(panels []Panel) []LegendEntry {
	drawn := make(map[string]bool)
	for _, pn := range panels {
		for _, c := range pn.Curves {
			drawn[c.Label] = true
		}
	}
	out := make([]LegendEntry, 0, len(lay.labels))
	for _, l := range lay.labels {
		if drawn[l] {
			out = append(out, LegendEntry{Label: l, Kind: LegendCurve, Style: lay.style[l]})
		}
	}
	return out
}

// layoutCaption is the caption's account of the panels and what is held.
func (lay *liveLayout) layoutCaption() string {
	var b strings.Builder
	if lay.facet {
		b.WriteString(" One panel per rate (the records/s the producer writes).")
	}
	b.WriteString(held(lay.held))
	return b.String()
}

// liveRepCount says how many repetitions back the lines: "1 repetition",
// "3 repetitions" or "2–3 repetitions".
func liveRepCount(counts []int) string {
	lo, hi := 0, 0
	for _, n := range counts {
		if lo == 0 || n < lo {
			lo = n
		}
		hi = max(hi, n)
	}
	switch {
	case lo == hi && lo == 1:
		return "1 repetition"
	case lo == hi:
		return fmt.Sprintf("%d repetitions", lo)
	}
	return fmt.Sprintf("%d–%d repetitions", lo, hi)
}
