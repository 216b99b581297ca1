package plots

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/fastpathlab/fplab/cell"
	"github.com/fastpathlab/fplab/results"
	"github.com/fastpathlab/fplab/results/texttab"
)

// latencyBatchFigureName is the file stem of the live cells' p99 against
// batch size.
const latencyBatchFigureName = "latency-batch"

const latencyBatchTitle = "End-to-end p99 vs batch size — live cells"

// latencyBatchFigure draws the swept mode=live cells' median e2e-p99-ms
// against their batch size, with the latency budget as a dashed line and
// each line's latency knee (Analysis.LatencyKnee under
// Analysis.LatencyBudgetMs) ringed: the largest batch the budget allows at
// that rate. Lines and panels follow the other live figures
// (newLiveLayout): each line is labelled by the axes that vary among the
// live cells, the batch aside (by path when nothing else varies); when the
// rate varies along with another of them, and takes at most maxPanels
// values, each rate gets a panel. The y axis is a log scale when the
// values (the budget included) span more than logDecades, as on the
// latency-percentiles figure.
// It is skipped when the run has no live cell with e2e-p99-ms samples or
// they were run at one batch size.
func latencyBatchFigure(a *results.Analysis, ds *dataset, opt Options, styles map[string]int) Figure {
	fig := Figure{Name: latencyBatchFigureName, Title: opt.title(latencyBatchTitle)}
	var live, cells []*cellData
	for _, c := range ds.cells {
		if c.dims[cell.Mode] != cell.ModeLive {
			continue
		}
		live = append(live, c)
		if b, err := strconv.Atoi(c.dims[cell.Batch]); err == nil && b > 0 && c.has(results.UnitE2EP99Ms) {
			cells = append(cells, c)
		}
	}
	switch {
	case len(live) == 0:
		fig.Skip = fmt.Sprintf("no live cells (mode=%s) in this run", cell.ModeLive)
		return fig
	case len(cells) == 0:
		fig.Skip = "no live cell has " + results.UnitE2EP99Ms + " samples"
		return fig
	}
	_, xs := lineSeries(cells, results.UnitE2EP99Ms, styles)
	if reason := needBatches(xs); reason != "" {
		fig.Skip = reason
		return fig
	}
	lay := newBatchLayout(cells, styles)
	knees := make(map[string]results.LatencyKneePoint, len(a.LatencyKnee))
	for _, k := range a.LatencyKnee {
		knees[kneeKey(k.Format, k.Path, k.Setting)] = k
	}
	budget := a.LatencyBudgetMs
	lo, hi := budget, budget
	var stats []Stat
	var none []string
	for _, pn := range lay.panels {
		panel := Panel{Kind: LinePanel, XLabel: batchLabel(xs), LogX: logX(xs), BudgetY: budget}
		if lay.facet {
			panel.Title = pn.title
		}
		for _, l := range pn.lines {
			s := Series{Label: l.label, Style: lay.style[l.label]}
			for _, c := range l.cells {
				b, _ := strconv.Atoi(c.dims[cell.Batch])
				st := c.stat(results.UnitE2EP99Ms)
				s.Points = append(s.Points, Point{X: float64(b), Stat: st})
				stats = append(stats, st)
				lo, hi = min(lo, st.Min), max(hi, st.Max)
			}
			sortPoints(s.Points)
			panel.Lines = append(panel.Lines, s)
			c := l.cells[0]
			k, ok := knees[kneeKey(c.dims[cell.Format], c.dims[cell.Path], results.KneeSetting(c.dims))]
			switch {
			case ok && k.Found:
				panel.Marks = append(panel.Marks, Mark{X: float64(k.Batch), Y: k.E2EP99Ms, Style: s.Style, Label: "knee " + strconv.Itoa(k.Batch)})
			case ok && k.Candidates > 0:
				none = append(none, strings.TrimSpace(l.label+" "+pn.title))
			}
		}
		fig.Panels = append(fig.Panels, panel)
	}
	logY := lo > 0 && hi/lo > logDecades
	for i := range fig.Panels {
		fig.Panels[i].LogY = logY
		fig.Panels[i].YLabel = "e2e p99 (ms)"
		if logY {
			fig.Panels[i].YLabel = "e2e p99 (ms, log scale)"
		}
	}
	fig.Legend = lay.legend()
	fig.Legend = append(fig.Legend, LegendEntry{Label: "budget " + texttab.Compact(budget) + " ms", Kind: LegendBudget})
	marked := false
	for _, pn := range fig.Panels {
		marked = marked || len(pn.Marks) > 0
	}
	if marked {
		fig.Legend = append(fig.Legend, LegendEntry{Label: "knee", Kind: LegendMark})
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Points: median e2e p99 of %s; error bars span min–max. ", repCount(stats))
	fmt.Fprintf(&b, "Knee (ringed): the largest batch whose median p99 is within the latency budget of %s ms (dashed).", texttab.Compact(budget))
	if len(none) > 0 {
		fmt.Fprintf(&b, " None within budget: %s.", strings.Join(none, "; "))
	}
	if lay.facet {
		b.WriteString(" One panel per rate (the records/s the producer writes).")
	}
	b.WriteString(held(lay.held))
	fig.Caption = b.String()
	return fig
}

// kneeKey names a knee's line: format, path and setting.
func kneeKey(format, path, setting string) string {
	return format + "\x00" + path + "\x00" + setting
}

// batchLayout lays out the latency-batch figure as newLiveLayout lays out
// the other live figures, with lines across batch sizes instead of one per
// cell.
type batchLayout struct {
	panels []batchPanel
	facet  bool
	// labels are the distinct line labels in cell order: the legend.
	labels []string
	style  map[string]int
	held   map[string]string
}

type batchPanel struct {
	title string
	lines []*batchLine
}

// batchLine is one line: the cells of one label in one panel, one per
// batch size.
type batchLine struct {
	label string
	cells []*cellData
}

func newBatchLayout(cells []*cellData, styles map[string]int) *batchLayout {
	cells = append([]*cellData(nil), cells...)
	sort.SliceStable(cells, func(i, j int) bool { return cellLess(cells[i], cells[j]) })
	var lineAxes []string
	for _, k := range runAxes(cells) {
		if k != cell.Batch && k != cell.Mode {
			lineAxes = append(lineAxes, k)
		}
	}
	rates := axisValues(cells, cell.Rate)
	lay := &batchLayout{style: make(map[string]int), held: heldSetting(cells)}
	lay.facet = indexOf(lineAxes, cell.Rate) >= 0 && len(lineAxes) > 1 && len(rates) <= maxPanels
	labelAxes := lineAxes
	if lay.facet {
		labelAxes = nil
		for _, k := range lineAxes {
			if k != cell.Rate {
				labelAxes = append(labelAxes, k)
			}
		}
	}
	if len(labelAxes) == 0 {
		labelAxes = []string{cell.Path}
	}
	byPath := len(labelAxes) == 1 && labelAxes[0] == cell.Path
	for _, c := range cells {
		l := shortName(c, labelAxes)
		if _, ok := lay.style[l]; ok {
			continue
		}
		lay.style[l] = setStyleOf(len(lay.labels))
		if byPath {
			lay.style[l] = styles[c.dims[cell.Path]]
		}
		lay.labels = append(lay.labels, l)
	}
	groups := []string{""}
	if lay.facet {
		groups = rates
	}
	for _, r := range groups {
		pn := batchPanel{}
		if lay.facet {
			pn.title = "rate=" + r + " rec/s"
		}
		byLabel := make(map[string]*batchLine)
		for _, c := range cells {
			if lay.facet && axisValue(c, cell.Rate) != r {
				continue
			}
			l := shortName(c, labelAxes)
			bl := byLabel[l]
			if bl == nil {
				bl = &batchLine{label: l}
				byLabel[l] = bl
			}
			bl.cells = append(bl.cells, c)
		}
		for _, l := range lay.labels {
			if bl := byLabel[l]; bl != nil {
				pn.lines = append(pn.lines, bl)
			}
		}
		lay.panels = append(lay.panels, pn)
	}
	return lay
}

// legend is one line entry per label, in label order.
func (lay *batchLayout) legend() []LegendEntry {
	out := make([]LegendEntry, 0, len(lay.labels))
	for _, l := range lay.labels {
		out = append(out, LegendEntry{Label: l, Kind: LegendLine, Style: lay.style[l]})
	}
	return out
}
