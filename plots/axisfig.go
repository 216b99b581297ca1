package plots

import (
	"fmt"
	"strings"

	"github.com/fastpathlab/fplab/cell"
	"github.com/fastpathlab/fplab/results"
)

// Limits of an axis figure's layout. More than maxSets settings in one
// panel stop being told apart by colour and marker; more than maxPanels
// panels make an image too tall to read beside the report.
const (
	maxSets   = 8
	maxPanels = 6
	// maxListed is how many failed cells a caption names before "and N more".
	maxListed = 6
)

// axisFigures draws, for every axis that takes two or more values in the
// run, rec/s by that axis's values (figure "by-<axis>"), and the further
// units of axisUnits by it (figure "by-<axis>-<unit>").
func axisFigures(ds *dataset, opt Options, styles map[string]int) []Figure {
	axes := runAxes(ds.cells)
	figs := make([]Figure, 0, len(axes))
	for _, a := range axes {
		figs = append(figs, axisFigure(ds.cells, a, axes, opt, styles))
		for _, u := range axisUnits[a] {
			figs = append(figs, axisUnitFigure(ds.cells, a, u, axes, opt, styles))
		}
	}
	return figs
}

// axisUnits are the units an axis's figures draw besides rec/s: against
// records (a merge by records, results.MergeBy) the path's peak memory,
// since whether it stays flat as the topic grows is what such a merge is
// for.
var axisUnits = map[string][]string{
	results.RecordsKey: {results.UnitPathPeakRSSMB},
}

// unitLabels are the title word and value-axis label of each unit an axis
// figure draws.
var unitLabels = map[string]struct{ title, axis string }{
	results.UnitRecPerSec:     {"Throughput", "throughput (rec/s)"},
	results.UnitPathPeakRSSMB: {"Path peak RSS", "path peak RSS (MB)"},
}

// axisFigure plots rec/s against the values of axis (the categories of the
// x axis). The other axes of the run either split the figure into panels
// (facets) or tell the dot sets of a panel apart (sets): see facetAxes.
func axisFigure(cells []*cellData, axis string, axes []string, opt Options, styles map[string]int) Figure {
	return axisUnitFigure(cells, axis, results.UnitRecPerSec, axes, opt, styles)
}

// axisUnitFigure is axisFigure for any unit of unitLabels: a figure
// "by-<axis>" for rec/s, "by-<axis>-<unit>" for another unit.
func axisUnitFigure(cells []*cellData, axis, unit string, axes []string, opt Options, styles map[string]int) Figure {
	lb := unitLabels[unit]
	fig := Figure{
		Name:  "by-" + safeName(axis),
		Title: opt.title(lb.title + " by " + axis),
	}
	if unit != results.UnitRecPerSec {
		fig.Name += "-" + safeName(unit)
	}
	var others []string
	for _, k := range axes {
		if k != axis {
			others = append(others, k)
		}
	}
	var drawn, failed, noRate []*cellData
	for _, c := range cells {
		switch {
		case c.has(unit):
			drawn = append(drawn, c)
		case c.ok == 0:
			failed = append(failed, c)
		default:
			noRate = append(noRate, c)
		}
	}
	if len(drawn) == 0 {
		fig.Skip = "no " + unit + " samples in any cell"
		return fig
	}
	groups := axisValues(cells, axis)
	labels := make([]string, len(groups))
	at := make(map[string]int, len(groups))
	for i, g := range groups {
		labels[i], at[g] = valueLabel(g), i
	}
	facets, sets := facetAxes(cells, axis, others)
	// Paths keep their colours: as sets, and on a path figure without sets
	// each path's dot is coloured as it is everywhere else (the x labels
	// name them, so no legend).
	legend := len(sets) > 0
	if !legend && axis == cell.Path {
		sets = []string{cell.Path}
	}
	setKeys := combos(drawn, sets)
	setStyle := make(map[string]int, len(setKeys))
	for i, k := range setKeys {
		setStyle[k] = setStyleOf(i)
		if len(sets) == 1 && sets[0] == cell.Path {
			setStyle[k] = styles[strings.TrimPrefix(k, cell.Path+"=")]
		}
		if len(sets) == 0 {
			setStyle[k] = neutralStyle
		}
	}
	var all []Stat
	for _, fk := range combos(cells, facets) {
		pn := Panel{Kind: DotPanel, XLabel: axisTitle(axis), YLabel: lb.axis, Groups: labels,
			Notes: make([]string, len(groups))}
		if len(facets) > 0 {
			pn.Title = fk
		}
		for _, c := range failed {
			if comboOf(c, facets) == fk {
				pn.Notes[at[axisValue(c, axis)]] = "failed"
			}
		}
		for _, sk := range setKeys {
			set := DotSet{Label: sk, Style: setStyle[sk], Values: make([]Stat, len(groups))}
			found := false
			for _, c := range drawn {
				if comboOf(c, facets) != fk || comboOf(c, sets) != sk {
					continue
				}
				st := c.stat(unit)
				set.Values[at[axisValue(c, axis)]] = st
				all = append(all, st)
				found = true
			}
			if found {
				pn.Dots = append(pn.Dots, set)
			}
		}
		fig.Panels = append(fig.Panels, pn)
	}
	if legend {
		for _, sk := range setKeys {
			fig.Legend = append(fig.Legend, LegendEntry{Label: sk, Kind: LegendDot, Style: setStyle[sk]})
		}
	}
	fig.Legend = append(fig.Legend, noIntervalEntry(all)...)
	var b strings.Builder
	b.WriteString(unitIntervalCaption("Dots", unit, all))
	switch {
	case len(facets) > 0 && legend:
		fmt.Fprintf(&b, " One panel per %s; colours: %s.", strings.Join(facets, "×"), strings.Join(sets, "×"))
	case len(facets) > 0:
		fmt.Fprintf(&b, " One panel per %s.", strings.Join(facets, "×"))
	case legend:
		fmt.Fprintf(&b, " Colours: %s.", strings.Join(sets, "×"))
	}
	b.WriteString(held(heldSetting(cells)))
	b.WriteString(cellList(" Failed, no successful repetition (not drawn):", failed, axes))
	b.WriteString(cellList(" No "+unit+" samples (not drawn):", noRate, axes))
	fig.Caption = b.String()
	return fig
}

