package plots

import (
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// dotGlyphs are the filled markers of dot and row panels: a filled marker
// has an interval, the same marker hollow has none, so only shapes with an
// inside to empty are used.
var dotGlyphs = []draw.GlyphDrawer{draw.CircleGlyph{}, draw.SquareGlyph{}, draw.TriangleGlyph{}, draw.PyramidGlyph{}}

// dotGlyphOf cycles the shape one step per round of the palette, so styles
// 0..31 differ in colour or shape.
func dotGlyphOf(style int) draw.GlyphStyle {
	if style < 0 {
		style = -style
	}
	shape := dotGlyphs[(style+style/len(palette))%len(dotGlyphs)]
	return draw.GlyphStyle{Color: colorOf(palette, style), Radius: vg.Points(4), Shape: shape}
}

// drawDot draws st at pt: the marker filled when st has an interval,
// hollow (a white inside) when it has none.
func drawDot(c draw.Canvas, style int, st Stat, pt vg.Point) {
	g := dotGlyphOf(style)
	c.DrawGlyph(g, pt)
	if !st.HasInterval() {
		in := g
		in.Color = whiteColor
		in.Radius = g.Radius - vg.Points(1.8)
		c.DrawGlyph(in, pt)
	}
}

// interval returns the ends of st's interval clipped to what is drawn.
func interval(st Stat) (lo, hi float64, ok bool) {
	if !st.HasInterval() {
		return 0, 0, false
	}
	return st.Lo, st.Hi, st.Hi > st.Lo
}

// statTop is the highest value st draws: the top of its interval, or the
// median without one.
func statTop(st Stat) float64 {
	if lo, hi, ok := interval(st); ok {
		return math.Max(hi, math.Max(lo, st.Median))
	}
	return st.Median
}

// dotGroups draws a dot panel: in each category the sets with data there
// side by side, each a marker at the median with its 95% interval; a
// category without any writes its note, or "n/a". It implements plot.Plotter and
// plot.DataRanger.
type dotGroups struct {
	groups []string
	sets   []DotSet
	notes  []string
}

// dotPitch is the widest spacing of markers within a category.
const dotPitch = 14 // points

func (d dotGroups) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	gap := textStyle(vg.Points(8), gapColor)
	gap.XAlign = draw.XCenter
	width := (c.Max.X - c.Min.X) / vg.Length(max(1, len(d.groups)))
	for gi := range d.groups {
		var present []int
		for si, s := range d.sets {
			if s.Values[gi].N > 0 {
				present = append(present, si)
			}
		}
		x0 := trX(float64(gi))
		if len(present) == 0 {
			note := "n/a"
			if gi < len(d.notes) && d.notes[gi] != "" {
				note = d.notes[gi]
			}
			c.FillText(gap, vg.Point{X: x0, Y: trY(0) + 2}, note)
			continue
		}
		pitch := min(vg.Points(dotPitch), 0.8*width/vg.Length(len(present)))
		for k, si := range present {
			s, st := d.sets[si], d.sets[si].Values[gi]
			x := x0 + (vg.Length(k)-vg.Length(len(present)-1)/2)*pitch
			if lo, hi, ok := interval(st); ok {
				w := whiskerStyleOf(palette, s.Style)
				ylo, yhi := trY(lo), trY(hi)
				c.StrokeLine2(w, x, ylo, x, yhi)
				c.StrokeLine2(w, x-capWidth, ylo, x+capWidth, ylo)
				c.StrokeLine2(w, x-capWidth, yhi, x+capWidth, yhi)
			}
			drawDot(c, s.Style, st, vg.Point{X: x, Y: trY(st.Median)})
		}
	}
}

func (d dotGroups) DataRange() (xmin, xmax, ymin, ymax float64) {
	for _, s := range d.sets {
		for _, st := range s.Values {
			if st.N > 0 {
				ymax = math.Max(ymax, statTop(st))
			}
		}
	}
	return 0, float64(len(d.groups) - 1), 0, ymax
}

// rowSet draws a row panel: row i at y = len-1-i (the first row on top), a
// marker at the median with its 95% interval as a horizontal bar, or the
// row's note where there is no sample. It implements plot.Plotter and
// plot.DataRanger.
type rowSet struct {
	rows []CellRow
}

func (r rowSet) y(i int) float64 { return float64(len(r.rows) - 1 - i) }

func (r rowSet) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	note := textStyle(vg.Points(8), failColor)
	note.YAlign = draw.YCenter
	for i, row := range r.rows {
		y := trY(r.y(i))
		if row.N == 0 {
			c.FillText(note, vg.Point{X: c.Min.X + 4, Y: y}, row.Note)
			continue
		}
		if lo, hi, ok := interval(row.Stat); ok {
			w := whiskerStyleOf(palette, row.Style)
			xlo, xhi := trX(lo), trX(hi)
			c.StrokeLine2(w, xlo, y, xhi, y)
			c.StrokeLine2(w, xlo, y-capWidth, xlo, y+capWidth)
			c.StrokeLine2(w, xhi, y-capWidth, xhi, y+capWidth)
		}
		drawDot(c, row.Style, row.Stat, vg.Point{X: trX(row.Median), Y: y})
	}
}

func (r rowSet) DataRange() (xmin, xmax, ymin, ymax float64) {
	for _, row := range r.rows {
		if row.N > 0 {
			xmax = math.Max(xmax, statTop(row.Stat))
		}
	}
	return 0, xmax, -0.5, float64(len(r.rows)) - 0.5
}

// dotThumb is the legend sample of a dot set: its marker with a short
// interval bar, or hollow for "no interval".
type dotThumb struct {
	style  int
	hollow bool
}

func (t dotThumb) Thumbnail(c *draw.Canvas) {
	ctr := c.Center()
	if t.hollow {
		g := draw.GlyphStyle{Color: gapColor, Radius: vg.Points(4), Shape: draw.CircleGlyph{}}
		c.DrawGlyph(g, ctr)
		g.Color, g.Radius = whiteColor, g.Radius-vg.Points(1.8)
		c.DrawGlyph(g, ctr)
		return
	}
	w := whiskerStyleOf(palette, t.style)
	c.StrokeLine2(w, c.Min.X+2, ctr.Y, c.Max.X-2, ctr.Y)
	c.StrokeLine2(w, c.Min.X+2, ctr.Y-capWidth, c.Min.X+2, ctr.Y+capWidth)
	c.StrokeLine2(w, c.Max.X-2, ctr.Y-capWidth, c.Max.X-2, ctr.Y+capWidth)
	drawDot(*c, t.style, Stat{N: 6, Lo: 0, Hi: 1}, ctr)
}
