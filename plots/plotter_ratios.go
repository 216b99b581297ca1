package plots

import (
	"image/color"
	"math"
	"slices"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// A ratio panel's colours: a resolved row in the neutral blue, an
// unresolved one grey, the floor band a translucent grey that lets the
// grid through, the line at 1 near black.
var (
	ratioColor = palette[neutralStyle]
	floorColor = color.NRGBA{0x99, 0x99, 0x99, 0x48}
	oneColor   = color.NRGBA{0x33, 0x33, 0x33, 0xFF}
)

// addRatios lays out a ratio panel: row labels as the y ticks (the first
// row on top), the ratios along x over the rows' values, 1 and their
// bands. With LogX the axis holds the log10 of the ratios on a linear
// scale, labelled with the ratios, as addCurves draws a log axis.
func addRatios(p *plot.Plot, pn Panel) {
	if len(pn.Ratios) == 0 {
		return
	}
	rs := ratioSet{rows: pn.Ratios, log: pn.LogX}
	p.Add(rs)
	labels := make([]string, len(pn.Ratios))
	for i, r := range pn.Ratios {
		labels[int(rs.y(i))] = r.Label
	}
	nominalRows(p, labels)
	lo, hi := ratioRange(pn.Ratios)
	if rs.log {
		pad := math.Log10(1.15)
		p.X.Min, p.X.Max = math.Log10(lo)-pad, math.Log10(hi)+pad
	} else {
		pad := 0.06 * (hi - lo)
		p.X.Min, p.X.Max = lo-pad, hi+pad
	}
	p.X.Tick.Marker = ratioTicks{log: rs.log}
}

// ratioRange is the span a ratio panel shows: 1, every ratio, interval
// and band end (a band's lower end only when it is above 0).
func ratioRange(rows []RatioRow) (lo, hi float64) {
	lo, hi = 1, 1
	for _, r := range rows {
		lo, hi = math.Min(lo, r.Ratio), math.Max(hi, r.Ratio)
		if r.HasInterval() {
			lo, hi = math.Min(lo, r.Lo), math.Max(hi, r.Hi)
		}
		if r.Floor > 0 {
			hi = math.Max(hi, 1+r.Floor)
			if r.Floor < 1 {
				lo = math.Min(lo, 1-r.Floor)
			}
		}
	}
	return lo, hi
}

// ratioSpan is how many times the largest value a ratio panel of rows
// shows is the smallest: HeadlineFigure puts the axis on a log scale
// above logRatioSpan.
func ratioSpan(rows []RatioRow) float64 {
	lo, hi := ratioRange(rows)
	return hi / lo
}

// ratioSet draws a ratio panel: row i at y = len-1-i, first the bands of
// the rows with a floor (a row's slot, the top and bottom rows' to the
// edge), then the line at 1, then each row's interval bar and its dot. It
// implements plot.Plotter; the panel's ranges are set by addRatios.
type ratioSet struct {
	rows []RatioRow
	log  bool
}

func (r ratioSet) y(i int) float64 { return float64(len(r.rows) - 1 - i) }

// x is a ratio as the axis holds it.
func (r ratioSet) x(v float64) float64 {
	if r.log {
		return math.Log10(v)
	}
	return v
}

func (r ratioSet) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	for i, row := range r.rows {
		if row.Floor <= 0 {
			continue
		}
		left := c.Min.X
		if row.Floor < 1 || !r.log {
			left = max(c.Min.X, trX(r.x(math.Max(1-row.Floor, math.SmallestNonzeroFloat64))))
		}
		right := min(c.Max.X, trX(r.x(1+row.Floor)))
		top, bottom := trY(r.y(i)+0.5), trY(r.y(i)-0.5)
		if i == 0 {
			top = c.Max.Y
		}
		if i == len(r.rows)-1 {
			bottom = c.Min.Y
		}
		c.FillPolygon(floorColor, []vg.Point{{X: left, Y: bottom}, {X: right, Y: bottom}, {X: right, Y: top}, {X: left, Y: top}})
	}
	one := trX(r.x(1))
	c.StrokeLine2(oneStyle(), one, c.Min.Y, one, c.Max.Y)
	for i, row := range r.rows {
		var lo, hi vg.Length
		if row.HasInterval() {
			lo, hi = trX(r.x(row.Lo)), trX(r.x(row.Hi))
		}
		drawRatio(c, row, vg.Point{X: trX(r.x(row.Ratio)), Y: trY(r.y(i))}, lo, hi)
	}
}

