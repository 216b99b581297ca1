package plots

import "github.com/fastpathlab/fplab/results"

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

// dataset is the run's swept cells as the tables and the report count
// them (the analysis's results.Index: A/A calibration cells left out, a
// repeated (cell, rep) pair counted once by its last row, a unit printed
// twice by its first value), the only input of every figure.
type dataset struct {
	cells []*cellData // sorted by name
}

func newDataset(swept []*results.CellSamples) *dataset {
	ds := &dataset{cells: make([]*cellData, 0, len(swept))}
	for _, c := range swept {
		ds.cells = append(ds.cells, &cellData{name: c.Name, dims: c.Dims, samples: c.Samples, ok: c.OK, failed: c.Failed})
	}
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
