package results

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/fastpathlab/fplab/cell"
)

// Table is one unit by one swept axis: a column per value of Axis, a row
// per combination of the other swept axes. Every cell summarises the
// repetitions of one ladder cell; cells after the first column carry a
// Delta against the first column of their row (benchstat's "vs base").
type Table struct {
	Unit string
	Axis string
	// Cols are Axis's values, baseline first.
	Cols []string
	// RowAxes are the other swept axes; each row's Label joins their
	// key=value parts with '/'.
	RowAxes []string
	// Fixed lists "key=value" for axes that take a single value here.
	Fixed []string
	Rows  []TableRow
	// NoisyCV is the CV threshold the Noisy flags were set with.
	NoisyCV float64
	// Heading, when set, replaces Title's "<unit> by <axis> (fixed: ...)".
	Heading string
}

// TableRow is one row of a Table.
type TableRow struct {
	Label string
	// Cells has one entry per column; nil where the cell was not run (or
	// has no OK rep).
	Cells []*Stat
	// Note is printed after the last column (Compare marks regressions).
	Note string
}

// TableOptions tunes BuildTables. The zero value means the defaults.
type TableOptions struct {
	// Order fixes the value order of an axis (for example the spec's
	// order, so the baseline column is the first value listed). Values not
	// listed follow, in the default order: numbers numerically, then
	// strings alphabetically (benchproc's "num" order).
	Order map[string][]string
	// NoisyCV is the CV above which a cell is flagged; 0 means
	// DefaultNoisyCV.
	NoisyCV float64
}

// BuildTables builds, for every unit and every swept axis of x's cells,
// one Table from the OK rows x counts (a resumed (cell, rep) pair once,
// its last row; a unit printed twice in a row once, its first value).
// Units come in the order the children printed them, axes in cell-name
// order. An axis with a single value is not swept and gets no table.
func BuildTables(x *Index, opts TableOptions) ([]Table, error) {
	if opts.NoisyCV == 0 {
		opts.NoisyCV = DefaultNoisyCV
	}
	if opts.NoisyCV < 0 || math.IsNaN(opts.NoisyCV) {
		return nil, fmt.Errorf("noisy CV threshold %v is not positive", opts.NoisyCV)
	}
	ds, err := newDataset(x)
	if err != nil {
		return nil, err
	}
	ds.deriveShares()
	var tables []Table
	for _, unit := range ds.units {
		obs := ds.byUnit[unit]
		swept, fixed := ds.sweptAxes(obs)
		for _, axis := range swept {
			tables = append(tables, buildTable(unit, axis, swept, fixed, obs, opts))
		}
	}
	return tables, nil
}

// observation is one OK row's value for one unit.
type observation struct {
	cell  string
	parts map[string]string
	value float64
}

// dataset is the OK rows an Index counts, split by unit.
type dataset struct {
	axes   []string // axis order of first appearance
	units  []string // unit order of first appearance
	byUnit map[string][]observation
	// parts holds each cell's parsed name: key -> value.
	parts map[string]map[string]string
	// exVerify: each repetition's rec/s without the rung's checks
	// (exVerifyRate), for UnitPctTwinExVerify; not a table of its own.
	exVerify []observation
}

// newDataset splits x's OK rows by unit. Each cell name is parsed once
// (cell.Split, which refuses a name the tables could not pivot on).
func newDataset(x *Index) (*dataset, error) {
	ds := &dataset{byUnit: map[string][]observation{}, parts: map[string]map[string]string{}}
	seenAxis := map[string]bool{}
	parsed := ds.parts
	for _, r := range x.Rows() {
		if !r.OK {
			continue
		}
		parts, ok := parsed[r.Cell]
		if !ok {
			ps, err := cell.Split(r.Cell)
			if err != nil {
				return nil, err
			}
			parts = map[string]string{}
			for _, p := range ps {
				parts[p.Key] = p.Value
				if !seenAxis[p.Key] {
					seenAxis[p.Key] = true
					ds.axes = append(ds.axes, p.Key)
				}
			}
			parsed[r.Cell] = parts
		}
		counted := r.Counted()
		for _, m := range counted {
			if math.IsNaN(m.Value) || math.IsInf(m.Value, 0) {
				return nil, fmt.Errorf("cell %s rep %d: metric %s is %v", r.Cell, r.Rep, m.Unit, m.Value)
			}
			if _, ok := ds.byUnit[m.Unit]; !ok {
				ds.units = append(ds.units, m.Unit)
			}
			ds.byUnit[m.Unit] = append(ds.byUnit[m.Unit], observation{r.Cell, parts, m.Value})
		}
		if rate, ok := exVerifyRate(counted); ok {
			ds.exVerify = append(ds.exVerify, observation{r.Cell, parts, rate})
		}
	}
	return ds, nil
}

// sweptAxes splits the axes into those with more than one value among obs
// (a missing axis counts as the value "") and the fixed "key=value" rest.
func (ds *dataset) sweptAxes(obs []observation) (swept, fixed []string) {
	for _, a := range ds.axes {
		vals := map[string]bool{}
		for _, o := range obs {
			vals[o.parts[a]] = true
		}
		switch {
		case len(vals) > 1:
			swept = append(swept, a)
		case !vals[""]:
			for v := range vals {
				fixed = append(fixed, a+"="+v)
			}
		}
	}
	return swept, fixed
}

