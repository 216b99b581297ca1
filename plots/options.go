package plots

import (
	"fmt"
	"slices"
	"strings"
)

// EmulatedLabel is added to every title of a run made under emulation
// (e.g. arm64 under qemu), whose timings say nothing about ARM hardware.
const EmulatedLabel = "emulated — not ARM performance"

// Options tune Plan and WriteAll. The zero value is ready to use.
type Options struct {
	// Emulated marks the run as emulated (manifest Emulated=true); every
	// title then carries EmulatedLabel.
	Emulated bool
	// Prefer breaks ties when a figure must hold a dimension at one value
	// and several values have equally many cells, e.g. {"brokers": "3"}.
	Prefer map[string]string
	// Formats are the image formats WriteAll writes (ImageFormats); nil
	// means all of them.
	Formats []string
}

// ImageFormats are the formats Render writes.
func ImageFormats() []string { return []string{"png", "svg"} }

// withDefaults checks o against its bounds and fills in the defaults, once,
// at the entry of Plan and WriteAll. Each error names the field and its
// bound; nothing is silently replaced. (The knee's budget is the
// analysis's: results.AnalysisOptions.BudgetMs.)
func (o Options) withDefaults() (Options, error) {
	if len(o.Formats) == 0 {
		o.Formats = ImageFormats()
	}
	for _, f := range o.Formats {
		if !slices.Contains(ImageFormats(), f) {
			return o, fmt.Errorf("Options.Formats has %q, want some of %s", f, strings.Join(ImageFormats(), ", "))
		}
	}
	return o, nil
}
