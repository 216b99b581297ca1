package bisect

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/fastpathlab/fplab/internal/tail"
	"github.com/fastpathlab/fplab/results"
)

// Ladder runs a spec with a built commit's fplab and reads the figure back.
type Ladder struct {
	// Spec is the spec file (copied into no worktree: every commit runs
	// this one, so the cells are the same).
	Spec string
	// Root is where the run directories go (results/runs of the
	// repository the search started in).
	Root string
	// Cell and Unit are the figure.
	Cell, Unit string
	// Timeout bounds one ladder run (default 1 hour).
	Timeout time.Duration
	// Env is added to the ladder's environment (FPLAB_KAFKA_DIST, ...).
	Env []string
}

// Run runs the spec in worktree (so the run's manifest names its commit)
// with the binaries in worktree/bin, and returns the run's values of the
// cell on the unit and its A/A floor on the unit. A failed ladder, a run
// whose cell failed, and a run without the cell are errors.
func (l Ladder) Run(ctx context.Context, worktree string) (Sample, string, error) {
	dir, err := l.Start(ctx, worktree)
	if err != nil {
		return Sample{}, dir, err
	}
	run, err := results.ReadRun(dir)
	if err != nil {
		return Sample{}, dir, err
	}
	s, err := l.sample(run)
	return s, dir, err
}

// Start runs the spec in worktree with its binaries and returns the run
// directory (also when the ladder failed after making one, as a ladder
// with a failed cell does).
func (l Ladder) Start(ctx context.Context, worktree string) (string, error) {
	spec, err := filepath.Abs(l.Spec)
	if err != nil {
		return "", err
	}
	root, err := filepath.Abs(l.Root)
	if err != nil {
		return "", err
	}
	timeout := l.Timeout
	if timeout == 0 {
		timeout = time.Hour
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, filepath.Join(worktree, "bin", "fplab"), "ladder", "--spec", spec, "--root", root)
	cmd.Dir = worktree
	cmd.Env = append(cmd.Environ(), l.Env...)
	var stdout bytes.Buffer
	errs := tail.New(16 << 10)
	cmd.Stdout, cmd.Stderr = &stdout, errs
	runErr := cmd.Run()
	dir := lastLine(stdout.String())
	if dir != "" && !filepath.IsAbs(dir) {
		dir = filepath.Join(worktree, dir)
	}
	if runErr != nil {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return dir, fmt.Errorf("ladder: not done in %v", timeout)
		}
		return dir, fmt.Errorf("ladder: %w: %s", runErr, errs.Lines(2))
	}
	if dir == "" {
		return "", errors.New("ladder printed no run directory")
	}
	return dir, nil
}

// sample is run's figure of the cell on the unit.
func (l Ladder) sample(run results.Run) (Sample, error) {
	x := results.NewIndex(run.Rows)
	c := x.Cell(l.Cell)
	if c == nil {
		return Sample{}, fmt.Errorf("run %s has no cell %s", run.Dir, l.Cell)
	}
	if c.Failed > 0 {
		return Sample{}, fmt.Errorf("run %s: cell %s failed %d of %d repetitions", run.Dir, l.Cell, c.Failed, c.Failed+c.OK)
	}
	vs := x.Values(l.Cell, l.Unit)
	if len(vs) == 0 {
		return Sample{}, fmt.Errorf("run %s: cell %s reports no %s", run.Dir, l.Cell, l.Unit)
	}
	s := Sample{Values: vs, Runs: []string{run.Dir}}
	for _, f := range x.Floors() {
		if f.Unit == l.Unit && f.Known() {
			s.Floor = f.Detectable
		}
	}
	return s, nil
}

func lastLine(s string) string {
	var last string
	sc := bufio.NewScanner(strings.NewReader(s))
	for sc.Scan() {
		if t := strings.TrimSpace(sc.Text()); t != "" {
			last = t
		}
	}
	return last
}
