package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/fastpathlab/fplab/ladder/bisect"
	"github.com/fastpathlab/fplab/results"
	"github.com/fastpathlab/fplab/results/history"
)

// historyBisect finds the first commit between GOOD and BAD that moved a
// cell's figure (ladder/bisect), adding every run it makes to the store.
func historyBisect(ctx context.Context, store string, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("history bisect", stderr)
	spec := fs.String("spec", "", "the spec every commit runs (it must hold the cell; 5 repetitions or more)")
	cellName := fs.String("cell", "", "the cell whose figure moved")
	unit := fs.String("unit", results.UnitRecPerSec, "the unit")
	wt := addWorktreeFlags(fs, "build-go", "the make target that builds a commit's binaries (build for every allocator)")
	maxRuns := fs.Int("max-runs", 3, "runs of one commit before it is called unresolved")
	minChange := addMinChange(fs)
	if err := fs.Parse(args); err != nil {
		return err
	}
	switch {
	case fs.NArg() != 2 || *spec == "" || *cellName == "":
		return errors.New("usage: fplab history bisect --spec S --cell C [--unit U] GOOD BAD")
	case *maxRuns < 1:
		return fmt.Errorf("--max-runs %d: want at least 1", *maxRuns)
	}
	if err := checkMinChange(*minChange); err != nil {
		return err
	}
	if _, err := os.Stat(*spec); err != nil {
		return fmt.Errorf("--spec: %w", err)
	}
	commits, err := bisect.Commits(ctx, ".", fs.Arg(0), fs.Arg(1))
	if err != nil {
		return err
	}
	s, err := history.Open(ctx, store)
	if err != nil {
		return err
	}
	defer s.Close()
	keep := func(ctx context.Context, dir string) error {
		run, err := results.ReadRun(dir)
		if err != nil {
			return err
		}
		_, err = addRun(ctx, s, run)
		return err
	}
	fmt.Fprintf(stderr, "bisect: %d commits from %.12s to %.12s\n", len(commits), commits[0], commits[len(commits)-1])
	measure := bisect.Measurer(
		wt.worktrees(),
		bisect.Ladder{Spec: *spec, Root: *wt.root, Cell: *cellName, Unit: *unit},
		keep)
	res, err := bisect.Search(ctx, commits, measure, bisect.Options{
		MinChange: *minChange, MaxRuns: *maxRuns,
		Log: func(format string, args ...any) { fmt.Fprintf(stderr, "bisect: "+format+"\n", args...) },
	})
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(stdout, "first commit that moved %s %s: %s (%+.1f%% against %.12s)\n",
		*cellName, *unit, res.First, 100*res.Change, res.Good)
	return err
}
