package plots

import (
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// rangeLine draws one Series: a line through the medians, a glyph at each
// point and a whisker from min to max. It implements plot.Plotter,
// plot.DataRanger and plot.Thumbnailer.
type rangeLine struct {
	s Series
}

const capWidth = 3 // points either side of a whisker cap

func (l rangeLine) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	line, glyph := lineStyleOf(l.s.Style), glyphStyleOf(l.s.Style)
	whisker := whiskerStyleOf(palette, l.s.Style)
	pts := make([]vg.Point, 0, len(l.s.Points))
	for _, pt := range l.s.Points {
		pts = append(pts, vg.Point{X: trX(pt.X), Y: trY(pt.Median)})
	}
	if len(pts) > 1 {
		c.StrokeLines(line, c.ClipLinesXY(pts)...)
	}
	for i, pt := range l.s.Points {
		if pt.Max > pt.Min {
			x, lo, hi := pts[i].X, trY(pt.Min), trY(pt.Max)
			c.StrokeLine2(whisker, x, lo, x, hi)
			c.StrokeLine2(whisker, x-capWidth, lo, x+capWidth, lo)
			c.StrokeLine2(whisker, x-capWidth, hi, x+capWidth, hi)
		}
		if c.Contains(pts[i]) {
			c.DrawGlyph(glyph, pts[i])
		}
	}
}

func (l rangeLine) DataRange() (xmin, xmax, ymin, ymax float64) {
	xmin, ymin = math.Inf(1), math.Inf(1)
	xmax, ymax = math.Inf(-1), math.Inf(-1)
	for _, pt := range l.s.Points {
		xmin, xmax = math.Min(xmin, pt.X), math.Max(xmax, pt.X)
		ymin, ymax = math.Min(ymin, pt.Min), math.Max(ymax, pt.Max)
	}
	return xmin, xmax, ymin, ymax
}

func (l rangeLine) Thumbnail(c *draw.Canvas) {
	y := c.Center().Y
	c.StrokeLine2(lineStyleOf(l.s.Style), c.Min.X, y, c.Max.X, y)
	c.DrawGlyph(glyphStyleOf(l.s.Style), c.Center())
}
