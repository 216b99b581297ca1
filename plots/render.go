package plots

import (
	"bytes"
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// Render draws a figure as "png" or "svg" and returns the encoded image.
// A skipped figure, one without panels or an unknown format is an error.
func Render(fig Figure, format string) ([]byte, error) {
	if fig.Skip != "" {
		return nil, fmt.Errorf("figure %s is skipped: %s", fig.Name, fig.Skip)
	}
	if len(fig.Panels) == 0 {
		return nil, fmt.Errorf("figure %s has no panels", fig.Name)
	}
	width, panelH := figureSize(fig)
	hdr := newHeader(fig, width-3*figMargin-vg.Points(12))
	height := hdr.height + vg.Length(len(fig.Panels))*panelH
	var cw vg.CanvasWriterTo
	switch format {
	case "png":
		cw = vgimg.PngCanvas{Canvas: vgimg.NewWith(vgimg.UseWH(width, height), vgimg.UseDPI(dpi))}
	case "svg":
		cw = vgsvg.New(width, height)
	default:
		return nil, fmt.Errorf("unknown image format %q (want png or svg)", format)
	}
	dc := draw.New(cw)
	dc.SetColor(color.White)
	dc.Fill(dc.Rectangle.Path())
	hdr.draw(dc)

	body := dc
	body.Max.Y -= hdr.height
	rows := make([][]*plot.Plot, len(fig.Panels))
	for i, pn := range fig.Panels {
		rows[i] = []*plot.Plot{buildPanel(pn)}
	}
	tiles := draw.Tiles{Rows: len(rows), Cols: 1, PadY: vg.Points(14), PadLeft: vg.Points(6),
		PadRight: vg.Points(14), PadBottom: vg.Points(6)}
	for i, cs := range plot.Align(rows, tiles, body) {
		rows[i][0].Draw(cs[0])
	}
	var buf bytes.Buffer
	if _, err := cw.WriteTo(&buf); err != nil {
		return nil, fmt.Errorf("encode %s as %s: %w", fig.Name, format, err)
	}
	return buf.Bytes(), nil
}

// figureSize is the image width and the height of each panel. A row or
// ratio panel is as tall as its rows need and widens so that long labels
// leave the data area at least rowDataWidth; a figure of more than two panels has
// shorter dot and curve panels, so a faceted figure stays within a screen
// or two.
func figureSize(fig Figure) (width, panelH vg.Length) {
	width, panelH = figWidth, panelHeight
	if k := fig.Panels[0].Kind; len(fig.Panels) > 2 && (k == DotPanel || k == CurvePanel) {
		panelH = shortPanelHeight
	}
	rowsH := vg.Length(0)
	for _, pn := range fig.Panels {
		var labels []string
		switch pn.Kind {
		case RowPanel:
			for _, r := range pn.Rows {
				labels = append(labels, r.Label)
			}
		case RatioPanel:
			for _, r := range pn.Ratios {
				labels = append(labels, r.Label)
			}
		default:
			continue
		}
		sty := textStyle(rowFont, markColor)
		var label vg.Length
		for _, l := range labels {
			label = max(label, sty.Width(l))
		}
		width = max(width, label+rowDataWidth)
		rowsH = max(rowsH, rowMinHeight, vg.Length(len(labels))*rowPitch+rowAxisRoom)
	}
	if rowsH > 0 {
		panelH = rowsH
	}
	return width, panelH
}

// buildPanel turns one Panel into a gonum plot of the lab's plotters.
func buildPanel(pn Panel) *plot.Plot {
	p := plot.New()
	p.Title.Text = pn.Title
	p.Title.TextStyle.Font.Size = vg.Points(10)
	p.X.Label.Text, p.Y.Label.Text = pn.XLabel, pn.YLabel
	p.Add(plotter.NewGrid())
	switch pn.Kind {
	case BarPanel:
		addBars(p, pn)
	case DotPanel:
		addDots(p, pn)
	case RowPanel:
		addRows(p, pn)
		return p
	case CurvePanel:
		addCurves(p, pn)
		return p
	case RatioPanel:
		addRatios(p, pn)
		return p
	default:
		if addLines(p, pn) {
			return p
		}
	}
	p.Y.Tick.Marker = siTicks{}
	if p.Y.Min >= 0 {
		p.Y.Min = 0
	}
	if !(p.Y.Max > p.Y.Min) {
		p.Y.Max = p.Y.Min + 1
	}
	p.Y.Max += 0.1 * (p.Y.Max - p.Y.Min) // headroom for whisker caps and knee labels
	return p
}

// addLines lays out a line panel: its series, budget line and marks over
// the batch axis. When LogY is set and every y is positive it draws the y
// axis as addCurves draws a log axis (the log10 of the values on a linear
// scale, labelled with the values), lays out that axis itself and reports
// true; otherwise buildPanel lays out a linear y axis from zero.
func addLines(p *plot.Plot, pn Panel) (logY bool) {
	budget := pn.BudgetY > 0
	if pn.LogY && linesPositive(pn) {
		pn, logY = log10Lines(pn), true
	}
	seen := make(map[float64]bool)
	var xs []float64
	for _, s := range pn.Lines {
		p.Add(rangeLine{s: s})
		for _, pt := range s.Points {
			if !seen[pt.X] {
				seen[pt.X] = true
				xs = append(xs, pt.X)
			}
		}
	}
	if budget {
		p.Add(budgetLine{y: pn.BudgetY})
	}
	if len(pn.Marks) > 0 {
		p.Add(markSet{marks: pn.Marks})
	}
	if logY {
		p.Y.Tick.Marker = log10Ticks{}
		pad := math.Log10(1.5)
		p.Y.Min, p.Y.Max = p.Y.Min-pad, p.Y.Max+pad
	}
	sortFloats(xs)
	p.X.Tick.Marker = batchTicks{xs: xs}
	if len(xs) == 0 {
		return logY
	}
	lo, hi := xs[0], xs[len(xs)-1]
	if pn.LogX && lo > 0 {
		p.X.Scale = plot.LogScale{}
		p.X.Min, p.X.Max = lo/1.3, hi*1.3
		return logY
	}
	pad := 0.05 * (hi - lo)
	if pad == 0 {
		pad = 1
	}
	p.X.Min, p.X.Max = lo-pad, hi+pad
	return logY
}

// linesPositive reports whether a line panel's every y (medians, minima,
// maxima, the budget and the marks) is positive: a log axis can place
// them all.
func linesPositive(pn Panel) bool {
	for _, s := range pn.Lines {
		for _, pt := range s.Points {
			if !(pt.Min > 0 && pt.Median > 0) {
				return false
			}
		}
	}
	for _, m := range pn.Marks {
		if !(m.Y > 0) {
			return false
		}
	}
	return pn.BudgetY >= 0
}

// log10Lines is pn with every y of its series, budget and marks replaced
// by its log10; the x values stay.
func log10Lines(pn Panel) Panel {
	lines := make([]Series, len(pn.Lines))
	for i, s := range pn.Lines {
		pts := make([]Point, len(s.Points))
		for j, pt := range s.Points {
			pts[j] = pt
			pts[j].Median, pts[j].Min, pts[j].Max = math.Log10(pt.Median), math.Log10(pt.Min), math.Log10(pt.Max)
		}
		s.Points = pts
		lines[i] = s
	}
	marks := make([]Mark, len(pn.Marks))
	for i, m := range pn.Marks {
		marks[i] = m
		marks[i].Y = math.Log10(m.Y)
	}
	pn.Lines, pn.Marks = lines, marks
	if pn.BudgetY > 0 {
		pn.BudgetY = math.Log10(pn.BudgetY)
	}
	return pn
}

func addBars(p *plot.Plot, pn Panel) {
	if len(pn.Groups) == 0 {
		return
	}
	n := len(pn.Bars)
	width := vg.Points(28)
	if n > 0 {
		if w := (figWidth * 0.7 / vg.Length(len(pn.Groups))) / vg.Length(n); w < width {
			width = w
		}
	}
	for i, b := range pn.Bars {
		off := (vg.Length(i) - vg.Length(n-1)/2) * width
		p.Add(barSet{b: b, width: width, offset: off})
	}
	p.NominalX(pn.Groups...)
	p.X.Min, p.X.Max = -0.5, float64(len(pn.Groups))-0.5
}

func addDots(p *plot.Plot, pn Panel) {
	if len(pn.Groups) == 0 {
		return
	}
	p.Add(dotGroups{groups: pn.Groups, sets: pn.Dots, notes: pn.Notes})
	p.NominalX(pn.Groups...)
	p.X.Min, p.X.Max = -0.5, float64(len(pn.Groups))-0.5
}

// addRows lays out a row panel: cell labels as the y ticks, rec/s along x
// from zero.
// nominalRows makes p's Y axis one labelled row per label, top to
// bottom as the labels are given, in the row font: the rows panel's and
// the ratio panel's axis.
func nominalRows(p *plot.Plot, labels []string) {
	p.Y.Tick.Label.Font.Size = rowFont
	p.NominalY(labels...)
	p.Y.Min, p.Y.Max = -0.6, float64(len(labels))-0.4
}

func addRows(p *plot.Plot, pn Panel) {
	if len(pn.Rows) == 0 {
		return
	}
	rs := rowSet{rows: pn.Rows}
	p.Add(rs)
	labels := make([]string, len(pn.Rows))
	for i, r := range pn.Rows {
		labels[int(rs.y(i))] = r.Label
	}
	nominalRows(p, labels)
	p.X.Tick.Marker = siTicks{}
	p.X.Min = 0
	if !(p.X.Max > 0) {
		p.X.Max = 1
	}
	p.X.Max *= 1.08 // room for the widest interval's cap
}

// addCurves lays out a curve panel: each curve a plain line, the x axis
// over the data (log scale when LogX, labelled at XTicks when given), the
// y axis from zero or, when LogY, over the data on a log scale. A log axis
// holds the log10 of the values on a linear scale, labelled with the
// values: gonum's LogScale places a centred axis label by the arithmetic
// middle of the range, which on a log axis sits near its top end and
// squeezes the data area. A log axis whose data is not all positive is
// drawn linear: a log scale cannot place zero.
func addCurves(p *plot.Plot, pn Panel) {
	xmin, xmax := math.Inf(1), math.Inf(-1)
	ymin, ymax := math.Inf(1), math.Inf(-1)
	for _, c := range pn.Curves {
		for _, pt := range c.Points {
			xmin, xmax = math.Min(xmin, pt.X), math.Max(xmax, pt.X)
			ymin, ymax = math.Min(ymin, pt.Y), math.Max(ymax, pt.Y)
		}
	}
	if xmin > xmax {
		return
	}
	logX, logY := pn.LogX && xmin > 0, pn.LogY && ymin > 0
	for _, c := range pn.Curves {
		pts := make([]XY, len(c.Points))
		for i, pt := range c.Points {
			pts[i] = pt
			if logX {
				pts[i].X = math.Log10(pt.X)
			}
			if logY {
				pts[i].Y = math.Log10(pt.Y)
			}
		}
		c.Points = pts
		p.Add(curveLine{c: c})
	}
	switch {
	case len(pn.XTicks) > 0:
		ticks := fixedTicks(pn.XTicks)
		if logX {
			ticks = ticks.log10()
		}
		p.X.Tick.Marker = ticks
	case logX:
		p.X.Tick.Marker = log10Ticks{}
	default:
		p.X.Tick.Marker = plainTicks{}
	}
	if logX {
		p.X.Min, p.X.Max = math.Log10(xmin), math.Log10(xmax*1.3)
	} else {
		p.X.Min, p.X.Max = xmin, xmax
	}
	if pn.StartX > 0 && !logX {
		p.Add(startLine{x: pn.StartX})
		p.X.Min, p.X.Max = math.Min(p.X.Min, pn.StartX), math.Max(p.X.Max, pn.StartX)
	}
	if !(p.X.Max > p.X.Min) {
		p.X.Max = p.X.Min + 1
	}
	if logY {
		p.Y.Tick.Marker = log10Ticks{}
		p.Y.Min, p.Y.Max = math.Log10(ymin/1.5), math.Log10(ymax*1.5)
		return
	}
	p.Y.Tick.Marker = plainTicks{}
	p.Y.Min, p.Y.Max = math.Min(0, ymin), ymax
	if !(p.Y.Max > p.Y.Min) {
		p.Y.Max = p.Y.Min + 1
	}
	p.Y.Max += 0.05 * (p.Y.Max - p.Y.Min)
}
