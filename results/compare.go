package results

import (
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strings"

	"golang.org/x/perf/benchmath"
	"golang.org/x/perf/benchunit"

	"github.com/fastpathlab/fplab/cell"
)

// DefaultThreshold is the relative worsening a significant change must
// exceed to count as a regression.
const DefaultThreshold = 0.05

// Comparison holds benchstat-style deltas between two runs, per cell and
// unit, for the cells both runs measured (OK rows only).
type Comparison struct {
	// Threshold is the relative worsening above which a significant
	// change is a regression.
	Threshold float64
	// OldLabel and NewLabel head the two columns ("old", "new" unless
	// the caller sets them, e.g. to run directory names).
	OldLabel, NewLabel string
	// Units in order of first appearance (old run first).
	Units []string
	// Rows, grouped by unit in Units order, cells in axis order.
	Rows []CompareRow
	// OnlyOld and OnlyNew list cells that only one run measured.
	OnlyOld, OnlyNew []string
	// OldRows, NewRows count each run's journal rows; OldOK, NewOK the
	// measured (OK) ones among them.
	OldRows, NewRows, OldOK, NewOK int
	// Floors are, by unit, the wider of the two runs' A/A noise floors
	// (the widest pair's smallest detectable difference in each run), for
	// the units an A/A pair measured in both.
	Floors map[string]float64
}

// CompareRow compares one cell's unit between the runs. New.Delta holds
// the test against Old.
type CompareRow struct {
	Cell, Unit string
	Old, New   *Stat
	Better     Direction
	// Worse is set when the centers moved in the unit's bad direction;
	// By is then that move as a positive fraction of Old.Center.
	Worse bool
	By    float64
	// Regression: Worse, significant, and By > Threshold, in a cell that
	// is not half of an A/A pair.
	Regression bool
	// Noise: an A/A cell (an aa= part) that moved as a regression would.
	// It reads the same code as the swept cell it repeats, which is
	// compared on its own, so its move is the host's noise between the two
	// runs: shown, never counted as a regression.
	Noise bool
	// InFloor: a cell (not a micro-benchmark row) that moved as a
	// regression would, by no more than the unit's A/A floor (Floors):
	// the runs cannot tell that move from their noise, as a headline
	// ratio inside the floor is not resolved. Shown, never counted.
	InFloor bool
}

// Compare compares the OK rows of two runs. threshold (DefaultThreshold
// for the usual 5%) must be a finite non-negative fraction.
func Compare(old, new []Row, threshold float64) (Comparison, error) {
	if threshold < 0 || math.IsNaN(threshold) || math.IsInf(threshold, 0) {
		return Comparison{}, fmt.Errorf("threshold %v is not a non-negative fraction", threshold)
	}
	xOld, xNew := NewIndex(old), NewIndex(new)
	dOld, err := newDataset(xOld)
	if err != nil {
		return Comparison{}, fmt.Errorf("compare old run: %w", err)
	}
	dNew, err := newDataset(xNew)
	if err != nil {
		return Comparison{}, fmt.Errorf("compare new run: %w", err)
	}
	c := Comparison{Threshold: threshold, OldLabel: "old", NewLabel: "new",
		OldRows: len(old), NewRows: len(new), OldOK: countOK(xOld), NewOK: countOK(xNew)}
	axes := slices.Clone(dOld.axes)
	for _, a := range dNew.axes {
		if !slices.Contains(axes, a) {
			axes = append(axes, a)
		}
	}
	c.Units = slices.Clone(dOld.units)
	for _, u := range dNew.units {
		if !slices.Contains(c.Units, u) {
			c.Units = append(c.Units, u)
		}
	}
	c.Floors = floors(xOld, xNew, c.Units)
	oldCells, newCells := cellSet(dOld), cellSet(dNew)
	parts := maps.Clone(dOld.parts)
	maps.Copy(parts, dNew.parts)
	for _, u := range c.Units {
		ov, nv := valuesByCell(dOld.byUnit[u]), valuesByCell(dNew.byUnit[u])
		var cells []string
		for name := range ov {
			if _, ok := nv[name]; ok {
				cells = append(cells, name)
			}
		}
		sortCells(cells, axes, parts)
		for _, name := range cells {
			so := newStat(name, ov[name], DefaultNoisyCV)
			sn := newStat(name, nv[name], DefaultNoisyCV)
			compareStats(so, sn)
			r := CompareRow{Cell: name, Unit: u, Old: so, New: sn, Better: Better(u)}
			r.Worse, r.By = Worse(u, so.Center, sn.Center)
			moved := r.Worse && sn.Delta.Significant && r.By > threshold
			_, aa := parts[name][cell.AA]
			_, micro := parts[name][cell.Micro]
			r.Noise = moved && aa
			floor, ok := c.Floors[u]
			r.InFloor = moved && !r.Noise && ok && !micro && r.By <= floor
			r.Regression = moved && !r.Noise && !r.InFloor
			c.Rows = append(c.Rows, r)
		}
	}
	for cell := range oldCells {
		if !newCells[cell] {
			c.OnlyOld = append(c.OnlyOld, cell)
		}
	}
	for cell := range newCells {
		if !oldCells[cell] {
			c.OnlyNew = append(c.OnlyNew, cell)
		}
	}
	sortCells(c.OnlyOld, axes, parts)
	sortCells(c.OnlyNew, axes, parts)
	return c, nil
}

