package report

import (
	"fmt"
	"strings"

	"github.com/fastpathlab/fplab/results"
)

// A toggle is a setting the lab switches on in some cells and leaves off
// in the same cell otherwise, so each on cell has an off twin in the run:
// checkpoints (a /ckpt=<interval> part, absent when off), check.crcs
// (crc=on against crc=off) and the profiler (/prof=on, absent when off).
type toggle struct {
	key, off string // off == "": the part is absent when the setting is off
	title    string
}

var toggles = []toggle{
	{key: "ckpt", title: "checkpointing"},
	{key: "crc", off: "off", title: "check.crcs"},
	{key: "prof", title: "profiling"},
}

// togglePair is one on cell and its off twin.
type togglePair struct {
	off, on, value string
}

// pairs finds, among the cells of x, every cell with the setting on
// whose off twin (the same name with the part removed, or set to off) is
// also in the run, in the order the on cells first appear in the journal.
func (tg toggle) pairs(x *results.Index) []togglePair {
	cells := x.Names()
	var out []togglePair
	for _, c := range cells {
		parts := strings.Split(c, "/")
		for i, p := range parts {
			k, v, _ := strings.Cut(p, "=")
			if k != tg.key || v == tg.off {
				continue
			}
			twin := make([]string, 0, len(parts))
			twin = append(twin, parts[:i]...)
			if tg.off != "" {
				twin = append(twin, k+"="+tg.off)
			}
			twin = append(twin, parts[i+1:]...)
			if off := strings.Join(twin, "/"); x.Cell(off) != nil {
				out = append(out, togglePair{off: off, on: c, value: v})
			}
		}
	}
	return out
}

// writeToggles renders, for every toggled setting in the run, each on
// cell against its off twin on rec/s: the ratio with its distribution-free
// 95% interval, and whether the interval shows the cost within the budget.
func writeToggles(b *strings.Builder, n *notes, x *results.Index, budget float64) {
	var any bool
	for _, tg := range toggles {
		ps := tg.pairs(x)
		if len(ps) == 0 {
			continue
		}
		if !any {
			b.WriteString("## What a setting costs (on/off, same run)\n\n")
			fmt.Fprintf(b, "Each cell with a setting on against the same cell with it off, on rec/s. *on/off* is the ratio of medians, *shift* the Hodges-Lehmann estimate of the ratio, the interval Moses' distribution-free 95%% interval for it (the one that matches the U test). *Within %s* says what the interval shows about a cost of at most %s: **shown** when the whole interval is at or above %.2f, **exceeded** when it is wholly below, *not resolved* when it straddles (more repetitions, longer cells or a quieter host narrow it).\n\n",
				pct(budget), pct(budget), 1-budget)
			any = true
		}
		fmt.Fprintf(b, "### %s\n\n", tg.title)
		t := table([]string{"---", "---", "--:", "--:", "--:", "--:", "--:", ":-:"},
			"cell (off)", tg.key, "reps off/on", "on/off", "shift", "95% interval", "p", "within "+pct(budget))
		for _, p := range ps {
			r, err := x.CompareRatio(p.off, p.on, results.UnitRecPerSec)
			if err != nil {
				t.Row().Cells(mdText(p.off), mdText(p.value), n.gap(err.Error()), gapMark, gapMark, gapMark, gapMark, gapMark)
				continue
			}
			value := mdText(p.value)
			var interval, verdict string
			if k := maxUnit(x, p.on, "failures"); k > 0 {
				// A cell with kills also reports every batch and replays:
				// its rate is not what the setting alone costs.
				value += fmt.Sprintf(", %s killed", plural(int(k), "reader"))
				verdict = n.gap("the on cell kills readers (failures > 0): it also pays per-batch progress events and replays, so its rate is not the setting's cost alone; compare cells with failures: 0")
				interval = fmt.Sprintf("[%.4f, %.4f]", r.Lo, r.Hi)
				if !r.HasInterval() {
					interval = n.gap(strings.Join(r.Warnings, "; "))
				}
			} else if !r.HasInterval() {
				interval, verdict = n.gap(strings.Join(r.Warnings, "; ")), gapMark
			} else {
				interval = fmt.Sprintf("[%.4f, %.4f]", r.Lo, r.Hi)
				verdict = budgetVerdict(r.Lo, r.Hi, budget)
			}
			t.Row().Cells(mdText(p.off), value, fmt.Sprintf("%d/%d", r.NA, r.NB),
				fmt.Sprintf("%.4f", r.Ratio), fmt.Sprintf("%.4f", r.Shift), interval, fmt.Sprintf("%.3f", r.P), verdict)
		}
		putTable(b, t)
	}
}

// maxUnit is the largest value of unit over the OK rows of cell (0 when
// none reports it).
func maxUnit(x *results.Index, cell, unit string) float64 {
	var m float64
	for _, v := range x.Values(cell, unit) {
		m = max(m, v)
	}
	return m
}

// budgetVerdict says what an interval for an on/off ratio shows about a
// cost of at most budget.
func budgetVerdict(lo, hi, budget float64) string {
	switch {
	case lo >= 1-budget:
		return "**shown**"
	case hi < 1-budget:
		return "**exceeded**"
	}
	return "not resolved"
}
