package main

import (
	"context"
	"fmt"
	"io"

	"github.com/fastpathlab/fplab/report"
	"github.com/fastpathlab/fplab/results"
	"github.com/fastpathlab/fplab/results/headline"
)

// runCompare prints benchstat-style deltas between two runs and fails when
// a metric regressed significantly past the threshold, or when the
// comparison is incomplete: NEW (or OLD) measured nothing, or NEW lacks
// cells OLD measured (results.Comparison.Complete).
func runCompare(_ context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("compare", stderr)
	threshold := fs.Float64("threshold", results.DefaultThreshold, "regression threshold as a fraction (0.05 = 5%)")
	force := fs.Bool("force", false, "compare runs from different host fingerprints")
	head := fs.Bool("headline", false, "compare the runs' headlines (NEW's spec's comparisons over both runs) instead of every cell")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 2 {
		return fmt.Errorf("want OLD and NEW run directories, got %d arguments", fs.NArg())
	}
	oldRun, err := results.ReadRun(fs.Arg(0))
	if err != nil {
		return err
	}
	newRun, err := results.ReadRun(fs.Arg(1))
	if err != nil {
		return err
	}
	if err := results.CheckComparable(oldRun.Manifest, newRun.Manifest, *force); err != nil {
		return err
	}
	if *head {
		// A headline that moved is a finding, not a regression: the exit
		// status says only whether both runs could be compared.
		changes, err := report.HeadlineChanges(oldRun, newRun, report.Options{})
		if err != nil {
			return err
		}
		return headline.WriteChanges(stdout, changes)
	}
	cmp, err := results.Compare(oldRun.Rows, newRun.Rows, *threshold)
	if err != nil {
		return err
	}
	if err := cmp.WriteText(stdout); err != nil {
		return err
	}
	// A run that measured nothing has no regressions: say so before the
	// verdict, which would otherwise read as a pass.
	if cmp.NewOK == 0 || cmp.OldOK == 0 {
		return cmp.Complete()
	}
	if reg := cmp.Regressions(); len(reg) > 0 {
		return fmt.Errorf("%d metric(s) regressed by more than %.0f%% (first: %s %s %+.1f%%)",
			len(reg), *threshold*100, reg[0].Cell, reg[0].Unit, reg[0].By*100)
	}
	return cmp.Complete()
}
