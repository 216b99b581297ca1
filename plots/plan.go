package plots

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/fastpathlab/fplab/cell"
	"github.com/fastpathlab/fplab/results"
	"github.com/fastpathlab/fplab/results/texttab"
)

// Plan builds, from a run's analysis (results.Analyze), every figure
// WriteAll draws: the overview of every cell, one figure per axis that
// takes two or more values, then per format throughput vs batch size, the
// checkpoint trade-off (with the analysis's knee and budget), and the
// allocator, CRC and broker-count comparisons, and last the live cells'
// latency percentiles and lag (Analysis.Live) and their p99 against batch
// size (with Analysis.LatencyKnee and its budget), and each maxrate
// cell's sustained rate beside its bounded twin's rec/s. It draws the swept cells
// as the analysis counted them and computes nothing the analysis holds.
// It is pure data (no rendering); a figure without data carries a Skip
// reason instead of panels.
func Plan(a *results.Analysis, opt Options) ([]Figure, error) {
	opt, err := opt.withDefaults()
	if err != nil {
		return nil, err
	}
	ds := newDataset(a.Sweep.Cells())
	styles := pathStyles(ds.cells)
	figs := overviewFigures(ds, opt, styles)
	figs = append(figs, axisFigures(ds, opt, styles)...)
	live := append(liveFigures(a, ds, opt, styles), latencyBatchFigure(a, ds, opt, styles), maxRateFigure(ds, opt))
	formats := values(ds.cells, cell.Format)
	if len(formats) == 0 {
		figs = append(figs, Figure{Name: "throughput", Title: opt.title("Throughput vs batch size"), Skip: "no cells with a format in the journal"})
		return append(figs, live...), nil
	}
	for _, f := range formats {
		figs = append(figs, throughputFigure(ds, f, opt, styles), tradeoffFigure(ds, f, opt, styles, a.Knee, a.BudgetMs))
		for _, d := range compareDims {
			figs = append(figs, compareFigure(ds, f, d, opt))
		}
	}
	return append(figs, live...), nil
}

func (o Options) title(s string) string {
	if o.Emulated {
		return s + "\n" + EmulatedLabel
	}
	return s
}

func throughputFigure(ds *dataset, format string, opt Options, styles map[string]int) Figure {
	fig := Figure{
		Name:  "throughput-" + safeName(format),
		Title: opt.title("Throughput vs batch size — format=" + format),
	}
	sel, ok := selectCells(ds.cells, map[string]string{cell.Format: format}, []string{cell.Path, cell.Batch}, results.UnitRecPerSec, opt.Prefer)
	if !ok {
		fig.Skip = "no " + results.UnitRecPerSec + " samples"
		return fig
	}
	lines, xs := lineSeries(sel.cells, results.UnitRecPerSec, styles)
	if reason := needBatches(xs); reason != "" {
		fig.Skip = reason
		return fig
	}
	fig.Caption = lineCaption(lines, sel.held)
	fig.Panels = []Panel{{
		Kind: LinePanel, XLabel: batchLabel(xs), YLabel: "throughput (rec/s)",
		LogX: logX(xs), Lines: lines,
	}}
	fig.Legend = lineLegend(lines)
	return fig
}

