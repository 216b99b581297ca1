package plots

import (
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// curveLine draws one Curve: a plain line through its points (a lone point
// as its glyph). It implements plot.Plotter, plot.DataRanger and
// plot.Thumbnailer.
type curveLine struct {
	c Curve
}

func (l curveLine) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	pts := make([]vg.Point, 0, len(l.c.Points))
	for _, pt := range l.c.Points {
		pts = append(pts, vg.Point{X: trX(pt.X), Y: trY(pt.Y)})
	}
	switch {
	case len(pts) == 1 && c.Contains(pts[0]):
		c.DrawGlyph(glyphStyleOf(l.c.Style), pts[0])
	case len(pts) > 1:
		c.StrokeLines(curveStyleOf(l.c.Style), c.ClipLinesXY(pts)...)
	}
}

func (l curveLine) DataRange() (xmin, xmax, ymin, ymax float64) {
	xmin, ymin = math.Inf(1), math.Inf(1)
	xmax, ymax = math.Inf(-1), math.Inf(-1)
	for _, pt := range l.c.Points {
		xmin, xmax = math.Min(xmin, pt.X), math.Max(xmax, pt.X)
		ymin, ymax = math.Min(ymin, pt.Y), math.Max(ymax, pt.Y)
	}
	return xmin, xmax, ymin, ymax
}

func (l curveLine) Thumbnail(c *draw.Canvas) {
	y := c.Center().Y
	c.StrokeLine2(curveStyleOf(l.c.Style), c.Min.X, y, c.Max.X, y)
}

// curveStyleOf is the line of a curve: the palette colour of style, dashed
// from the second round of the palette on, so that curves whose colours
// repeat stay apart.
func curveStyleOf(style int) draw.LineStyle {
	ls := lineStyleOf(style)
	if style < 0 {
		style = -style
	}
	if (style/len(palette))%2 == 1 {
		ls.Dashes = []vg.Length{vg.Points(5), vg.Points(3)}
	}
	return ls
}
