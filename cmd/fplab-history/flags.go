package main

import (
	"flag"
	"fmt"

	"github.com/fastpathlab/fplab/ladder/bisect"
	"github.com/fastpathlab/fplab/results"
	"github.com/fastpathlab/fplab/results/changepoint"
)

// The flags several history commands share, each registered and checked
// in one place.

// changeFlags are the thresholds of change-point detection (changes,
// site).
type changeFlags struct{ maxP, minChange *float64 }

func addChangeFlags(fs *flag.FlagSet) changeFlags {
	return changeFlags{
		maxP:      fs.Float64("max-p", 0.001, "the p-value a change must be below"),
		minChange: addMinChange(fs),
	}
}

// addMinChange registers --min-change, the least relative change that
// counts where the runs' A/A floors are lower (changes, site, bisect).
func addMinChange(fs *flag.FlagSet) *float64 {
	return fs.Float64("min-change", 0.01, "the least relative change that counts where the runs' A/A floors are lower (a unit no A/A pair reports has none)")
}

func checkMinChange(v float64) error {
	if !(v >= 0 && v < 10) {
		return fmt.Errorf("--min-change %v: want a relative change in [0, 10)", v)
	}
	return nil
}

func (c changeFlags) options() (changepoint.Options, error) {
	if !(*c.maxP > 0 && *c.maxP < 1) {
		return changepoint.Options{}, fmt.Errorf("--max-p %v: want a p-value in (0, 1)", *c.maxP)
	}
	if err := checkMinChange(*c.minChange); err != nil {
		return changepoint.Options{}, err
	}
	return changepoint.Options{MaxP: *c.maxP, MinMagnitude: *c.minChange}, nil
}

// worktreeFlags say where past commits are built and their runs go
// (bisect, backfill); target's default is the command's.
type worktreeFlags struct{ target, cache, root *string }

func addWorktreeFlags(fs *flag.FlagSet, target, targetUsage string) worktreeFlags {
	return worktreeFlags{
		target: fs.String("target", target, targetUsage),
		cache:  fs.String("cache", "results/cache/bisect", "where the commits' worktrees are built and kept"),
		root:   fs.String("root", "results/runs", "where the runs go"),
	}
}

func (w worktreeFlags) worktrees() bisect.Worktrees {
	return bisect.Worktrees{Repo: ".", Dir: *w.cache, Target: *w.target}
}

// hostKey is the host a series is read for: the flag's, or this host's.
func hostKey(flagValue string) string {
	if flagValue == "" {
		return results.HostFingerprint().Key()
	}
	return flagValue
}