// buildTable lays obs out by axis (columns) and the other swept axes
// (rows), from the parsed parts of each cell: a missing axis is the value
// "". Values are ordered by valueRanks, so rows and columns come out as
// benchstat's "@num" projections would order them.
func buildTable(unit, axis string, swept, fixed []string, obs []observation, opts TableOptions) Table {
	t := Table{Unit: unit, Axis: axis, Fixed: fixed, NoisyCV: opts.NoisyCV}
	for _, a := range swept {
		if a != axis {
			t.RowAxes = append(t.RowAxes, a)
		}
	}
	colRank := valueRanks(obs, axis, opts.Order[axis])
	rowRanks := make([]map[string]int, len(t.RowAxes))
	for i, a := range t.RowAxes {
		rowRanks[i] = valueRanks(obs, a, opts.Order[a])
	}
	type group struct {
		cell   string
		values []float64
	}
	type rowKey string // the row axes' values joined by '\x00'
	groups := map[rowKey]map[string]*group{}
	var rowKeys []rowKey
	rowVals := map[rowKey][]string{}
	var cols []string
	for _, o := range obs {
		vals := make([]string, len(t.RowAxes))
		for i, a := range t.RowAxes {
			vals[i] = o.parts[a]
		}
		rk := rowKey(strings.Join(vals, "\x00"))
		if groups[rk] == nil {
			groups[rk] = map[string]*group{}
			rowKeys = append(rowKeys, rk)
			rowVals[rk] = vals
		}
		col := o.parts[axis]
		if !slices.Contains(cols, col) {
			cols = append(cols, col)
		}
		g := groups[rk][col]
		if g == nil {
			g = &group{cell: o.cell}
			groups[rk][col] = g
		}
		g.values = append(g.values, o.value)
	}
	slices.SortStableFunc(cols, func(a, b string) int { return colRank[a] - colRank[b] })
	slices.SortStableFunc(rowKeys, func(a, b rowKey) int {
		for i := range t.RowAxes {
			if d := rowRanks[i][rowVals[a][i]] - rowRanks[i][rowVals[b][i]]; d != 0 {
				return d
			}
		}
		return 0
	})
	t.Cols = cols
	for _, rk := range rowKeys {
		tr := TableRow{Label: rowLabel(t.RowAxes, rowVals[rk]), Cells: make([]*Stat, len(cols))}
		for j, col := range cols {
			if g := groups[rk][col]; g != nil {
				tr.Cells[j] = newStat(g.cell, g.values, opts.NoisyCV)
			}
		}
		if base := tr.Cells[0]; base != nil {
			for _, st := range tr.Cells[1:] {
				if st != nil {
					compareStats(base, st)
				}
			}
		}
		t.Rows = append(t.Rows, tr)
	}
	return t
}

// sortCells orders cell names axis by axis (axes in the given order), each
// axis by rankValues, then by name; parts holds every cell's parsed name.
func sortCells(cells, axes []string, parts map[string]map[string]string) {
	ranks := make([]map[string]int, len(axes))
	for i, a := range axes {
		var vals []string
		for _, c := range cells {
			if v := parts[c][a]; !slices.Contains(vals, v) {
				vals = append(vals, v)
			}
		}
		ranks[i] = rankValues(vals, nil)
	}
	slices.SortStableFunc(cells, func(x, y string) int {
		for i, a := range axes {
			if d := ranks[i][parts[x][a]] - ranks[i][parts[y][a]]; d != 0 {
				return d
			}
		}
		return strings.Compare(x, y)
	})
}

// valueRanks orders the values axis takes among obs (a cell without the
// axis: ""): the values listed in order first, in that order, then the
// rest in benchproc's "num" order (numSorted). It returns value -> rank.
func valueRanks(obs []observation, axis string, order []string) map[string]int {
	var vals []string
	seen := map[string]bool{}
	for _, o := range obs {
		if v := o.parts[axis]; !seen[v] {
			seen[v] = true
			vals = append(vals, v)
		}
	}
	return rankValues(vals, order)
}

// rankValues ranks distinct values: those listed in order first, in that
// order, then the rest in benchproc's "num" order (numSorted). It returns value -> rank.
func rankValues(vals, order []string) map[string]int {
	vals = numSorted(vals)
	listed := func(v string) int {
		if i := slices.Index(order, v); i >= 0 {
			return i
		}
		return len(order)
	}
	slices.SortStableFunc(vals, func(a, b string) int { return listed(a) - listed(b) })
	ranks := make(map[string]int, len(vals))
	for i, v := range vals {
		ranks[v] = i
	}
	return ranks
}

// rowLabel joins the row axes' non-empty values as "k=v/k=v": "all" when
// no other axis is swept, "-" when every value is empty.
func rowLabel(axes, vals []string) string {
	if len(axes) == 0 {
		return "all"
	}
	var parts []string
	for i, a := range axes {
		if vals[i] != "" {
			parts = append(parts, a+"="+vals[i])
		}
	}
	if len(parts) == 0 {
		return "-"
	}
	return strings.Join(parts, "/")
}

// ColLabel is the header of column j: "axis=value"; for cells without the
// axis, its cell.Default (an optional axis a name leaves out at its
// default, e.g. decoder=lab) or "axis=(none)" where it has none; the bare
// value when Axis is "".
func (t Table) ColLabel(j int) string {
	v := t.Cols[j]
	if t.Axis == "" {
		return v
	}
	if v == "" {
		v = cell.Default(t.Axis)
	}
	if v == "" {
		v = "(none)"
	}
	return t.Axis + "=" + v
}

// Title is the table's heading: "rec/s by batch (fixed: brokers=3 crc=off)".
func (t Table) Title() string {
	if t.Heading != "" {
		return t.Heading
	}
	s := t.Unit + " by " + t.Axis
	if len(t.Fixed) > 0 {
		s += " (fixed: " + strings.Join(t.Fixed, " ") + ")"
	}
	return s
}
