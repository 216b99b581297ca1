package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/fastpathlab/fplab/report/site"
	"github.com/fastpathlab/fplab/results"
	"github.com/fastpathlab/fplab/results/history"
)

const historyUsage = "usage: fplab history [--store S] add RUN... | runs | series --cell C --unit U [--host KEY] | changes [--cell C --unit U] [--host KEY] [--max-p P] | bisect --spec S --cell C [--unit U] GOOD BAD | site DIR | backfill --spec S (--last N | COMMIT...) | against [--format text|md] RUN"

// runHistory (fplab history, forwarded here) keeps runs over time (results/history): add records run
// directories in the store, runs lists them, series prints one cell's
// unit over commits on one host.
func runHistory(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("history", stderr)
	store := fs.String("store", defaultStore(), "the store: a SQLite file, or a postgres:// URL (default $FPLAB_HISTORY, else "+history.DefaultPath+")")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return errors.New(historyUsage)
	}
	sub, rest := fs.Arg(0), fs.Args()[1:]
	switch sub {
	case "add":
		return historyAdd(ctx, *store, rest, stdout, stderr)
	case "runs":
		if len(rest) != 0 {
			return errors.New(historyUsage)
		}
		s, err := history.Open(ctx, *store)
		if err != nil {
			return err
		}
		defer s.Close()
		runs, err := s.Runs(ctx)
		if err != nil {
			return err
		}
		return history.WriteRuns(stdout, runs)
	case "series":
		return historySeries(ctx, *store, rest, stdout, stderr)
	case "changes":
		return historyChanges(ctx, *store, rest, stdout, stderr)
	case "bisect":
		return historyBisect(ctx, *store, rest, stdout, stderr)
	case "site":
		return historySite(ctx, *store, rest, stdout, stderr)
	case "backfill":
		return historyBackfill(ctx, *store, rest, stdout, stderr)
	case "against":
		return historyAgainst(ctx, *store, rest, stdout, stderr)
	}
	return fmt.Errorf("unknown history command %q; %s", sub, historyUsage)
}

func defaultStore() string {
	if s := os.Getenv("FPLAB_HISTORY"); s != "" {
		return s
	}
	return history.DefaultPath
}

// historyAdd reads every run first, so a run that cannot be read or kept
// (incomplete, a newer layout) stops the command before anything is
// written; each run is then added in a transaction of its own.
func historyAdd(ctx context.Context, store string, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("history add", stderr)
	skip := fs.Bool("skip-incomplete", false, "leave out (and name on stderr) runs whose ladder never finished, instead of refusing them all")
	if err := fs.Parse(args); err != nil {
		return err
	}
	dirs := fs.Args()
	if len(dirs) == 0 {
		return errors.New("history add: want one or more run directories")
	}
	var runs []results.Run
	for _, d := range dirs {
		r, err := results.ReadRun(d)
		if err == nil {
			err = history.Check(r)
		}
		if err != nil && *skip && (errors.Is(err, history.ErrIncomplete) || errors.Is(err, os.ErrNotExist)) {
			fmt.Fprintf(stderr, "skipped %s: %s\n", d, err)
			continue
		}
		if err != nil {
			return err
		}
		runs = append(runs, r)
	}
	s, err := history.Open(ctx, store)
	if err != nil {
		return err
	}
	defer s.Close()
	for _, r := range runs {
		a, err := addRun(ctx, s, r)
		if err != nil {
			return err
		}
		note := ""
		if a.Dirty {
			note = " (dirty tree: its commit does not name the code that ran)"
		}
		fmt.Fprintf(stdout, "%s %s: %d repetitions, %d values%s\n", a.Outcome, a.RunID, a.Reps, a.Samples, note)
	}
	fmt.Fprintf(stdout, "store: %s\n", s.Where())
	return nil
}

// addRun adds run to s with its commit's time, where the repository in
// the working directory knows it: every command that stores a run.
func addRun(ctx context.Context, s *history.Store, run results.Run) (history.Added, error) {
	var opts []history.AddOption
	if t, ok := commitTime(ctx, run.Manifest.GitCommit); ok {
		opts = append(opts, history.WithCommitTime(t))
	}
	return s.Add(ctx, run, opts...)
}

