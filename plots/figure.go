package plots

import "math"

// Figure is one image to draw, as data: Plan builds figures from rows and
// the renderer turns them into PNG and SVG. A figure with a Skip reason has
// no panels and is not drawn.
type Figure struct {
	// Name is the file stem inside plots/, e.g. "throughput-json".
	Name string
	// Title heads the image; for an emulated run it carries EmulatedLabel.
	Title string
	// Caption says how to read the figure: the statistic, what the error
	// bars span and the setting held fixed. It is drawn under the title and
	// repeated by the report.
	Caption string
	// Skip, when set, is why the figure has no data.
	Skip   string
	Panels []Panel
	// Legend lists the figure-wide legend entries, in order.
	Legend []LegendEntry
}

// PanelKind says how a panel draws its data.
type PanelKind int

const (
	// LinePanel draws Lines: median per x with min-max whiskers.
	LinePanel PanelKind = iota
	// BarPanel draws Bars grouped by Groups, with min-max whiskers.
	BarPanel
	// DotPanel draws Dots over the categories in Groups: a marker at the
	// median with the 95% interval as whiskers, the sets present in a
	// category side by side.
	DotPanel
	// RowPanel draws Rows, one horizontal row per cell, top to bottom: the
	// median with its 95% interval along x.
	RowPanel
	// CurvePanel draws Curves: a plain line through each curve's points,
	// no markers and no whiskers, for dense series (a latency percentile
	// curve, a lag series over time).
	CurvePanel
	// RatioPanel draws Ratios, one horizontal row per ratio, top to
	// bottom (a forest plot): a dot at the ratio with its interval as a
	// bar, a line at 1 and each row's band 1 ± its floor behind it.
	RatioPanel
)

// Panel is one set of axes of a figure.
type Panel struct {
	Kind           PanelKind
	Title          string
	XLabel, YLabel string
	// LogX puts the x axis on a log scale with power-of-two ticks (a
	// ratio panel's with ticks at 1, 2 and 5 times the powers of ten).
	LogX bool
	// Lines are the series of a line panel.
	Lines []Series
	// Groups name the x categories of a bar panel; Bars are the bars drawn
	// in every group, Bars[i].Values aligned with Groups.
	Groups []string
	Bars   []BarSet
	// BudgetY, when > 0, draws a dashed horizontal budget line at that y.
	BudgetY float64
	// Marks are highlighted points, e.g. the knee of each line.
	Marks []Mark
	// Dots are the sets of a dot panel, Dots[i].Values aligned with Groups.
	Dots []DotSet
	// Notes, aligned with Groups, are written in a dot panel's category
	// that has no dot ("failed"); an empty note there reads "n/a".
	Notes []string
	// Rows are the rows of a row panel, drawn top to bottom.
	Rows []CellRow
	// Curves are the lines of a curve panel.
	Curves []Curve
	// Ratios are the rows of a ratio panel, drawn top to bottom.
	Ratios []RatioRow
	// LogY puts a curve or line panel's y axis on a log scale labelled at
	// the powers of ten (a line panel's only when every y is positive).
	LogY bool
	// XTicks, when set, are the only labelled ticks of a curve panel's x
	// axis (those in range), e.g. the percentiles of a latency curve at
	// their 1/(1-q).
	XTicks []AxisTick
	// StartX, when > 0, draws a dashed vertical line at that x on a curve
	// panel with a linear x axis: where the live cells' measured window
	// starts.
	StartX float64
}

// RatioRow is one row of a ratio panel: a ratio (> 0) and its interval.
type RatioRow struct {
	Label string
	Ratio float64
	// Lo and Hi bound the ratio's interval; a row without one (both 0, or
	// Hi infinite) is a dot without a bar.
	Lo, Hi float64
	// Resolved rows are drawn solid, the others hollow and grey.
	Resolved bool
	// Floor, when > 0, shades 1 ± Floor behind the row (its unit's A/A
	// noise floor); rows of one floor next to each other make one band.
	Floor float64
}

// HasInterval reports whether the row has an interval to draw.
func (r RatioRow) HasInterval() bool {
	return r.Lo > 0 && r.Hi >= r.Lo && !math.IsInf(r.Hi, 0)
}

// Curve is one line of a curve panel: its points in drawing order.
type Curve struct {
	Label string
	// Style indexes the palette, as Series.Style.
	Style  int
	Points []XY
}

// XY is one point of a curve.
type XY struct {
	X, Y float64
}

// AxisTick is one labelled tick of an axis.
type AxisTick struct {
	Value float64
	Label string
}

// DotSet is one setting of the other axes (e.g. format=json batch=8192)
// across the categories of a dot panel. A Stat with N == 0 is absent from
// that category and takes no room in it.
type DotSet struct {
	Label  string
	Style  int
	Values []Stat
}

// CellRow is one cell of a row panel. A row without samples (Stat.N == 0)
// shows Note where the marker would be, never a zero.
type CellRow struct {
	Label string
	Style int
	Stat
	// Note says why a row has no marker, e.g. "failed: 3 of 3 repetitions".
	Note string
}

// Series is one line of a line panel.
type Series struct {
	Label string
	// Style indexes the palette, so one path keeps its colour and glyph in
	// every panel and figure.
	Style  int
	Points []Point
}

// Point is one x of a series with the summary of its samples.
type Point struct {
	X float64
	Stat
}

// BarSet is one compared value (e.g. alloc=mimalloc2) across the groups.
// A Stat with N == 0 is a gap, drawn as "n/a", never as a zero bar.
type BarSet struct {
	Label  string
	Style  int
	Values []Stat
}

// Mark highlights one point of a panel.
type Mark struct {
	X, Y  float64
	Style int
	Label string
}

// LegendEntry is one item of a figure's legend.
type LegendEntry struct {
	Label string
	Kind  LegendKind
	Style int
}

// LegendKind is the sample a legend entry shows.
type LegendKind int

const (
	LegendLine LegendKind = iota
	LegendBar
	LegendBudget
	LegendMark
	// LegendDot is a filled marker with interval whiskers.
	LegendDot
	// LegendNoInterval is the hollow marker of a median too few
	// repetitions back for an interval.
	LegendNoInterval
	// LegendCurve is a plain line, the sample of a Curve.
	LegendCurve
	// LegendStart is the dashed vertical line of Panel.StartX.
	LegendStart
	// LegendRatio is a ratio panel's resolved row: a filled dot on its
	// interval bar.
	LegendRatio
	// LegendRatioOpen is a ratio panel's unresolved row: a hollow grey
	// dot on a grey bar.
	LegendRatioOpen
	// LegendFloor is the shaded band of RatioRow.Floor.
	LegendFloor
)
