package results

import (
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
// BuildTables and Compare, Knee and SweptCells (so every figure),
// CompareRatio and NoiseFloor, and the report's counts, gaps and failure
// lists all read rows through it, so one journal gives the same counts
// everywhere.
type Index struct {
	rows   []Row
	cells  []*CellSamples
	byName map[string]*CellSamples
	units  []string
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

// Swept returns the cells without the A/A calibration ones (an aa= part):
// those repeat a swept cell to measure noise (NoiseFloor) and are no point
// of the sweep.
func (x *Index) Swept() []*CellSamples {
	var out []*CellSamples
	for _, c := range x.cells {
		if _, aa := c.Dims[cell.AA]; !aa {
			out = append(out, c)
		}
	}
	return out
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