// commitTime asks the repository in the working directory when commit was
// made; a commit it does not hold has none (the series then orders that
// run by its start).
func commitTime(ctx context.Context, commit string) (time.Time, bool) {
	if commit == "" || commit == "unknown" {
		return time.Time{}, false
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, "git", "show", "-s", "--format=%cI", commit+"^{commit}").Output()
	if err != nil {
		return time.Time{}, false
	}
	t, err := time.Parse(time.RFC3339, strings.TrimSpace(string(out)))
	return t, err == nil
}

func historySeries(ctx context.Context, store string, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("history series", stderr)
	cellName := fs.String("cell", "", "the cell (its name as the journal holds it)")
	unit := fs.String("unit", "rec/s", "the unit")
	host := fs.String("host", "", "the host's fingerprint key (default: this host's)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *cellName == "" || fs.NArg() != 0 {
		return errors.New(historyUsage)
	}
	*host = hostKey(*host)
	s, err := history.Open(ctx, store)
	if err != nil {
		return err
	}
	defer s.Close()
	ps, err := s.Series(ctx, *cellName, *unit, *host)
	if err != nil {
		return err
	}
	if len(ps) == 0 {
		return fmt.Errorf("no run in %s measured %s on %s on host %q", s.Where(), *cellName, *unit, *host)
	}
	return history.WriteSeries(stdout, *cellName, *unit, ps)
}

// historyChanges prints the change points of one series, or of every
// series on the host.
func historyChanges(ctx context.Context, store string, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("history changes", stderr)
	cellName := fs.String("cell", "", "one cell (default: every cell)")
	unit := fs.String("unit", "", "the cell's unit (with --cell; default rec/s)")
	host := fs.String("host", "", "the host's fingerprint key (default: this host's)")
	cf := addChangeFlags(fs)
	if err := fs.Parse(args); err != nil {
		return err
	}
	opt, err := cf.options()
	if err != nil {
		return err
	}
	if fs.NArg() != 0 || (*unit != "" && *cellName == "") {
		return errors.New(historyUsage)
	}
	*host = hostKey(*host)
	s, err := history.Open(ctx, store)
	if err != nil {
		return err
	}
	defer s.Close()
	var cs []history.Change
	if *cellName != "" {
		if *unit == "" {
			*unit = results.UnitRecPerSec
		}
		cs, err = s.Changes(ctx, *cellName, *unit, *host, opt)
	} else {
		cs, err = s.AllChanges(ctx, *host, opt)
	}
	if err != nil {
		return err
	}
	if len(cs) == 0 {
		_, err := fmt.Fprintf(stdout, "no change points on host %q in %s\n", *host, s.Where())
		return err
	}
	return history.WriteChanges(stdout, cs)
}

// historySite writes the store as a static site (report/site).
func historySite(ctx context.Context, store string, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("history site", stderr)
	runs := fs.String("runs", "results/runs", "where the run directories are, for their reports")
	cf := addChangeFlags(fs)
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return errors.New("usage: fplab history site [--runs DIR] DIR")
	}
	opt, err := cf.options()
	if err != nil {
		return err
	}
	s, err := history.Open(ctx, store)
	if err != nil {
		return err
	}
	defer s.Close()
	sum, err := site.Build(ctx, s, site.Options{Dir: fs.Arg(0), RunRoots: []string{*runs},
		Changes: opt})
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(stdout, "site: %d cells, %d charts, %d change points, %d run reports\n%s\n",
		sum.Cells, sum.Charts, sum.Changes, sum.Reports, fs.Arg(0)+"/index.html")
	return err
}

// historyAgainst prints where a run's figures stand against the last 10
// runs of each cell on its host: what fplab compare and fplab report add.
func historyAgainst(ctx context.Context, store string, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("history against", stderr)
	format := fs.String("format", "text", "text, or md for the report's section")
	last := fs.Int("last", 10, "past runs each figure is held to")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 1 || (*format != "text" && *format != "md") || *last < 1 {
		return errors.New("usage: fplab history against [--format text|md] [--last N] RUN")
	}
	run, err := results.ReadRun(fs.Arg(0))
	if err != nil {
		return err
	}
	s, err := history.Open(ctx, store)
	if err != nil {
		return err
	}
	defer s.Close()
	ss, skipped, err := s.Against(ctx, run, history.AgainstOptions{Last: *last})
	if err != nil {
		return err
	}
	if *format == "md" {
		_, err := io.WriteString(stdout, history.StandingsMarkdown(ss, skipped, *last, s.Where()))
		return err
	}
	return history.WriteStandings(stdout, ss, skipped, *last)
}
