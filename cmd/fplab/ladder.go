package main

import (
	"context"
	"fmt"
	"os"

	"github.com/fastpathlab/fplab/ladder"
	"github.com/fastpathlab/fplab/results/report"
)

// runLadder runs (or resumes) a spec, then writes the report with its
// plots. The run directory is the last line of stdout, even on failure, so
// scripts can find what was kept.
func runLadder(ctx context.Context, args []string) error {
	fs := newFlags("ladder")
	var (
		spec       = fs.String("spec", "ladder/specs/default.yaml", "spec file (YAML)")
		resume     = fs.String("resume", "", "finish the killed run in this run directory instead of starting one")
		binDir     = fs.String("bin-dir", "", "directory of fplab, fplab-mimalloc2, fplab-mimalloc3 (default: this binary's)")
		root       = fs.String("root", "", "where run directories are created (default results/runs)")
		brokerCPUs = fs.String("broker-cpus", "", "pin broker processes to this CPU list, e.g. 0")
		cellCPUs   = fs.String("cell-cpus", "", "pin measured cells to this CPU list, e.g. 1")
		budget     = fs.Float64("budget-ms", 100, "checkpoint p99 budget for the report's knee")
		prof       = fs.Bool("profile", false, "keep a CPU and an allocs profile of every measured cell in <run>/profiles")
	)
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("ladder: unexpected argument %q", fs.Arg(0))
	}
	opt := ladder.Options{SpecPath: *spec, BinDir: *binDir, Root: *root, BrokerCPUs: *brokerCPUs, CellCPUs: *cellCPUs, Profile: *prof}
	var dir string
	var err error
	if *resume != "" {
		dir, err = ladder.Resume(ctx, *resume, opt)
	} else {
		dir, err = ladder.Run(ctx, opt)
	}
	if dir != "" {
		if _, rerr := report.Write(dir, report.Options{BudgetMs: *budget}); rerr != nil && err == nil {
			err = rerr
		}
		defer fmt.Println(dir)
	}
	return err
}

// runReport (re)writes the report and plots of a run directory.
func runReport(_ context.Context, args []string) error {
	fs := newFlags("report")
	budget := fs.Float64("budget-ms", 100, "checkpoint p99 budget for the knee")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return fmt.Errorf("report: want one run directory, got %d arguments", fs.NArg())
	}
	path, err := report.Write(fs.Arg(0), report.Options{BudgetMs: *budget})
	if err != nil {
		return err
	}
	fmt.Fprintln(os.Stdout, path)
	return nil
}