// facetAxes splits the other axes of an axis figure into facets (one panel
// per combination) and sets (one colour per combination within a panel).
// Format is a facet when every format has two or more values of axis: rec/s
// differs by format several-fold, and a panel each gives each format its
// own scale (the paths ladder reads as rec/s by path per format). A covering
// run (smoke), where most formats have one cell, keeps one panel instead of
// a panel per dot. Further axes, in cell-name order, become facets only
// while a panel would hold more than maxSets sets and the panels stay
// within maxPanels.
func facetAxes(cells []*cellData, axis string, others []string) (facets, sets []string) {
	sets = append([]string(nil), others...)
	if i := indexOf(sets, cell.Format); i >= 0 && everyHasTwo(cells, cell.Format, axis) {
		facets = []string{cell.Format}
		sets = append(sets[:i:i], sets[i+1:]...)
	}
	for maxSetsPerPanel(cells, facets, sets) > maxSets {
		moved := false
		for i, k := range sets {
			f := append(append([]string(nil), facets...), k)
			if len(combos(cells, f)) <= maxPanels {
				facets = f
				sets = append(sets[:i:i], sets[i+1:]...)
				moved = true
				break
			}
		}
		if !moved {
			break
		}
	}
	return facets, sets
}

// everyHasTwo reports whether each value of by has cells at two or more
// values of axis.
func everyHasTwo(cells []*cellData, by, axis string) bool {
	seen := make(map[string]map[string]bool)
	for _, c := range cells {
		v := axisValue(c, by)
		if seen[v] == nil {
			seen[v] = make(map[string]bool)
		}
		seen[v][axisValue(c, axis)] = true
	}
	for _, s := range seen {
		if len(s) < 2 {
			return false
		}
	}
	return true
}

func maxSetsPerPanel(cells []*cellData, facets, sets []string) int {
	per := make(map[string]map[string]bool)
	n := 0
	for _, c := range cells {
		f := comboOf(c, facets)
		if per[f] == nil {
			per[f] = make(map[string]bool)
		}
		per[f][comboOf(c, sets)] = true
		n = max(n, len(per[f]))
	}
	return n
}

// comboOf is the cell's setting of keys, "k=v k=v", "" for no keys.
func comboOf(c *cellData, keys []string) string {
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + "=" + valueLabel(axisValue(c, k))
	}
	return strings.Join(parts, " ")
}

// combos lists the distinct settings of keys among cells, ordered as the
// cells are by cellLess on those keys.
func combos(cells []*cellData, keys []string) []string {
	seen := make(map[string]bool)
	var reps []*cellData
	for _, c := range cells {
		if k := comboOf(c, keys); !seen[k] {
			seen[k] = true
			reps = append(reps, c)
		}
	}
	sortByKeys(reps, keys)
	out := make([]string, len(reps))
	for i, c := range reps {
		out[i] = comboOf(c, keys)
	}
	return out
}

func indexOf(xs []string, x string) int {
	for i, v := range xs {
		if v == x {
			return i
		}
	}
	return -1
}

// cellList names up to maxListed cells by their short names after head.
func cellList(head string, cells []*cellData, keys []string) string {
	if len(cells) == 0 {
		return ""
	}
	names := make([]string, 0, maxListed)
	for i, c := range cells {
		if i == maxListed {
			break
		}
		names = append(names, shortName(c, keys))
	}
	s := head + " " + strings.Join(names, "; ")
	if len(cells) > maxListed {
		s += fmt.Sprintf("; and %d more", len(cells)-maxListed)
	}
	return s + "."
}

// setStyles order the styles of sets that are not paths: blue, vermillion
// and black first, clear of the path colours and of the grey of the
// "no interval" legend entry.
var setStyles = []int{neutralStyle, 5, 7, 2, 3, 0, 1}

func setStyleOf(i int) int {
	if i < len(setStyles) {
		return setStyles[i]
	}
	return len(palette) + i
}
