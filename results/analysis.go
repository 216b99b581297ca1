package results

import (
	"fmt"
	"sort"
	"strings"

	"github.com/fastpathlab/fplab/cell"
)

// Analysis is one run analysed once: the index and everything the report
// and the figures show that is computed from it. Analyze builds it; the
// report's sections and package plots read it and derive none of it
// again (benchstat's shape: the tables are built once, then formatted).
type Analysis struct {
	// All counts every row, A/A calibration cells included.
	All *Index
	// Sweep and AA are All split by Index.SplitAA: the cells of the sweep
	// (tables, figures, knee, parity) and the A/A calibration cells (the
	// noise floor).
	Sweep, AA *Index
	// BudgetMs is the checkpoint p99 budget Knee was found under.
	BudgetMs float64
	// Knee is Knee of the swept cells under BudgetMs.
	Knee []KneePoint
	// LatencyBudgetMs is the end-to-end p99 budget LatencyKnee was found
	// under.
	LatencyBudgetMs float64
	// LatencyKnee is LatencyKnee of the swept live cells under
	// LatencyBudgetMs, and KneePairs sets it beside Knee where a run has
	// both for one format, path and shared setting.
	LatencyKnee []LatencyKneePoint
	KneePairs   []KneePair
	// Tables is BuildTables of the swept cells (shares of the run's
	// references included); TablesErr says why they could not be built.
	Tables    []Table
	TablesErr error
	// Parity is the parity matrix of the swept cells, nil when the run
	// has no parity cells.
	Parity *ParityMatrix
	// Noise is the noise floor of every complete A/A pair.
	Noise []NoisePair
	// Live is the latency histograms and lag series of the swept live
	// cells' successful repetitions (keepLive of AnalysisOptions.Live),
	// never nil; LiveErr says why the run's live folder could not be read.
	Live    *Live
	LiveErr error
}

// AnalysisOptions tune Analyze. The zero value means the defaults.
type AnalysisOptions struct {
	// BudgetMs is the knee's checkpoint p99 budget; 0 means
	// DefaultBudgetMs, and a negative, NaN or absurd value is an error.
	BudgetMs float64
	// LatencyBudgetMs is the latency knee's end-to-end p99 budget; 0
	// means DefaultLatencyBudgetMs, and a negative, NaN or absurd value is
	// an error.
	LatencyBudgetMs float64
	// Tables tunes the tables (axis order, noisy CV).
	Tables TableOptions
	// Live and LiveErr are ReadLive of the run directory: its live
	// cells' files (nil when it has none or they were not read), or why
	// they could not be read.
	Live    *Live
	LiveErr error
}

// Analyze indexes rows once and derives from that index the swept cells,
// the checkpoint and latency knees (and their pairs), the tables, the
// parity matrix, the noise floor and the live cells' latency and lag the
// sweep counts. Only a bad option is an error; data the tables cannot
// hold is TablesErr.
func Analyze(rows []Row, opt AnalysisOptions) (*Analysis, error) {
	budget, err := BudgetMs(opt.BudgetMs)
	if err != nil {
		return nil, fmt.Errorf("AnalysisOptions.BudgetMs %w", err)
	}
	latBudget, err := LatencyBudgetMs(opt.LatencyBudgetMs)
	if err != nil {
		return nil, fmt.Errorf("AnalysisOptions.LatencyBudgetMs %w", err)
	}
	a := &Analysis{All: NewIndex(rows), BudgetMs: budget, LatencyBudgetMs: latBudget}
	a.Sweep, a.AA = a.All.SplitAA()
	swept := a.Sweep.Cells()
	a.Knee = Knee(swept, budget)
	a.LatencyKnee = LatencyKnee(swept, latBudget)
	a.KneePairs = KneePairs(a.Knee, a.LatencyKnee)
	a.Tables, a.TablesErr = BuildTables(a.Sweep, opt.Tables)
	a.Parity = Parity(swept)
	a.Noise = noisePairs(a.AA)
	a.Live, a.LiveErr = keepLive(opt.Live, a.Sweep), opt.LiveErr
	return a, nil
}

// NoisePair is one complete A/A pair (cell+"/aa=a", cell+"/aa=b") and its
// noise floor on every unit both sides reported in an OK repetition.
type NoisePair struct {
	Base, A, B string
	Units      []NoiseUnit
}

// NoiseUnit is one unit's noise floor, or why there is none.
type NoiseUnit struct {
	Unit  string
	Noise Noise
	Err   error
}

// noisePairs finds the complete A/A pairs of x, sorted by base cell, with
// the units both sides reported in the order first printed.
func noisePairs(x *Index) []NoisePair {
	var pairs []NoisePair
	for _, c := range x.Cells() {
		base, ok := strings.CutSuffix(c.Name, "/"+cell.AA+"="+cell.AAFirst)
		if !ok || len(c.Units) == 0 {
			continue
		}
		other := x.Cell(base + "/" + cell.AA + "=" + cell.AASecond)
		if other == nil || len(other.Units) == 0 {
			continue
		}
		p := NoisePair{Base: base, A: c.Name, B: other.Name}
		for _, u := range c.Units {
			if _, ok := other.Samples[u]; ok {
				n, err := x.NoiseFloor(p.A, p.B, u)
				p.Units = append(p.Units, NoiseUnit{Unit: u, Noise: n, Err: err})
			}
		}
		pairs = append(pairs, p)
	}
	sort.Slice(pairs, func(i, j int) bool { return pairs[i].Base < pairs[j].Base })
	return pairs
}