func tradeoffFigure(ds *dataset, format string, opt Options, styles map[string]int, knees []results.KneePoint, budget float64) Figure {
	fig := Figure{
		Name:  "tradeoff-" + safeName(format),
		Title: opt.title("Checkpoint trade-off vs batch size — format=" + format),
	}
	sel, ok := selectCells(ds.cells, map[string]string{cell.Format: format}, []string{cell.Path, cell.Batch}, results.UnitCkptP99, opt.Prefer)
	if !ok {
		fig.Skip = "no " + results.UnitCkptP99 + " samples (checkpoints off in this run?)"
		return fig
	}
	// Every panel draws all cells of the chosen setting, so a cell that
	// lacks checkpoint figures still shows its throughput.
	cells := cellsMatching(ds.cells, sel.held, map[string]string{cell.Format: format})
	p99, xs := lineSeries(cells, results.UnitCkptP99, styles)
	if reason := needBatches(xs); reason != "" {
		fig.Skip = reason
		return fig
	}
	rate, _ := lineSeries(cells, results.UnitRecPerSec, styles)
	replay, _ := lineSeries(cells, results.UnitReplayRec, styles)
	setting := results.Setting(sel.held)
	var rateMarks, p99Marks []Mark
	var none []string
	for _, k := range knees {
		if k.Format != format || k.Setting != setting || k.Candidates == 0 {
			continue
		}
		if !k.Found {
			none = append(none, k.Path)
			continue
		}
		label := "knee " + strconv.Itoa(k.Batch)
		rateMarks = append(rateMarks, Mark{X: float64(k.Batch), Y: k.RecPerSec, Style: styles[k.Path], Label: label})
		p99Marks = append(p99Marks, Mark{X: float64(k.Batch), Y: k.CkptP99Ms, Style: styles[k.Path], Label: label})
	}
	logx, xl := logX(xs), batchLabel(xs)
	if len(rate) > 0 {
		fig.Panels = append(fig.Panels, Panel{Kind: LinePanel, Title: "steady-state throughput",
			XLabel: xl, YLabel: "throughput (rec/s)", LogX: logx, Lines: rate, Marks: rateMarks})
	}
	fig.Panels = append(fig.Panels, Panel{Kind: LinePanel, Title: "checkpoint duration p99",
		XLabel: xl, YLabel: "ckpt p99 (ms)", LogX: logx, Lines: p99, BudgetY: budget, Marks: p99Marks})
	if len(replay) > 0 {
		fig.Panels = append(fig.Panels, Panel{Kind: LinePanel, Title: "replay after an injected failure",
			XLabel: xl, YLabel: "replayed records (rec)", LogX: logx, Lines: replay})
	}
	var b strings.Builder
	b.WriteString(lineCaption(p99, sel.held))
	fmt.Fprintf(&b, " Knee (ringed): the batch with the highest median throughput whose median ckpt p99 is within %s ms.", texttab.Compact(budget))
	if len(none) > 0 {
		fmt.Fprintf(&b, " None within budget: %s.", strings.Join(none, ", "))
	}
	if len(replay) == 0 {
		b.WriteString(" No replay-rec samples (no failures injected).")
	}
	fig.Caption = b.String()
	fig.Legend = lineLegend(p99)
	fig.Legend = append(fig.Legend, LegendEntry{Label: "budget " + texttab.Compact(budget) + " ms", Kind: LegendBudget})
	if len(p99Marks) > 0 {
		fig.Legend = append(fig.Legend, LegendEntry{Label: "knee", Kind: LegendMark})
	}
	return fig
}

// compareDim is a dimension a bar chart compares within each path.
type compareDim struct {
	key, name, what string
}

var compareDims = []compareDim{
	{cell.Alloc, "alloc", "Allocator comparison"},
	{cell.CRC, "crc", "CRC check comparison"},
	{cell.Brokers, "brokers", "Broker-count comparison"},
}

func compareFigure(ds *dataset, format string, d compareDim, opt Options) Figure {
	fig := Figure{
		Name:  d.name + "-" + safeName(format),
		Title: opt.title(d.what + " — format=" + format),
	}
	sel, ok := selectCells(ds.cells, map[string]string{cell.Format: format}, []string{cell.Path, d.key}, results.UnitRecPerSec, opt.Prefer)
	if !ok {
		fig.Skip = "no " + results.UnitRecPerSec + " samples"
		return fig
	}
	vals := values(sel.cells, d.key)
	if len(vals) == 0 {
		fig.Skip = fmt.Sprintf("no cell name has a part %s=", d.key)
		return fig
	}
	if len(vals) < 2 {
		fig.Skip = fmt.Sprintf("%s takes one value (%s) in this run", d.key, strings.Join(vals, ""))
		return fig
	}
	groups := values(sel.cells, cell.Path)
	at := make(map[[2]string]Stat)
	for _, c := range sel.cells {
		at[[2]string{c.dims[cell.Path], c.dims[d.key]}] = c.stat(results.UnitRecPerSec)
	}
	panel := Panel{Kind: BarPanel, XLabel: "consume path", YLabel: "throughput (rec/s)", Groups: groups}
	gaps := false
	for i, v := range vals {
		set := BarSet{Label: d.key + "=" + v, Style: i}
		for _, g := range groups {
			st := at[[2]string{g, v}]
			gaps = gaps || st.N == 0
			set.Values = append(set.Values, st)
		}
		panel.Bars = append(panel.Bars, set)
		fig.Legend = append(fig.Legend, LegendEntry{Label: set.Label, Kind: LegendBar, Style: i})
	}
	fig.Panels = []Panel{panel}
	fig.Caption = fmt.Sprintf("Bars: median throughput of %s per cell; error bars span min–max.", repCount(barStats(panel.Bars)))
	if gaps {
		fig.Caption += " n/a: no successful repetition of that cell (failed or not in the run)."
	}
	fig.Caption += held(sel.held)
	return fig
}

