package plots

import (
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// header is the laid-out top of a figure: title lines, the wrapped caption
// and a horizontal legend shared by all panels.
type header struct {
	title, caption []string
	legend         [][]LegendEntry // rows
	titleSty       text.Style
	capSty         text.Style
	legSty         text.Style
	height         vg.Length
}

const (
	thumbWidth = 22 // points
	legendGap  = 14 // points between legend entries
)

func newHeader(fig Figure, width vg.Length) header {
	h := header{
		titleSty: textStyle(vg.Points(12), markColor),
		capSty:   textStyle(vg.Points(9), gapColor),
		legSty:   textStyle(vg.Points(9), markColor),
	}
	h.title = strings.Split(fig.Title, "\n")
	h.caption = wrap(h.capSty, fig.Caption, width)
	var row []LegendEntry
	var used vg.Length
	for _, e := range fig.Legend {
		w := thumbWidth + 4 + h.legSty.Width(e.Label) + legendGap
		if len(row) > 0 && used+w > width {
			h.legend = append(h.legend, row)
			row, used = nil, 0
		}
		row = append(row, e)
		used += w
	}
	if len(row) > 0 {
		h.legend = append(h.legend, row)
	}
	h.height = figMargin +
		vg.Length(len(h.title))*lineHeight(h.titleSty) +
		vg.Length(len(h.caption))*lineHeight(h.capSty) +
		vg.Length(len(h.legend))*(lineHeight(h.legSty)+3) + 4
	return h
}

func lineHeight(s text.Style) vg.Length { return s.FontExtents().Height }

// draw writes the header into the top of c, left-aligned at the margin.
func (h header) draw(c draw.Canvas) {
	x := c.Min.X + figMargin
	y := c.Max.Y - figMargin
	for _, line := range h.title {
		y -= lineHeight(h.titleSty)
		c.FillText(h.titleSty, vg.Point{X: x, Y: y}, line)
	}
	for _, line := range h.caption {
		y -= lineHeight(h.capSty)
		c.FillText(h.capSty, vg.Point{X: x, Y: y}, line)
	}
	for _, row := range h.legend {
		y -= lineHeight(h.legSty) + 3
		lx := x
		for _, e := range row {
			box := draw.Canvas{Canvas: c.Canvas, Rectangle: vg.Rectangle{
				Min: vg.Point{X: lx, Y: y},
				Max: vg.Point{X: lx + thumbWidth, Y: y + lineHeight(h.legSty)*0.8},
			}}
			thumbnail(e).Thumbnail(&box)
			c.FillText(h.legSty, vg.Point{X: lx + thumbWidth + 4, Y: y}, e.Label)
			lx += thumbWidth + 4 + h.legSty.Width(e.Label) + legendGap
		}
	}
}

// thumbnail is the legend sample of an entry, drawn by the same plotter as
// the data it stands for.
func thumbnail(e LegendEntry) plot.Thumbnailer {
	switch e.Kind {
	case LegendBar:
		return barSet{b: BarSet{Style: e.Style}}
	case LegendBudget:
		return budgetLine{}
	case LegendMark:
		return markSet{}
	case LegendDot:
		return dotThumb{style: e.Style}
	case LegendNoInterval:
		return dotThumb{style: e.Style, hollow: true}
	case LegendCurve:
		return curveLine{c: Curve{Style: e.Style}}
	case LegendStart:
		return startLine{}
	case LegendRatio:
		return ratioThumb{resolved: true}
	case LegendRatioOpen:
		return ratioThumb{}
	case LegendFloor:
		return floorThumb{}
	}
	return rangeLine{s: Series{Style: e.Style}}
}

// wrap splits s into lines no wider than width in style sty.
func wrap(sty text.Style, s string, width vg.Length) []string {
	var lines []string
	for _, para := range strings.Split(s, "\n") {
		words := strings.Fields(para)
		cur := ""
		for _, w := range words {
			next := w
			if cur != "" {
				next = cur + " " + w
			}
			if cur != "" && sty.Width(next) > width {
				lines = append(lines, cur)
				next = w
			}
			cur = next
		}
		if cur != "" {
			lines = append(lines, cur)
		}
	}
	return lines
}
