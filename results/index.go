package results

import (
	"slices"
	"sort"

	"github.com/fastpathlab/fplab/cell"
)

// Index is a run's rows by cell and repetition under the lab's one rule
// for counting them:
//
//   - A (cell, rep) pair journaled more than once counts once: its last
//     row wins. A resumed or retried ladder appends the repetition again
//     after the row it replaces, so the last row is the one that stands.
//   - A unit printed twice in one row counts once: its first value
//     (Row.Counted).
//
// BuildTables and Compare, Knee (so every figure), CompareRatio and
// NoiseFloor, and the report's counts, gaps and failure lists all read
// rows through it, so one journal gives the same counts everywhere. A
// report builds it once (Analyze).
type Index struct {
	rows   []Row
	cells  []*CellSamples
	byName map[string]*CellSamples
	units  []string
	// names are the cell names in the order of their first journal row.
	names []string
}

// NewIndex indexes rows (in journal order).
func NewIndex(rows []Row) *Index {
	type key struct {
		cell string
		rep  int
	}
	last := make(map[key]int, len(rows))
	for i, r := range rows {
		last[key{r.Cell, r.Rep}] = i
	}
	x := &Index{byName: make(map[string]*CellSamples)}
	seenName := make(map[string]bool)
	for _, r := range rows {
		if !seenName[r.Cell] {
			seenName[r.Cell] = true
			x.names = append(x.names, r.Cell)
		}
	}
	seenUnit := make(map[string]bool)
	for i, r := range rows {
		if last[key{r.Cell, r.Rep}] != i {
			continue
		}
		x.rows = append(x.rows, r)
		c := x.byName[r.Cell]
		if c == nil {
			c = &CellSamples{Name: r.Cell, Dims: cell.Dims(r.Cell), Samples: make(map[string][]float64)}
			x.byName[r.Cell] = c
			x.cells = append(x.cells, c)
		}
		c.Rows = append(c.Rows, r)
		if !r.OK {
			c.Failed++
			continue
		}
		c.OK++
		for _, m := range r.Counted() {
			if _, ok := c.Samples[m.Unit]; !ok {
				c.Units = append(c.Units, m.Unit)
			}
			c.Samples[m.Unit] = append(c.Samples[m.Unit], m.Value)
			if !seenUnit[m.Unit] {
				seenUnit[m.Unit] = true
				x.units = append(x.units, m.Unit)
			}
		}
	}
	sort.SliceStable(x.cells, func(i, j int) bool { return x.cells[i].Name < x.cells[j].Name })
	return x
}

// Rows returns the rows that count, in journal order.
func (x *Index) Rows() []Row { return x.rows }

// Cells returns every cell, sorted by name.
func (x *Index) Cells() []*CellSamples { return x.cells }

// Cell returns the cell named name, or nil when the run has no row of it.
func (x *Index) Cell(name string) *CellSamples { return x.byName[name] }

// Units returns the units of the OK rows that count, in the order first
// printed.
func (x *Index) Units() []string { return x.units }

// Names returns the cell names in the order their first row was
// journaled (a resumed (cell, rep) pair keeps its cell's place).
func (x *Index) Names() []string { return x.names }

// SplitAA splits the index into the swept cells and the A/A calibration
// cells (an aa= part): those repeat a swept cell to measure noise
// (NoiseFloor) and are no point of the sweep. Both halves share x's
// counting; nothing is counted again.
func (x *Index) SplitAA() (sweep, aa *Index) {
	isAA := func(c *CellSamples) bool { _, ok := c.Dims[cell.AA]; return ok }
	return x.subset(func(c *CellSamples) bool { return !isAA(c) }), x.subset(isAA)
}

// subset is the index of the cells keep accepts, rows and units in x's
// order.
func (x *Index) subset(keep func(*CellSamples) bool) *Index {
	y := &Index{byName: make(map[string]*CellSamples)}
	for _, c := range x.cells {
		if keep(c) {
			y.cells = append(y.cells, c)
			y.byName[c.Name] = c
		}
	}
	for _, n := range x.names {
		if y.byName[n] != nil {
			y.names = append(y.names, n)
		}
	}
	seenUnit := make(map[string]bool)
	for _, r := range x.rows {
		if y.byName[r.Cell] == nil {
			continue
		}
		y.rows = append(y.rows, r)
		if !r.OK {
			continue
		}
		for _, m := range r.Counted() {
			if !seenUnit[m.Unit] {
				seenUnit[m.Unit] = true
				y.units = append(y.units, m.Unit)
			}
		}
	}
	return y
}

// Values returns a copy of the samples of unit in cell's successful
// repetitions, in journal order (nil when there are none).
func (x *Index) Values(cell, unit string) []float64 {
	c := x.Cell(cell)
	if c == nil {
		return nil
	}
	return slices.Clone(c.Samples[unit])
}

// Counted returns the metrics of r that count: each unit once, with the
// first value printed for it, in print order.
func (r Row) Counted() []Metric {
	out := make([]Metric, 0, len(r.Metrics))
	seen := make(map[string]bool, len(r.Metrics))
	for _, m := range r.Metrics {
		if !seen[m.Unit] {
			seen[m.Unit] = true
			out = append(out, m)
		}
	}
	return out
}
