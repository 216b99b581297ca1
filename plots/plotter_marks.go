package plots

import (
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// budgetLine draws a dashed horizontal line across the data area at Y.
type budgetLine struct {
	y float64
}

func (b budgetLine) Plot(c draw.Canvas, p *plot.Plot) {
	_, trY := p.Transforms(&c)
	y := trY(b.y)
	c.StrokeLine2(budgetStyle(), c.Min.X, y, c.Max.X, y)
}

// DataRange keeps the budget in view without touching the x range.
func (b budgetLine) DataRange() (xmin, xmax, ymin, ymax float64) {
	return math.Inf(1), math.Inf(-1), b.y, b.y
}

func (budgetLine) Thumbnail(c *draw.Canvas) {
	y := c.Center().Y
	c.StrokeLine2(budgetStyle(), c.Min.X, y, c.Max.X, y)
}

// startLine draws a dashed vertical line across the data area at x: where
// a live cell's measured window starts.
type startLine struct {
	x float64
}

func (l startLine) Plot(c draw.Canvas, p *plot.Plot) {
	trX, _ := p.Transforms(&c)
	x := trX(l.x)
	c.StrokeLine2(startStyle(), x, c.Min.Y, x, c.Max.Y)
}

// DataRange keeps the line in view without touching the y range.
func (l startLine) DataRange() (xmin, xmax, ymin, ymax float64) {
	return l.x, l.x, math.Inf(1), math.Inf(-1)
}

func (startLine) Thumbnail(c *draw.Canvas) {
	x := c.Center().X
	c.StrokeLine2(startStyle(), x, c.Min.Y, x, c.Max.Y)
}

// markSet rings each Mark and writes its label beside it.
type markSet struct {
	marks []Mark
}

func (m markSet) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	ring := markStyle()
	label := textStyle(vg.Points(8), markColor)
	var drawn []vg.Point // label positions, so coinciding knees are labelled once
	for _, mk := range m.marks {
		pt := vg.Point{X: trX(mk.X), Y: trY(mk.Y)}
		if !c.Contains(pt) {
			continue
		}
		c.DrawGlyph(ring, pt)
		if mk.Label != "" && !near(drawn, pt, 2*ring.Radius) {
			c.FillText(label, vg.Point{X: pt.X + ring.Radius + 1, Y: pt.Y + ring.Radius}, mk.Label)
			drawn = append(drawn, pt)
		}
	}
}

func (m markSet) DataRange() (xmin, xmax, ymin, ymax float64) {
	xmin, ymin = math.Inf(1), math.Inf(1)
	xmax, ymax = math.Inf(-1), math.Inf(-1)
	for _, mk := range m.marks {
		xmin, xmax = math.Min(xmin, mk.X), math.Max(xmax, mk.X)
		ymin, ymax = math.Min(ymin, mk.Y), math.Max(ymax, mk.Y)
	}
	return xmin, xmax, ymin, ymax
}

func (markSet) Thumbnail(c *draw.Canvas) {
	c.DrawGlyph(markStyle(), c.Center())
}

// near reports whether some point of ps lies within d of p on both axes.
func near(ps []vg.Point, p vg.Point, d vg.Length) bool {
	for _, q := range ps {
		if q.X-p.X < d && p.X-q.X < d && q.Y-p.Y < d && p.Y-q.Y < d {
			return true
		}
	}
	return false
}
