package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/fastpathlab/fplab/ladder"
	"github.com/fastpathlab/fplab/results"
	"github.com/fastpathlab/fplab/results/profile"
)

// runProfile shows where a profiled cell spent its time (top) or where two
// cells differ (diff), from the profiles `fplab ladder --profile` kept.
func runProfile(_ context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("profile", stderr)
	rep := fs.Int("rep", 0, "repetition whose profiles to read")
	kind := fs.String("kind", "cpu", "profile: cpu or allocs")
	if err := fs.Parse(args); err != nil {
		return err
	}
	a := fs.Args()
	switch {
	case len(a) == 3 && a[0] == "top":
		b, err := breakdown(a[1], a[2], *rep, *kind)
		if err != nil {
			return err
		}
		return profile.WriteText(stdout, b)
	case len(a) == 4 && a[0] == "diff":
		x, err := breakdown(a[1], a[2], *rep, *kind)
		if err != nil {
			return err
		}
		y, err := breakdown(a[1], a[3], *rep, *kind)
		if err != nil {
			return err
		}
		d, err := profile.Diff(x, y)
		if err != nil {
			return err
		}
		return profile.WriteDiffText(stdout, d)
	}
	return errors.New("usage: fplab profile [--rep N] [--kind cpu|allocs] top RUN CELL | diff RUN CELL_A CELL_B")
}

// breakdown loads one cell's profile and normalises it per verified record.
func breakdown(runDir, cell string, rep int, kind string) (profile.Breakdown, error) {
	cpu, mem := ladder.ProfilePaths(runDir, cell, rep)
	path := cpu
	switch kind {
	case "cpu":
	case "allocs":
		path = mem
	default:
		return profile.Breakdown{}, fmt.Errorf("--kind must be cpu or allocs, got %q", kind)
	}
	p, err := profile.Load(path)
	if err != nil {
		return profile.Breakdown{}, err
	}
	b, err := profile.Buckets(p)
	if err != nil {
		return profile.Breakdown{}, err
	}
	b.Label = cell
	run, err := results.ReadRun(runDir)
	if err != nil {
		return b, err
	}
	for _, r := range run.Rows {
		if r.Cell == cell && r.Rep == rep && r.OK {
			return b.PerUnit(r.Iters), nil
		}
	}
	return b, nil
}
