package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/fastpathlab/fplab/ladder"
	"github.com/fastpathlab/fplab/report"
	"github.com/fastpathlab/fplab/results"
	"github.com/fastpathlab/fplab/results/headline"
)

// runLadder runs (or resumes) a spec, then writes the report with its
// plots. The run directory is the last line of stdout, even on failure, so
// scripts can find what was kept. The exit status (docs/exit-codes.md) is 0
// only when every cell passed: failed cells (ladder.ErrFailedCells), an
// infrastructure failure (ladder.ErrInfra), a refused spec or a run
// directory held by another ladder (ladder.ErrLocked) are one line on
// stderr and exit 1. A held directory is left alone: no report is written
// into it and it is not printed, since this ladder kept nothing there.
func runLadder(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("ladder", stderr)
	var (
		spec       = fs.String("spec", "ladder/specs/default.yaml", "spec file (YAML)")
		resume     = fs.String("resume", "", "finish the killed run in this run directory instead of starting one")
		binDir     = fs.String("bin-dir", "", "directory of fplab, fplab-mimalloc2, fplab-mimalloc3 (default: this binary's)")
		root       = fs.String("root", "", "where run directories are created (default results/runs)")
		brokerCPUs = fs.String("broker-cpus", "", "pin broker processes to this CPU list, e.g. 0")
		cellCPUs   = fs.String("cell-cpus", "", "pin measured cells to this CPU list, e.g. 1")
		budget     = fs.Float64("budget-ms", 100, "checkpoint p99 budget for the report's knee")
		latBudget  = fs.Float64("latency-budget-ms", 100, "end-to-end p99 budget for the report's latency knee (live cells)")
		prof       = fs.Bool("profile", false, "keep a CPU and an allocs profile of every measured cell in <run>/profiles")
		secrets    = fs.String("secrets", "", "with --resume: a file of the secret cluster props (key=value lines) the run directory does not keep; - reads stdin")
	)
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	if err := checkBudgets(*budget, *latBudget); err != nil {
		return err
	}
	if *resume != "" {
		// The run's spec and root are its own: a resume that names
		// another would run cells the manifest does not describe.
		var given string
		fs.Visit(func(f *flag.Flag) {
			if given == "" && (f.Name == "spec" || f.Name == "root") {
				given = f.Name
			}
		})
		if given != "" {
			return fmt.Errorf("--%s with --resume: a resumed run keeps the spec and run directory it started with (give only --resume and, if at all, the same --broker-cpus, --cell-cpus and --profile)", given)
		}
	}
	opt := ladder.Options{SpecPath: *spec, BinDir: *binDir, Root: *root, Progress: stderr, BrokerCPUs: *brokerCPUs, CellCPUs: *cellCPUs, Profile: *prof}
	if *secrets != "" {
		if *resume == "" {
			return fmt.Errorf("--secrets goes with --resume: a new run takes its secrets from its spec's cluster_props")
		}
		var err error
		if opt.Secrets, err = readSecrets(*secrets, os.Stdin); err != nil {
			return err
		}
	}
	var dir string
	var err error
	if *resume != "" {
		dir, err = ladder.Resume(ctx, *resume, opt)
	} else {
		dir, err = ladder.Run(ctx, opt)
	}
	if dir != "" && !errors.Is(err, ladder.ErrLocked) {
		if _, rerr := report.Write(dir, report.Options{BudgetMs: *budget, LatencyBudgetMs: *latBudget}); rerr != nil && err == nil {
			err = rerr
		}
		defer fmt.Fprintln(stdout, dir)
	}
	return err
}

// runReport (re)writes the report and plots of a run directory, or merges
// several runs into one report: by arch (an x86 and an ARM host, say), arch
// a column, or with --merge-by records (one spec at several corpus lengths
// on one host), records a column.
func runReport(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("report", stderr)
	budget := fs.Float64("budget-ms", 100, "checkpoint p99 budget for the knee")
	latBudget := fs.Float64("latency-budget-ms", 100, "end-to-end p99 budget for the latency knee (live cells)")
	out := fs.String("out", "", "merged report directory (default results/runs/<UTC stamp>-merged)")
	force := fs.Bool("force", false, "merge runs of different specs or hosts, or of the same arch")
	by := fs.String("merge-by", results.ArchKey, "merge several runs by arch (one per host) or records (one spec's runs at several records on one host)")
	head := fs.Bool("headline", false, "print only the run's headline table (its spec's comparisons) to stdout; writes nothing")
	hist := fs.String("history", "", "with one run: hold its figures to the last 10 runs of each cell on its host in this store (default: $FPLAB_HISTORY or "+results.DefaultHistory+" when there is one; \"off\" for none)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if err := checkBudgets(*budget, *latBudget); err != nil {
		return err
	}
	if !slices.Contains(results.MergeKeys(), *by) {
		return fmt.Errorf("--merge-by %q: want %s", *by, strings.Join(results.MergeKeys(), " or "))
	}
	if *by != results.ArchKey && fs.NArg() < 2 {
		return fmt.Errorf("--merge-by %s merges two or more run directories, got %d", *by, fs.NArg())
	}
	opt := report.Options{BudgetMs: *budget, LatencyBudgetMs: *latBudget}
	if *head {
		return printHeadline(fs.Args(), opt, stdout)
	}
	var path string
	var err error
	switch fs.NArg() {
	case 0:
		return errors.New("want a run directory (or several to merge)")
	case 1:
		// A run that cannot be read is Write's to report; the history only
		// adds to one that can.
		if _, rerr := results.ReadRun(fs.Arg(0)); rerr == nil {
			if opt.History, err = againstHistory(ctx, *hist, fs.Arg(0), true); err != nil {
				return err
			}
		}
		path, err = report.Write(fs.Arg(0), opt)
	default:
		dir := *out
		if dir == "" {
			dir = filepath.Join(results.DefaultRoot, time.Now().UTC().Format(results.StampLayout)+"-merged")
		}
		path, err = report.MergeReportBy(dir, fs.Args(), *by, *force, opt)
	}
	if err != nil {
		return err
	}
	fmt.Fprintln(stdout, path)
	return nil
}

// printHeadline prints the headline table of the one run in args:
// `fplab report --headline RUN`. A comparison the run cannot resolve at
// all is printed with its row and makes the exit non-zero.
func printHeadline(args []string, opt report.Options, stdout io.Writer) error {
	if len(args) != 1 {
		return fmt.Errorf("--headline wants one run directory, got %d", len(args))
	}
	run, err := results.ReadRun(args[0])
	if err != nil {
		return err
	}
	rows, cerr := report.Headline(run, opt)
	if err := headline.WriteText(stdout, rows); err != nil {
		return err
	}
	return cerr
}

// checkBudgets refuses a bad --budget-ms or --latency-budget-ms before
// anything runs, naming the flag.
func checkBudgets(ckpt, latency float64) error {
	if _, err := results.BudgetMs(ckpt); err != nil {
		return fmt.Errorf("--budget-ms %w", err)
	}
	if _, err := results.LatencyBudgetMs(latency); err != nil {
		return fmt.Errorf("--latency-budget-ms %w", err)
	}
	return nil
}
