package results

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"golang.org/x/perf/benchfmt"
	"golang.org/x/perf/benchproc"

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

// TableOptions tunes BuildTablesWith. The zero value is what BuildTables
// uses.
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

// BuildTables builds, for every unit and every swept axis, one Table from
// the OK rows as Index counts them (a resumed (cell, rep) pair once, its
// last row; a unit printed twice in a row once, its first value). Units
// come in the order the children printed them, axes in cell-name order.
// An axis with a single value is not swept and gets no table.
func BuildTables(rows []Row) ([]Table, error) {
	return BuildTablesWith(rows, TableOptions{})
}

// BuildTablesWith is BuildTables with options.
func BuildTablesWith(rows []Row, opts TableOptions) ([]Table, error) {
	if opts.NoisyCV == 0 {
		opts.NoisyCV = DefaultNoisyCV
	}
	if opts.NoisyCV < 0 || math.IsNaN(opts.NoisyCV) {
		return nil, fmt.Errorf("results: noisy CV threshold %v is not positive", opts.NoisyCV)
	}
	ds, err := newDataset(rows)
	if err != nil {
		return nil, err
	}
	ds.deriveShares()
	var tables []Table
	for _, unit := range ds.units {
		obs := ds.byUnit[unit]
		swept, fixed := ds.sweptAxes(obs)
		for _, axis := range swept {
			t, err := buildTable(unit, axis, swept, fixed, obs, opts)
			if err != nil {
				return nil, err
			}
			tables = append(tables, t)
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

// dataset is the OK rows that count (Index) split by unit.
type dataset struct {
	axes   []string // axis order of first appearance
	units  []string // unit order of first appearance
	byUnit map[string][]observation
	// exVerify: each repetition's rec/s without the rung's checks
	// (exVerifyRate), for UnitPctTwinExVerify; not a table of its own.
	exVerify []observation
}

func newDataset(rows []Row) (*dataset, error) {
	ds := &dataset{byUnit: map[string][]observation{}}
	seenAxis := map[string]bool{}
	parsed := map[string]map[string]string{}
	for _, r := range NewIndex(rows).Rows() {
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
				return nil, fmt.Errorf("results: cell %s rep %d: metric %s is %v", r.Cell, r.Rep, m.Unit, m.Value)
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

func buildTable(unit, axis string, swept, fixed []string, obs []observation, opts TableOptions) (Table, error) {
	t := Table{Unit: unit, Axis: axis, Fixed: fixed, NoisyCV: opts.NoisyCV}
	for _, a := range swept {
		if a != axis {
			t.RowAxes = append(t.RowAxes, a)
		}
	}
	var pp benchproc.ProjectionParser
	colProj, err := pp.Parse("/"+axis+"@num", nil)
	if err != nil {
		return Table{}, fmt.Errorf("results: table %s by %s: %v", unit, axis, err)
	}
	rowExpr := ".name" // a constant: a single row
	if len(t.RowAxes) > 0 {
		rowExpr = "/" + strings.Join(t.RowAxes, "@num,/") + "@num"
	}
	rowProj, err := pp.Parse(rowExpr, nil)
	if err != nil {
		return Table{}, fmt.Errorf("results: table %s by %s: %v", unit, axis, err)
	}

	type group struct {
		cell   string
		values []float64
	}
	groups := map[[2]benchproc.Key]*group{}
	var rowKeys, colKeys []benchproc.Key
	seenRow, seenCol := map[benchproc.Key]bool{}, map[benchproc.Key]bool{}
	res := &benchfmt.Result{Iters: 1, Values: []benchfmt.Value{{Unit: unit}}}
	for _, o := range obs {
		// The trailing '/' keeps benchfmt from reading a final "-<digits>"
		// of the last value as a GOMAXPROCS suffix.
		res.Name = benchfmt.Name(BenchName + "/" + o.cell + "/")
		res.Values[0].Value = o.value
		rk, ck := rowProj.Project(res), colProj.Project(res)
		if !seenRow[rk] {
			seenRow[rk] = true
			rowKeys = append(rowKeys, rk)
		}
		if !seenCol[ck] {
			seenCol[ck] = true
			colKeys = append(colKeys, ck)
		}
		g := groups[[2]benchproc.Key{rk, ck}]
		if g == nil {
			g = &group{cell: o.cell}
			groups[[2]benchproc.Key{rk, ck}] = g
		}
		g.values = append(g.values, o.value)
	}
	colField := colProj.Fields()[0]
	cells := obsCells(obs)
	colRank, err := valueRanks(axis, cells, opts.Order[axis])
	if err != nil {
		return Table{}, err
	}
	slices.SortStableFunc(colKeys, func(a, b benchproc.Key) int {
		return colRank[a.Get(colField)] - colRank[b.Get(colField)]
	})
	rowFields := rowProj.Fields()
	rowRanks := make([]map[string]int, len(t.RowAxes))
	for i, a := range t.RowAxes {
		if rowRanks[i], err = valueRanks(a, cells, opts.Order[a]); err != nil {
			return Table{}, err
		}
	}
	slices.SortStableFunc(rowKeys, func(a, b benchproc.Key) int {
		for i, f := range rowFields[:len(t.RowAxes)] {
			if d := rowRanks[i][a.Get(f)] - rowRanks[i][b.Get(f)]; d != 0 {
				return d
			}
		}
		return 0
	})

	for _, ck := range colKeys {
		t.Cols = append(t.Cols, ck.Get(colField))
	}
	for _, rk := range rowKeys {
		tr := TableRow{Label: rowLabel(rk, rowFields, t.RowAxes), Cells: make([]*Stat, len(colKeys))}
		for j, ck := range colKeys {
			if g := groups[[2]benchproc.Key{rk, ck}]; g != nil {
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
	return t, nil
}

// obsCells lists the distinct cells of obs.
func obsCells(obs []observation) []string {
	var cells []string
	seen := map[string]bool{}
	for _, o := range obs {
		if !seen[o.cell] {
			seen[o.cell] = true
			cells = append(cells, o.cell)
		}
	}
	return cells
}

// sortCells orders cell names axis by axis (axes in the given order), each
// axis by valueRanks.
func sortCells(cells, axes []string) error {
	parts := make(map[string]map[string]string, len(cells))
	for _, c := range cells {
		ps, err := cell.Split(c)
		if err != nil {
			return err
		}
		m := map[string]string{}
		for _, p := range ps {
			m[p.Key] = p.Value
		}
		parts[c] = m
	}
	ranks := make([]map[string]int, len(axes))
	for i, a := range axes {
		var err error
		if ranks[i], err = valueRanks(a, cells, nil); err != nil {
			return err
		}
	}
	slices.SortStableFunc(cells, func(x, y string) int {
		for i, a := range axes {
			if d := ranks[i][parts[x][a]] - ranks[i][parts[y][a]]; d != 0 {
				return d
			}
		}
		return strings.Compare(x, y)
	})
	return nil
}

// valueRanks orders the values axis takes among obs: benchproc's "num"
// order (numbers numerically, then strings alphabetically), with the values
// listed in order moved to the front in that order. It returns value -> rank.
func valueRanks(axis string, cells []string, order []string) (map[string]int, error) {
	var pp benchproc.ProjectionParser
	proj, err := pp.Parse("/"+axis+"@num", nil)
	if err != nil {
		return nil, fmt.Errorf("results: axis %s: %v", axis, err)
	}
	field := proj.Fields()[0]
	var keys []benchproc.Key
	seen := map[benchproc.Key]bool{}
	res := &benchfmt.Result{Iters: 1}
	for _, c := range cells {
		res.Name = benchfmt.Name(BenchName + "/" + c + "/")
		k := proj.Project(res)
		if !seen[k] {
			seen[k] = true
			keys = append(keys, k)
		}
	}
	benchproc.SortKeys(keys)
	listed := func(k benchproc.Key) int {
		if i := slices.Index(order, k.Get(field)); i >= 0 {
			return i
		}
		return len(order)
	}
	slices.SortStableFunc(keys, func(a, b benchproc.Key) int { return listed(a) - listed(b) })
	ranks := make(map[string]int, len(keys))
	for i, k := range keys {
		ranks[k.Get(field)] = i
	}
	return ranks, nil
}

func rowLabel(k benchproc.Key, fields []*benchproc.Field, axes []string) string {
	if len(axes) == 0 {
		return "all"
	}
	var parts []string
	for i, a := range axes {
		if v := k.Get(fields[i]); v != "" {
			parts = append(parts, a+"="+v)
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
