package plots

import (
	"fmt"

	"github.com/fastpathlab/fplab/results"
)

const latencyTitle = "End-to-end latency by percentile — live cells"

// latencyFloorMs is where a latency below the histogram's resolution
// (1 µs) is drawn: a log axis cannot place a zero.
const latencyFloorMs = 0.001

// logDecades is the y range, as a ratio of its ends, above which the
// latency axis is a log scale: more than two decades, where a linear axis
// flattens the median into the floor.
const logDecades = 100

// percentileXTicks label the percentile axis at 1/(1-q): 50% at 2, then
// every tenfold rarer percentile.
var percentileXTicks = []AxisTick{
	{Value: 2, Label: "50%"}, {Value: 10, Label: "90%"}, {Value: 100, Label: "99%"},
	{Value: 1e3, Label: "99.9%"}, {Value: 1e4, Label: "99.99%"}, {Value: 1e5, Label: "99.999%"},
	{Value: 1e6, Label: "99.9999%"}, {Value: 1e7, Label: "99.99999%"},
}

// latencyFigure is HdrHistogram's percentile plot of every live cell: x the
// percentile q at 1/(1-q) on a log scale (0% at 1, 99% at 100), y the
// latency at q, one line per cell from its merged histogram
// (results.LiveCell.Percentiles).
func latencyFigure(fig Figure, lay *liveLayout) Figure {
	var reps []int
	lo, hi := 0.0, 0.0
	type panelCurves struct {
		title  string
		curves []Curve
	}
	var panels []panelCurves
	for _, pn := range lay.panels {
		pc := panelCurves{title: pn.title}
		for _, c := range pn.cells {
			pts := latencyCurve(c.live.Percentiles, c.live.Count)
			if len(pts) == 0 {
				continue
			}
			for _, p := range pts {
				if lo == 0 || p.Y < lo {
					lo = p.Y
				}
				hi = max(hi, p.Y)
			}
			pc.curves = append(pc.curves, Curve{Label: c.label, Style: lay.style[c.label], Points: pts})
			reps = append(reps, len(c.live.Reps))
		}
		if len(pc.curves) > 0 {
			panels = append(panels, pc)
		}
	}
	if len(panels) == 0 {
		fig.Skip = "the live cells' histograms hold no latency"
		return fig
	}
	logY := hi/lo > logDecades
	yl := "latency (ms)"
	if logY {
		yl = "latency (ms, log scale)"
	}
	for _, pc := range panels {
		t := ""
		if lay.facet {
			t = pc.title
		}
		fig.Panels = append(fig.Panels, Panel{Kind: CurvePanel, Title: t,
			XLabel: "percentile (log scale of 1/(1−q))", YLabel: yl,
			LogX: true, LogY: logY, XTicks: percentileXTicks, Curves: pc.curves})
	}
	fig.Legend = lay.legend(fig.Panels)
	fig.Caption = fmt.Sprintf("Each line is one live cell's end-to-end latency (intended send time to hand-over) at every percentile of its measured records, "+
		"from the HdrHistogram of its %s merged: the percentiles of all their records, not an average of each repetition's. "+
		"The percentile axis is 1/(1−q) on a log scale, each label ten times rarer than the one before; a line ends at its maximum.",
		liveRepCount(reps)) + lay.layoutCaption()
	return fig
}

// latencyCurve places a percentile curve of count latencies: percentile q
// at x = 1/(1-q), the maximum (q = 100) at x = count, the rank of the
// largest latency (or at the last x when that is further right), and each
// latency no lower than latencyFloorMs.
func latencyCurve(pcts []results.PercentilePoint, count int64) []XY {
	pts := make([]XY, 0, len(pcts))
	last := 1.0
	for _, p := range pcts {
		x := float64(count)
		if p.Percentile < 100 {
			x = 1 / (1 - p.Percentile/100)
		}
		x = max(x, last)
		last = x
		pts = append(pts, XY{X: x, Y: max(p.Ms, latencyFloorMs)})
	}
	return pts
}