// lineSeries builds one series per path from cells, x = batch size, y = the
// summary of unit. Cells without a positive batch or without samples of
// unit are left out. xs are the distinct batch sizes drawn, ascending.
func lineSeries(cells []*cellData, unit string, styles map[string]int) ([]Series, []float64) {
	byPath := make(map[string]*Series)
	seenX := make(map[float64]bool)
	var xs []float64
	for _, c := range cells {
		b, err := strconv.Atoi(c.dims[cell.Batch])
		if err != nil || b <= 0 || !c.has(unit) {
			continue
		}
		p := c.dims[cell.Path]
		s := byPath[p]
		if s == nil {
			s = &Series{Label: p, Style: styles[p]}
			byPath[p] = s
		}
		s.Points = append(s.Points, Point{X: float64(b), Stat: c.stat(unit)})
		if !seenX[float64(b)] {
			seenX[float64(b)] = true
			xs = append(xs, float64(b))
		}
	}
	paths := make([]string, 0, len(byPath))
	for p := range byPath {
		paths = append(paths, p)
	}
	sortValues(cell.Path, paths)
	out := make([]Series, 0, len(paths))
	for _, p := range paths {
		s := byPath[p]
		sortPoints(s.Points)
		out = append(out, *s)
	}
	sortFloats(xs)
	return out, xs
}

func needBatches(xs []float64) string {
	switch len(xs) {
	case 0:
		return "no cell with a batch size"
	case 1:
		return "one batch size only (" + texttab.Compact(xs[0]) + "); see the tables"
	}
	return ""
}

func logX(xs []float64) bool {
	return len(xs) > 1 && xs[0] > 0 && xs[len(xs)-1]/xs[0] >= 10
}

func batchLabel(xs []float64) string {
	if logX(xs) {
		return "batch size (records, log scale)"
	}
	return "batch size (records)"
}

func lineCaption(lines []Series, heldDims map[string]string) string {
	var all []Stat
	for _, s := range lines {
		for _, p := range s.Points {
			all = append(all, p.Stat)
		}
	}
	return fmt.Sprintf("Points: median of %s; error bars span min–max.", repCount(all)) + held(heldDims)
}

func held(dims map[string]string) string {
	if len(dims) == 0 {
		return ""
	}
	return " Held: " + results.Setting(dims) + "."
}

// repCount describes how many repetitions back each point: "3 repetitions"
// or "2–3 repetitions".
func repCount(stats []Stat) string {
	lo, hi := 0, 0
	for _, s := range stats {
		if s.N == 0 {
			continue
		}
		if lo == 0 || s.N < lo {
			lo = s.N
		}
		hi = max(hi, s.N)
	}
	switch {
	case lo == hi && lo == 1:
		return "1 repetition (no spread)"
	case lo == hi:
		return fmt.Sprintf("%d repetitions", lo)
	}
	return fmt.Sprintf("%d–%d repetitions", lo, hi)
}

func barStats(sets []BarSet) []Stat {
	var out []Stat
	for _, s := range sets {
		out = append(out, s.Values...)
	}
	return out
}

func lineLegend(lines []Series) []LegendEntry {
	out := make([]LegendEntry, 0, len(lines))
	for _, s := range lines {
		out = append(out, LegendEntry{Label: s.Label, Kind: LegendLine, Style: s.Style})
	}
	return out
}

// pathStyles gives every path a fixed palette index: the known paths their
// rank, others the next indices in name order.
func pathStyles(cells []*cellData) map[string]int {
	styles := make(map[string]int)
	next := len(cell.Paths())
	for _, p := range values(cells, cell.Path) {
		if r, ok := cell.PathRank(p); ok {
			styles[p] = r
		} else {
			styles[p] = next
			next++
		}
	}
	return styles
}

// safeName keeps a dimension value usable in a file name.
func safeName(s string) string {
	if s == "" {
		return "_"
	}
	return results.FileSafe(s)
}
