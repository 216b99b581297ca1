package main

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/fastpathlab/fplab/report"
	"github.com/fastpathlab/fplab/results"
	"github.com/fastpathlab/fplab/results/headline"
)

// runCompare prints benchstat-style deltas between two runs and fails when
// a metric regressed significantly past the threshold, or when the
// comparison is incomplete: NEW (or OLD) measured nothing, or NEW lacks
// cells OLD measured (results.Comparison.Complete).
func runCompare(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("compare", stderr)
	threshold := fs.Float64("threshold", results.DefaultThreshold, "regression threshold as a fraction (0.05 = 5%)")
	force := fs.Bool("force", false, "compare runs from different host fingerprints")
	head := fs.Bool("headline", false, "compare the runs' headlines (NEW's spec's comparisons over both runs) instead of every cell")
	hist := fs.String("history", "", "also hold NEW to the last 10 runs of each cell on its host in this store (default: $FPLAB_HISTORY or "+results.DefaultHistory+" when there is one; \"off\" for none)")
	units := fs.String("units", "", "comma-separated units whose regressions fail the comparison (default: every unit that has a direction); the others are still shown")
	if err := fs.Parse(args); err != nil {
		return err
	}
	var verdict []string
	if *units != "" {
		for _, u := range strings.Split(*units, ",") {
			if results.Better(u) == results.Neutral {
				return fmt.Errorf("--units: %q is not a unit with a direction (rec/s, ns/rec, dec-ns/rec, ...), so it can never regress", u)
			}
			verdict = append(verdict, u)
		}
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
	// The history is context, not a verdict: it never changes the exit
	// status.
	if h, err := againstHistory(ctx, *hist, fs.Arg(1), false); err != nil {
		return err
	} else if h != "" {
		fmt.Fprintf(stdout, "\nNEW against the history (%s):\n%s", historyStore(*hist), h)
	}
	// A run that measured nothing has no regressions: say so before the
	// verdict, which would otherwise read as a pass.
	if cmp.NewOK == 0 || cmp.OldOK == 0 {
		return cmp.Complete()
	}
	reg := cmp.Regressions()
	if verdict != nil {
		reg = slices.DeleteFunc(reg, func(r results.CompareRow) bool { return !slices.Contains(verdict, r.Unit) })
		fmt.Fprintf(stdout, "verdict on %s only: %d regression(s)\n", strings.Join(verdict, ", "), len(reg))
	}
	if len(reg) > 0 {
		return fmt.Errorf("%d metric(s) regressed by more than %.0f%% (first: %s %s %+.1f%%)",
			len(reg), *threshold*100, reg[0].Cell, reg[0].Unit, reg[0].By*100)
	}
	return cmp.Complete()
}
