package plots

// EmulatedLabel is added to every title of a run made under emulation
// (e.g. arm64 under qemu), whose timings say nothing about ARM hardware.
const EmulatedLabel = "emulated — not ARM performance"

// Options tune Plan and WriteAll. The zero value is ready to use.
type Options struct {
	// Emulated marks the run as emulated (manifest Emulated=true); every
	// title then carries EmulatedLabel.
	Emulated bool
	// BudgetMs is the checkpoint p99 budget for the knee and the budget line
	// of the trade-off figure; <= 0 means DefaultBudgetMs.
	BudgetMs float64
	// Prefer breaks ties when a figure must hold a dimension at one value
	// and several values have equally many cells, e.g. {"brokers": "3"}.
	Prefer map[string]string
	// Formats are the image formats WriteAll writes; nil means png and svg.
	Formats []string
}

func (o Options) budget() float64 {
	if !(o.BudgetMs > 0) {
		return DefaultBudgetMs
	}
	return o.BudgetMs
}

func (o Options) formats() []string {
	if len(o.Formats) == 0 {
		return []string{"png", "svg"}
	}
	return o.Formats
}
