package report

import (
	"fmt"
	"math"

	"github.com/fastpathlab/fplab/results"
)

// FileName is the report Write produces inside the run directory.
const FileName = "report.md"

// Options tune Write. The zero value is ready to use.
type Options struct {
	// BudgetMs is the checkpoint p99 budget of the knee; 0 means
	// results.DefaultBudgetMs, and a negative, NaN or absurd value is an
	// error.
	BudgetMs float64
	// LatencyBudgetMs is the end-to-end p99 budget of the latency knee
	// (live cells); 0 means results.DefaultLatencyBudgetMs, the maxrate
	// spec's p99 budget, and a negative, NaN or absurd value is an error.
	LatencyBudgetMs float64
	// Prefer is passed to plots.Options.Prefer: the setting figures hold
	// when several are equally well covered.
	Prefer map[string]string
	// LinkBase prefixes every link to a file of the run (images, tables),
	// for a copy of the report embedded elsewhere (e.g. docs/). Empty means
	// links relative to the run directory.
	LinkBase string
	// NoPlots skips drawing the figures; the report then links only the
	// images already in plots/.
	NoPlots bool
	// CostBudget is the cost (a fraction of rec/s) the on/off section
	// checks each toggled setting against; 0 means DefaultCostBudget, and a
	// value outside [0, 1) is an error.
	CostBudget float64
	// History, when set, is the section saying where the run's figures
	// stand against the last runs of each cell on its host, in Markdown
	// (fplab-history against --format md; results/history).
	History string
	// Name is the run name in the heading; empty means the run directory's
	// base name (MergeReport sets it while it writes in a staging directory).
	Name string
}

// DefaultCostBudget is the on/off section's budget: a setting that costs at
// most 2% of throughput (the checkpoint issue's bar).
const DefaultCostBudget = 0.02

// withDefaults checks o against its bounds and fills in the defaults, once,
// at the entry of Write, Render and MergeReport. Each error names the
// field and its bound; nothing is silently replaced.
func (o Options) withDefaults() (Options, error) {
	b, err := results.BudgetMs(o.BudgetMs)
	if err != nil {
		return o, fmt.Errorf("Options.BudgetMs %w", err)
	}
	o.BudgetMs = b
	lb, err := results.LatencyBudgetMs(o.LatencyBudgetMs)
	if err != nil {
		return o, fmt.Errorf("Options.LatencyBudgetMs %w", err)
	}
	o.LatencyBudgetMs = lb
	switch {
	case math.IsNaN(o.CostBudget) || o.CostBudget < 0 || o.CostBudget >= 1:
		return o, fmt.Errorf("Options.CostBudget is %v, want 0 (default %v) up to but not including 1 (a fraction of rec/s)", o.CostBudget, DefaultCostBudget)
	case o.CostBudget == 0:
		o.CostBudget = DefaultCostBudget
	}
	return o, nil
}
