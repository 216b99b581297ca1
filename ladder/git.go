package ladder

import (
	"context"
	"os/exec"
	"strings"
	"time"
)

// gitState returns the commit of the working tree and whether it has
// uncommitted changes; "unknown" (and false) when git is missing or the tree
// is not a repository with a commit.
func gitState(ctx context.Context) (commit string, dirty bool) {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, "git", "rev-parse", "HEAD").Output()
	if err != nil {
		return "unknown", false
	}
	commit = strings.TrimSpace(string(out))
	st, err := exec.CommandContext(ctx, "git", "status", "--porcelain", "--untracked-files=no").Output()
	if err != nil {
		return commit, false
	}
	return commit, len(strings.TrimSpace(string(st))) > 0
}
