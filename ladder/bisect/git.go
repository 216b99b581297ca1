package bisect

import (
	"context"
	"fmt"
	"os/exec"
	"strings"
	"time"
)

// gitTimeout bounds one git command; none here reads more than a commit
// list.
const gitTimeout = time.Minute

func git(ctx context.Context, repo string, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, gitTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir = repo
	out, err := cmd.Output()
	if err != nil {
		msg := err.Error()
		if ee, ok := err.(*exec.ExitError); ok && len(ee.Stderr) > 0 {
			msg = strings.TrimSpace(string(ee.Stderr))
		}
		return "", fmt.Errorf("git %s: %s", strings.Join(args, " "), msg)
	}
	return strings.TrimSpace(string(out)), nil
}

// Commits resolves good and bad in repo and lists good, then every commit
// after it on bad's first-parent line, up to bad: the order a bisection
// halves. good must be an ancestor of bad.
func Commits(ctx context.Context, repo, good, bad string) ([]string, error) {
	g, err := git(ctx, repo, "rev-parse", "--verify", good+"^{commit}")
	if err != nil {
		return nil, fmt.Errorf("GOOD %q: %w", good, err)
	}
	b, err := git(ctx, repo, "rev-parse", "--verify", bad+"^{commit}")
	if err != nil {
		return nil, fmt.Errorf("BAD %q: %w", bad, err)
	}
	if g == b {
		return nil, fmt.Errorf("GOOD and BAD are the same commit %s", short(g))
	}
	if _, err := git(ctx, repo, "merge-base", "--is-ancestor", g, b); err != nil {
		return nil, fmt.Errorf("GOOD %s is not an ancestor of BAD %s", short(g), short(b))
	}
	list, err := git(ctx, repo, "rev-list", "--reverse", "--first-parent", g+".."+b)
	if err != nil {
		return nil, err
	}
	commits := append([]string{g}, strings.Fields(list)...)
	if commits[len(commits)-1] != b {
		return nil, fmt.Errorf("BAD %s is not on the first-parent line after GOOD %s", short(b), short(g))
	}
	return commits, nil
}
