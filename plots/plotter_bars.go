package plots

import (
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// barSet draws one BarSet: a bar per group at the median, offset within the
// group, with a min-max whisker; a gap (N == 0) is written "n/a" instead of
// a bar. It implements plot.Plotter, plot.DataRanger, plot.GlyphBoxer and
// plot.Thumbnailer.
type barSet struct {
	b      BarSet
	width  vg.Length
	offset vg.Length
}

func (s barSet) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	fill := colorOf(barPalette, s.b.Style)
	whisker := whiskerStyleOf(barPalette, s.b.Style)
	whisker.Color = markColor
	gap := textStyle(vg.Points(8), gapColor)
	gap.XAlign = draw.XCenter
	for i, st := range s.b.Values {
		x := trX(float64(i)) + s.offset
		if st.N == 0 {
			c.FillText(gap, vg.Point{X: x, Y: trY(0) + 2}, "n/a")
			continue
		}
		base, top := trY(0), trY(st.Median)
		left, right := x-s.width/2, x+s.width/2
		c.FillPolygon(fill, c.ClipPolygonY([]vg.Point{{X: left, Y: base}, {X: right, Y: base}, {X: right, Y: top}, {X: left, Y: top}}))
		if st.Max > st.Min {
			lo, hi := trY(st.Min), trY(st.Max)
			c.StrokeLine2(whisker, x, lo, x, hi)
			c.StrokeLine2(whisker, x-capWidth, lo, x+capWidth, lo)
			c.StrokeLine2(whisker, x-capWidth, hi, x+capWidth, hi)
		}
	}
}

func (s barSet) DataRange() (xmin, xmax, ymin, ymax float64) {
	ymax = math.Inf(-1)
	for _, st := range s.b.Values {
		if st.N > 0 {
			ymax = math.Max(ymax, st.Max)
		}
	}
	return 0, float64(len(s.b.Values) - 1), 0, ymax
}

func (s barSet) GlyphBoxes(p *plot.Plot) []plot.GlyphBox {
	boxes := make([]plot.GlyphBox, 0, len(s.b.Values))
	for i := range s.b.Values {
		boxes = append(boxes, plot.GlyphBox{
			X: p.X.Norm(float64(i)),
			Y: p.Y.Norm(0),
			Rectangle: vg.Rectangle{
				Min: vg.Point{X: s.offset - s.width/2},
				Max: vg.Point{X: s.offset + s.width/2},
			},
		})
	}
	return boxes
}

func (s barSet) Thumbnail(c *draw.Canvas) {
	c.FillPolygon(colorOf(barPalette, s.b.Style), []vg.Point{
		c.Min, {X: c.Max.X, Y: c.Min.Y}, c.Max, {X: c.Min.X, Y: c.Max.Y},
	})
}
