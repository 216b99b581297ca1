package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"slices"
	"strconv"
	"strings"

	"github.com/fastpathlab/fplab/internal/listflag"
	"github.com/fastpathlab/fplab/ladder"
	"github.com/fastpathlab/fplab/ladder/bisect"
	"github.com/fastpathlab/fplab/results"
	"github.com/fastpathlab/fplab/results/history"
)

// historyBackfill runs specs at past commits with bisect's machinery
// (each commit built once in a cached worktree, each spec run with the
// commit's own fplab in it) and adds the runs to the store, skipping a
// (commit, spec) the store holds already.
func historyBackfill(ctx context.Context, store string, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("history backfill", stderr)
	var specs listflag.Strings
	fs.Var(&specs, "spec", "a spec to run at each commit (repeatable)")
	last := fs.Int("last", 0, "the last N commits of HEAD's first-parent line (instead of COMMIT...)")
	wf := addWorktreeFlags(fs, "build", "the make target that builds a commit's binaries")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if len(specs) == 0 || (*last == 0) == (fs.NArg() == 0) {
		return errors.New("usage: fplab history backfill --spec S [--spec S...] (--last N | COMMIT...)")
	}
	names := make([]string, len(specs))
	for i, p := range specs {
		sp, err := ladder.LoadSpec(p)
		if err != nil {
			return err
		}
		names[i] = sp.Name
	}
	commits, err := backfillCommits(ctx, *last, fs.Args())
	if err != nil {
		return err
	}
	s, err := history.Open(ctx, store)
	if err != nil {
		return err
	}
	defer s.Close()
	w := wf.worktrees()
	var failed []string
	for _, c := range commits {
		for i, spec := range specs {
			if has, err := s.Has(ctx, c, names[i]); err != nil {
				return err
			} else if has {
				fmt.Fprintf(stdout, "%.12s %s: in the store already\n", c, names[i])
				continue
			}
			wt, err := w.Build(ctx, c)
			if err != nil {
				return err
			}
			dir, runErr := bisect.Ladder{Spec: spec, Root: *wf.root}.Start(ctx, wt)
			if runErr != nil {
				failed = append(failed, fmt.Sprintf("%.12s %s: %v", c, names[i], runErr))
				fmt.Fprintf(stderr, "%.12s %s: %v\n", c, names[i], runErr)
			}
			if dir == "" {
				continue
			}
			run, err := results.ReadRun(dir)
			if err != nil {
				if runErr != nil {
					continue // the ladder failed before its run was whole
				}
				return err
			}
			a, err := addRun(ctx, s, run)
			if err != nil {
				return err
			}
			fmt.Fprintf(stdout, "%.12s %s: %s %s (%d repetitions)\n", c, names[i], a.Outcome, a.RunID, a.Reps)
		}
	}
	if len(failed) > 0 {
		return fmt.Errorf("%d of the runs failed: %s", len(failed), strings.Join(failed, "; "))
	}
	return nil
}

// backfillCommits is the last n commits of HEAD's first-parent line,
// oldest first, or the commits named.
func backfillCommits(ctx context.Context, n int, named []string) ([]string, error) {
	if n < 0 {
		return nil, fmt.Errorf("--last %d: want a count of commits", n)
	}
	if n == 0 {
		var commits []string
		for _, c := range named {
			out, err := exec.CommandContext(ctx, "git", "rev-parse", "--verify", c+"^{commit}").Output()
			if err != nil {
				return nil, fmt.Errorf("commit %q: not in this repository", c)
			}
			commits = append(commits, strings.TrimSpace(string(out)))
		}
		return commits, nil
	}
	out, err := exec.CommandContext(ctx, "git", "rev-list", "--first-parent", "-n", strconv.Itoa(n), "HEAD").Output()
	if err != nil {
		return nil, fmt.Errorf("git rev-list: %w", err)
	}
	commits := strings.Fields(string(out))
	slices.Reverse(commits)
	return commits, nil
}
