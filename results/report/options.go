package report

import "github.com/fastpathlab/fplab/plots"

// FileName is the report Write produces inside the run directory.
const FileName = "report.md"

// Options tune Write. The zero value is ready to use.
type Options struct {
	// BudgetMs is the checkpoint p99 budget of the knee; <= 0 means
	// plots.DefaultBudgetMs.
	BudgetMs float64
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
	// checks each toggled setting against; <= 0 means DefaultCostBudget.
	CostBudget float64
	// Name is the run name in the heading; empty means the run directory's
	// base name (MergeReport sets it while it writes in a staging directory).
	Name string
}

func (o Options) budget() float64 {
	if !(o.BudgetMs > 0) {
		return plots.DefaultBudgetMs
	}
	return o.BudgetMs
}

// DefaultCostBudget is the on/off section's budget: a setting that costs at
// most 2% of throughput (the checkpoint issue's bar).
const DefaultCostBudget = 0.02

func (o Options) costBudget() float64 {
	if !(o.CostBudget > 0) || o.CostBudget >= 1 {
		return DefaultCostBudget
	}
	return o.CostBudget
}