// floors is, by unit, the wider of the two indexes' A/A floors (FloorOf).
// A unit is left out unless both runs have a floor for it.
func floors(old, new *Index, units []string) map[string]float64 {
	po, pn := noisePairs(old), noisePairs(new)
	out := map[string]float64{}
	for _, u := range units {
		if fo, fn := FloorOf(po, u), FloorOf(pn, u); fo.Known() && fn.Known() {
			out[u] = max(fo.Detectable, fn.Detectable)
		}
	}
	return out
}

func cellSet(ds *dataset) map[string]bool {
	set := map[string]bool{}
	for _, obs := range ds.byUnit {
		for _, o := range obs {
			set[o.cell] = true
		}
	}
	return set
}

func valuesByCell(obs []observation) map[string][]float64 {
	m := map[string][]float64{}
	for _, o := range obs {
		m[o.cell] = append(m[o.cell], o.value)
	}
	return m
}

// Regressions returns the rows that got significantly worse by more than
// the threshold, in table order.
func (c Comparison) Regressions() []CompareRow {
	var out []CompareRow
	for _, r := range c.Rows {
		if r.Regression {
			out = append(out, r)
		}
	}
	return out
}

// Tables returns one two-column Table (old, new) per unit, regressions
// marked in the row Note, so the comparison renders as text, CSV or
// Markdown like any table.
func (c Comparison) Tables() []Table {
	var tables []Table
	for _, u := range c.Units {
		t := Table{Unit: u, Cols: []string{c.OldLabel, c.NewLabel}, NoisyCV: DefaultNoisyCV}
		t.Heading = fmt.Sprintf("%s: %s vs %s (%s)", u, c.NewLabel, c.OldLabel, directionText(Better(u)))
		for _, r := range c.Rows {
			if r.Unit != u {
				continue
			}
			tr := TableRow{Label: r.Cell, Cells: []*Stat{r.Old, r.New}}
			if r.Noise {
				tr.Note = fmt.Sprintf("A/A cell worse by %.1f%%: host noise, not a regression", 100*r.By)
			}
			if r.InFloor {
				tr.Note = fmt.Sprintf("worse by %.1f%%, within the %.1f%% A/A floor: not a regression", 100*r.By, 100*c.Floors[u])
			}
			if r.Regression {
				tr.Note = fmt.Sprintf("REGRESSION (worse by %.1f%%)", 100*r.By)
			}
			t.Rows = append(t.Rows, tr)
		}
		if len(t.Rows) > 0 {
			tables = append(tables, t)
		}
	}
	return tables
}

func directionText(d Direction) string {
	switch d {
	case HigherIsBetter:
		return "higher is better"
	case LowerIsBetter:
		return "lower is better"
	}
	return "informational"
}

// WriteText renders the comparison: one table per unit, then the cells
// only one run measured, the regression verdict and, when the comparison
// is not Complete, why.
func (c Comparison) WriteText(w io.Writer) error {
	for _, t := range c.Tables() {
		if err := t.WriteText(w); err != nil {
			return err
		}
		if _, err := io.WriteString(w, "\n"); err != nil {
			return fmt.Errorf("write comparison: %w", err)
		}
	}
	var b strings.Builder
	for _, cell := range c.OnlyOld {
		fmt.Fprintf(&b, "only in %s: %s\n", c.OldLabel, cell)
	}
	for _, cell := range c.OnlyNew {
		fmt.Fprintf(&b, "only in %s: %s\n", c.NewLabel, cell)
	}
	regs := c.Regressions()
	fmt.Fprintf(&b, "regressions (significant at alpha %.2f and worse by more than %.1f%%): %d\n",
		benchmath.DefaultThresholds.CompareAlpha, 100*c.Threshold, len(regs))
	for _, r := range regs {
		fmt.Fprintf(&b, "  %s %s: %s -> %s (%s, %s)\n", r.Cell, r.Unit,
			scaled(r.Old.Center), scaled(r.New.Center), r.New.Delta.Text, r.New.Delta.Note)
	}
	if err := c.Complete(); err != nil {
		fmt.Fprintf(&b, "INCOMPLETE: %s\n", strings.TrimPrefix(err.Error(), ErrIncomplete.Error()+": "))
	}
	if _, err := io.WriteString(w, b.String()); err != nil {
		return fmt.Errorf("write comparison: %w", err)
	}
	return nil
}

func scaled(v float64) string { return benchunit.Scale(v, benchunit.Decimal) }