// drawRatio draws one row at pt: its interval bar from lo to hi with caps
// when it has one, and its dot, filled when resolved, hollow otherwise.
func drawRatio(c draw.Canvas, row RatioRow, pt vg.Point, lo, hi vg.Length) {
	col := color.Color(gapColor)
	if row.Resolved {
		col = ratioColor
	}
	if y := pt.Y; row.HasInterval() {
		w := draw.LineStyle{Color: col, Width: vg.Points(1.2)}
		c.StrokeLine2(w, lo, y, hi, y)
		c.StrokeLine2(w, lo, y-capWidth, lo, y+capWidth)
		c.StrokeLine2(w, hi, y-capWidth, hi, y+capWidth)
	}
	g := draw.GlyphStyle{Color: col, Radius: vg.Points(4), Shape: draw.CircleGlyph{}}
	c.DrawGlyph(g, pt)
	if !row.Resolved {
		g.Color, g.Radius = whiteColor, g.Radius-vg.Points(1.8)
		c.DrawGlyph(g, pt)
	}
}

func oneStyle() draw.LineStyle {
	return draw.LineStyle{Color: oneColor, Width: vg.Points(1)}
}

// ratioThumb is the legend sample of a ratio row with an interval:
// resolved (filled, blue) or not (hollow, grey).
type ratioThumb struct {
	resolved bool
}

func (t ratioThumb) Thumbnail(c *draw.Canvas) {
	drawRatio(*c, RatioRow{Ratio: 1, Lo: 0.5, Hi: 2, Resolved: t.resolved}, c.Center(), c.Min.X+2, c.Max.X-2)
}

// floorThumb is the legend sample of a floor band: a shaded box around
// the line at 1.
type floorThumb struct{}

func (floorThumb) Thumbnail(c *draw.Canvas) {
	ctr := c.Center()
	c.FillPolygon(floorColor, []vg.Point{{X: c.Min.X + 4, Y: c.Min.Y}, {X: c.Max.X - 4, Y: c.Min.Y},
		{X: c.Max.X - 4, Y: c.Max.Y}, {X: c.Min.X + 4, Y: c.Max.Y}})
	c.StrokeLine2(oneStyle(), ctr.X, c.Min.Y, ctr.X, c.Max.Y)
}

// ratioTicks labels a ratio axis with the ratios followed by "×": on a
// linear axis plot.DefaultTicks', on a log axis (holding the log10 of the
// ratios) some multiples of each power of ten, with minor ticks at the
// others: 1, 2, 3, 4, 5 and 7 when the axis spans under 1.5 decades (a
// ratio of 4.3 is read off 4, not between 2 and 5), 1, 2 and 5 up to 3
// decades, the powers of ten alone beyond.
type ratioTicks struct {
	log bool
}

func (t ratioTicks) Ticks(lo, hi float64) []plot.Tick {
	if !t.log {
		ticks := plot.DefaultTicks{}.Ticks(lo, hi)
		for i := range ticks {
			if ticks[i].Label != "" {
				ticks[i].Label = numLabel(ticks[i].Value) + "×"
			}
		}
		return ticks
	}
	vlo, vhi := math.Pow(10, lo), math.Pow(10, hi)
	if !(vlo > 0) || !(vhi > vlo) {
		return nil
	}
	labelled := []int{1}
	switch span := hi - lo; {
	case span < 1.5:
		labelled = []int{1, 2, 3, 4, 5, 7}
	case span <= 3:
		labelled = []int{1, 2, 5}
	}
	var ticks []plot.Tick
	for k := int(math.Floor(lo)); k <= int(math.Ceil(hi)) && len(ticks) < 1000; k++ {
		d := math.Pow(10, float64(k))
		for m := 1; m < 10; m++ {
			v := float64(m) * d
			if v < vlo || v > vhi {
				continue
			}
			tk := plot.Tick{Value: math.Log10(v)}
			if slices.Contains(labelled, m) {
				tk.Label = numLabel(v) + "×"
			}
			ticks = append(ticks, tk)
		}
	}
	return ticks
}
