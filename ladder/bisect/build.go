package bisect

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/fastpathlab/fplab/internal/tail"
)

// Worktrees builds commits of one repository, each in a git worktree of
// its own under Dir (Dir/<commit>), and keeps them: a commit is built
// once, and a later search reuses it.
type Worktrees struct {
	// Repo is the repository the commits are in.
	Repo string
	// Dir holds the worktrees (results/cache/bisect).
	Dir string
	// Target is the make target that builds the binaries a spec needs
	// (build-go for the go allocator; build for all three).
	Target string
	// Timeout bounds one build (default 20 minutes: mimalloc's first
	// build compiles it with cargo).
	Timeout time.Duration
}

// builtMark is written into a worktree once its build succeeded.
const builtMark = ".fplab-built"

// Build returns the worktree of commit with its binaries in bin/,
// building it unless a build of it with the same target is there.
func (w Worktrees) Build(ctx context.Context, commit string) (string, error) {
	abs, err := filepath.Abs(filepath.Join(w.Dir, commit))
	if err != nil {
		return "", err
	}
	dir, mark := abs, filepath.Join(abs, builtMark)
	if b, err := os.ReadFile(mark); err == nil && strings.TrimSpace(string(b)) == w.Target {
		return dir, nil
	}
	if _, err := os.Stat(dir); err == nil {
		// A build that did not finish: start again from a clean checkout.
		git(ctx, w.Repo, "worktree", "remove", "--force", abs)
		if err := os.RemoveAll(dir); err != nil {
			return "", err
		}
	}
	git(ctx, w.Repo, "worktree", "prune")
	if err := os.MkdirAll(w.Dir, 0o755); err != nil {
		return "", err
	}
	if _, err := git(ctx, w.Repo, "worktree", "add", "--detach", abs, commit); err != nil {
		return "", err
	}
	timeout := w.Timeout
	if timeout == 0 {
		timeout = 20 * time.Minute
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "make", w.Target)
	cmd.Dir = abs
	errs := tail.New(16 << 10)
	cmd.Stdout, cmd.Stderr = errs, errs
	if err := cmd.Run(); err != nil {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return "", fmt.Errorf("make %s at %s: not done in %v", w.Target, short(commit), timeout)
		}
		return "", fmt.Errorf("make %s at %s: %w: %s", w.Target, short(commit), err, errs.Lines(3))
	}
	if err := os.WriteFile(mark, []byte(w.Target+"\n"), 0o644); err != nil {
		return "", err
	}
	return abs, nil
}
