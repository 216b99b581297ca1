package bisect

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fastpathlab/fplab/results"
)

const fakeCell = "path=fast/format=raw/batch=8192/brokers=1/alloc=go/crc=off"

// TestMain lets the test binary stand in for a commit's fplab: with
// FPLAB_FAKE_LADDER=1, `fplab ladder --spec S --root R` writes a run of
// fakeCell whose rec/s is the number in the worktree's file speed.
func TestMain(m *testing.M) {
	if os.Getenv("FPLAB_FAKE_LADDER") == "1" {
		if err := fakeLadder(os.Args[1:]); err != nil {
			fmt.Fprintln(os.Stderr, "fake ladder:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func fakeLadder(args []string) error {
	if len(args) != 5 || args[0] != "ladder" || args[1] != "--spec" || args[3] != "--root" {
		return fmt.Errorf("args %v", args)
	}
	b, err := os.ReadFile("speed")
	if err != nil {
		return err
	}
	speed, err := strconv.ParseFloat(strings.TrimSpace(string(b)), 64)
	if err != nil {
		return err
	}
	head, err := exec.Command("git", "rev-parse", "HEAD").Output()
	if err != nil {
		return err
	}
	dir, err := os.MkdirTemp(args[4], "run-")
	if err != nil {
		return err
	}
	now := time.Now()
	if err := results.WriteManifest(dir, results.Manifest{GitCommit: strings.TrimSpace(string(head)), Start: now, End: now, Format: results.RunFormat}); err != nil {
		return err
	}
	j, err := results.OpenJournal(filepath.Join(dir, results.JournalFile))
	if err != nil {
		return err
	}
	for rep := range 8 {
		v := speed * (1 + 0.002*float64(rep%3-1))
		if err := j.Append(results.Row{Cell: fakeCell, Rep: rep, OK: true, Metrics: []results.Metric{{Unit: "rec/s", Value: v}}}); err != nil {
			return err
		}
	}
	if err := j.Close(); err != nil {
		return err
	}
	fmt.Println(dir)
	return nil
}

// fakeRepo makes a repository of one commit per speed, whose make target
// build-go installs the test binary as bin/fplab and notes each build in
// builds.log beside the repository.
func fakeRepo(t *testing.T, speeds []float64) (repo string, commits []string, builds string) {
	t.Helper()
	base := t.TempDir()
	repo, builds = filepath.Join(base, "repo"), filepath.Join(base, "builds.log")
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	run := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = repo
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	if err := os.MkdirAll(repo, 0o755); err != nil {
		t.Fatal(err)
	}
	run("init", "-q", "-b", "main")
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(repo, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("Makefile", fmt.Sprintf("build-go:\n\tmkdir -p bin && cp %q bin/fplab && echo $(notdir $(CURDIR)) >> %q\n", exe, builds))
	write(".gitignore", "bin/\n")
	for i, s := range speeds {
		write("speed", strconv.FormatFloat(s, 'f', -1, 64)+"\n")
		run("add", "-A")
		run("commit", "-q", "--allow-empty", "-m", fmt.Sprintf("commit %d", i))
		commits = append(commits, run("rev-parse", "HEAD"))
	}
	return repo, commits, builds
}

// A search over real git worktrees and make: it lists the commits, builds
// each it measures once (a second search builds nothing), runs each
// commit's own binary in its worktree, and finds the commit that slowed.
func TestSearchOverWorktrees(t *testing.T) {
	ctx := context.Background()
	speeds := []float64{100, 100, 100.5, 100, 100, 80, 80, 80.5}
	repo, commits, builds := fakeRepo(t, speeds)
	listed, err := Commits(ctx, repo, commits[0], "main")
	if err != nil || strings.Join(listed, " ") != strings.Join(commits, " ") {
		t.Fatalf("Commits = %v, %v; want %v", listed, err, commits)
	}
	cache, root := filepath.Join(repo, "..", "cache"), filepath.Join(repo, "..", "runs")
	if err := os.MkdirAll(root, 0o755); err != nil {
		t.Fatal(err)
	}
	var kept []string
	measure := Measurer(Worktrees{Repo: repo, Dir: cache, Target: "build-go"},
		Ladder{Spec: "spec.yaml", Root: root, Cell: fakeCell, Unit: "rec/s", Env: []string{"FPLAB_FAKE_LADDER=1"}},
		func(_ context.Context, dir string) error {
			m, err := results.ReadManifest(dir)
			if err != nil {
				return err
			}
			kept = append(kept, m.GitCommit)
			return nil
		})
	for round := range 2 {
		kept = nil
		res, err := Search(ctx, listed, measure, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if !res.Resolved || res.First != commits[5] || res.Good != commits[4] {
			t.Fatalf("round %d: %+v, want first %s", round, res, commits[5])
		}
		// Each run's manifest names the commit it ran.
		for _, c := range kept {
			if _, ok := res.Samples[c]; !ok {
				t.Errorf("a run of %s, which the search did not measure", c)
			}
		}
		if len(kept) != len(res.Samples) {
			t.Errorf("round %d: %d runs kept for %d commits measured", round, len(kept), len(res.Samples))
		}
	}
	log, err := os.ReadFile(builds)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(strings.Fields(string(log))); n != len(kept) {
		t.Errorf("%d builds over two searches of %d commits each, want each built once:\n%s", n, len(kept), log)
	}
}

func TestCommitsRefused(t *testing.T) {
	ctx := context.Background()
	repo, commits, _ := fakeRepo(t, []float64{1, 2, 3})
	for _, c := range []struct{ good, bad, want string }{
		{commits[2], commits[0], "is not an ancestor"},
		{commits[1], commits[1], "the same commit"},
		{"nope", commits[1], `GOOD "nope"`},
		{commits[0], "nope", `BAD "nope"`},
	} {
		if _, err := Commits(ctx, repo, c.good, c.bad); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Commits(%.7s, %.7s) = %v, want %q", c.good, c.bad, err, c.want)
		}
	}
}
