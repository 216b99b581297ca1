package plots

import (
	"image/color"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Image geometry. Text uses gonum/plot's embedded Liberation fonts (fixed by
// go.mod, never the host's fonts), so a figure renders the same everywhere.
const (
	figWidth    = 7 * vg.Inch
	panelHeight = 3.6 * vg.Inch
	figMargin   = 8 // points around the header
	dpi         = 96
	// shortPanelHeight is the panel height of a figure of three or more.
	shortPanelHeight = 2.6 * vg.Inch
	// A row panel: the pitch of its rows, the room its x axis takes, the
	// least width left for data beside the labels, the label size and the
	// least height.
	rowPitch     = 15 // points
	rowAxisRoom  = 0.9 * vg.Inch
	rowDataWidth = 4.2 * vg.Inch
	rowFont      = 9 // points
	rowMinHeight = 1.6 * vg.Inch
)

// palette is Okabe-Ito (colour-blind safe); index = Series.Style.
var palette = []color.Color{
	color.NRGBA{0xE6, 0x9F, 0x00, 0xFF}, // rowwise: orange
	color.NRGBA{0x56, 0xB4, 0xE9, 0xFF}, // shallow: sky blue
	color.NRGBA{0x00, 0x9E, 0x73, 0xFF}, // fast: bluish green
	color.NRGBA{0xCC, 0x79, 0xA7, 0xFF}, // franz: reddish purple
	color.NRGBA{0x00, 0x72, 0xB2, 0xFF}, // blue
	color.NRGBA{0xD5, 0x5E, 0x00, 0xFF}, // vermillion
	color.NRGBA{0x99, 0x99, 0x99, 0xFF}, // grey
	color.NRGBA{0x00, 0x00, 0x00, 0xFF}, // black
}

// neutralStyle is the style of dots that stand for no path: blue, a colour
// no known path has.
const neutralStyle = 4

// barPalette colours the compared values of a bar chart.
var barPalette = []color.Color{palette[4], palette[5], palette[2], palette[3], palette[1], palette[0], palette[6]}

var glyphs = []draw.GlyphDrawer{
	draw.CircleGlyph{}, draw.SquareGlyph{}, draw.TriangleGlyph{}, draw.PyramidGlyph{},
	draw.BoxGlyph{}, draw.RingGlyph{}, draw.CrossGlyph{}, draw.PlusGlyph{},
}

var (
	budgetColor = color.NRGBA{0xC0, 0x00, 0x00, 0xFF}
	markColor   = color.Black
	gapColor    = color.NRGBA{0x66, 0x66, 0x66, 0xFF}
	failColor   = color.NRGBA{0xA0, 0x10, 0x10, 0xFF}
	whiteColor  = color.White
)

func colorOf(pal []color.Color, i int) color.Color {
	if i < 0 {
		i = -i
	}
	return pal[i%len(pal)]
}

func lineStyleOf(i int) draw.LineStyle {
	return draw.LineStyle{Color: colorOf(palette, i), Width: vg.Points(1.5)}
}

func glyphStyleOf(i int) draw.GlyphStyle {
	if i < 0 {
		i = -i
	}
	return draw.GlyphStyle{Color: colorOf(palette, i), Radius: vg.Points(3), Shape: glyphs[i%len(glyphs)]}
}

func whiskerStyleOf(pal []color.Color, i int) draw.LineStyle {
	return draw.LineStyle{Color: colorOf(pal, i), Width: vg.Points(1)}
}

func budgetStyle() draw.LineStyle {
	return draw.LineStyle{Color: budgetColor, Width: vg.Points(1), Dashes: []vg.Length{vg.Points(4), vg.Points(3)}}
}

func startStyle() draw.LineStyle {
	return draw.LineStyle{Color: gapColor, Width: vg.Points(1), Dashes: []vg.Length{vg.Points(2), vg.Points(2)}}
}

func markStyle() draw.GlyphStyle {
	return draw.GlyphStyle{Color: markColor, Radius: vg.Points(7), Shape: draw.RingGlyph{}}
}

// textStyle is the style of header and annotation text.
func textStyle(size vg.Length, c color.Color) text.Style {
	return text.Style{
		Color:   c,
		Font:    font.From(plot.DefaultFont, size),
		Handler: plot.DefaultTextHandler,
		XAlign:  draw.XLeft,
		YAlign:  draw.YBottom,
	}
}
