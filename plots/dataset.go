package plots

import (
	"sort"

	"github.com/fastpathlab/fplab/results"
)

// cellData is one cell of the run: its dimensions and, per metric unit, the
// samples of its successful repetitions in journal order.
type cellData struct {
	name    string
	dims    map[string]string
	samples map[string][]float64
	ok      int
	failed  int
}

// stat summarises one unit of the cell (N == 0 when it has no samples).
func (c *cellData) stat(unit string) Stat { return summarize(c.samples[unit]) }

// has reports whether the cell has at least one sample of unit.
func (c *cellData) has(unit string) bool { return len(c.samples[unit]) > 0 }

// dataset is the run's rows indexed by cell, the only input of every figure
// and of Knee. A/A calibration cells (an aa= part) are left out: they repeat
// a swept cell to measure noise and are reported by the noise floor.
type dataset struct {
	cells []*cellData // sorted by name
}

// newDataset indexes rows. When a (cell, rep) pair occurs more than once
// (a resumed ladder), the last row wins.
func newDataset(rows []results.Row) *dataset {
	type key struct {
		cell string
		rep  int
	}
	last := make(map[key]int, len(rows))
	for i, r := range rows {
		last[key{r.Cell, r.Rep}] = i
	}
	byName := make(map[string]*cellData)
	for i, r := range rows {
		if last[key{r.Cell, r.Rep}] != i {
			continue
		}
		dims := results.CellDims(r.Cell)
		if _, aa := dims[keyAA]; aa {
			continue
		}
		c := byName[r.Cell]
		if c == nil {
			c = &cellData{name: r.Cell, dims: dims, samples: make(map[string][]float64)}
			byName[r.Cell] = c
		}
		if !r.OK {
			c.failed++
			continue
		}
		c.ok++
		seen := make(map[string]bool, len(r.Metrics))
		for _, m := range r.Metrics {
			if seen[m.Unit] {
				continue // a unit printed twice counts once per repetition
			}
			seen[m.Unit] = true
			c.samples[m.Unit] = append(c.samples[m.Unit], m.Value)
		}
	}
	ds := &dataset{cells: make([]*cellData, 0, len(byName))}
	for _, c := range byName {
		ds.cells = append(ds.cells, c)
	}
	sort.Slice(ds.cells, func(i, j int) bool { return ds.cells[i].name < ds.cells[j].name })
	return ds
}

// values lists the distinct values of key among cells, in value order.
func values(cells []*cellData, key string) []string {
	seen := make(map[string]bool)
	var out []string
	for _, c := range cells {
		v, ok := c.dims[key]
		if ok && !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	sortValues(key, out)
	return out
}
