package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fastpathlab/fplab/results/resultstest"
)

func TestHistoryAdd(t *testing.T) {
	dir := t.TempDir()
	store := filepath.Join(dir, "store", "history.sqlite")
	m := resultstest.Manifest()
	old, new := resultstest.CompareRows()
	oldDir := resultstest.WriteRun(t, filepath.Join(dir, "20261201T000000Z-lab"), m, old)
	m2 := m
	m2.Start, m2.End = m.Start.Add(time.Hour), m.End.Add(time.Hour)
	newDir := resultstest.WriteRun(t, filepath.Join(dir, "20261201T010000Z-lab"), m2, new)
	unfinished := m2
	unfinished.End = time.Time{}
	killedDir := resultstest.WriteRun(t, filepath.Join(dir, "20261201T020000Z-lab"), unfinished, new)
	laterDir := resultstest.WriteRun(t, filepath.Join(dir, "20261201T030000Z-lab"), m2, new)

	code, stdout, stderr := inProcess(t, "--store", store, "add", oldDir, newDir)
	if code != 0 || !strings.Contains(stdout, "stored 20261201T000000Z-lab") || !strings.Contains(stdout, "stored 20261201T010000Z-lab") ||
		!strings.Contains(stdout, "dirty tree") {
		t.Fatalf("add: exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	code, stdout, _ = inProcess(t, "--store", store, "add", oldDir)
	if code != 0 || !strings.HasPrefix(stdout, "unchanged 20261201T000000Z-lab") {
		t.Fatalf("second add: exit %d, stdout:\n%s", code, stdout)
	}

	// An unfinished run among good ones: one line naming it, nothing added.
	code, stdout, stderr = inProcess(t, "--store", store, "add", laterDir, killedDir)
	if code != 1 || stdout != "" || strings.Count(stderr, "\n") != 1 ||
		!strings.Contains(stderr, "20261201T020000Z-lab") || !strings.Contains(stderr, "--resume") {
		t.Fatalf("add with an unfinished run: exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	code, stdout, stderr = inProcess(t, "--store", store, "runs")
	if code != 0 || strings.Count(stdout, "\n") != 3 || strings.Contains(stdout, "20261201T030000Z-lab") {
		t.Fatalf("runs: exit %d, want the header and the two runs added\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}

	// --skip-incomplete names the unfinished run and adds the others.
	code, stdout, stderr = inProcess(t, "--store", store, "add", "--skip-incomplete", laterDir, killedDir)
	if code != 0 || !strings.HasPrefix(stdout, "stored 20261201T030000Z-lab") || !strings.HasPrefix(stderr, "skipped "+killedDir) {
		t.Fatalf("add --skip-incomplete: exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}

	for _, args := range [][]string{{}, {"--store", store, "frob"}, {"--store", store, "add"}} {
		if code, stdout, stderr := inProcess(t, args...); code != 1 || stdout != "" || strings.Count(stderr, "\n") != 1 {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 1 and one line", args, code, stdout, stderr)
		}
	}
}

// inProcess runs fplab-history in this process and returns its exit code
// and both streams.
func inProcess(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var o, e bytes.Buffer
	code = run(args, &o, &e)
	return code, o.String(), e.String()
}
