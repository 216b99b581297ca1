package report

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/fastpathlab/fplab/internal/golden"
	"github.com/fastpathlab/fplab/results"
	"github.com/fastpathlab/fplab/results/resultstest"
)

// headlineManifest is the fixture manifest with a spec naming headlines.
func headlineManifest(t *testing.T, headlines ...string) results.Manifest {
	t.Helper()
	m := resultstest.Manifest()
	spec, err := json.Marshal(map[string]any{"name": "fixture", "path": []string{"rowwise", "fast"}, "batch": []int{1024, 8192},
		"alloc": []string{"go", "mimalloc2"}, "repetitions": 6, "headline": headlines})
	if err != nil {
		t.Fatal(err)
	}
	m.Spec = spec
	return m
}

// TestHeadlineOpensTheReport: a spec's headline is the report's first
// section, before the manifest, and its table and sentences are those of
// the rows (golden: the section alone).
func TestHeadlineOpensTheReport(t *testing.T) {
	m := headlineManifest(t, "fast/rowwise by batch", "mimalloc2/go on fast", "fast/ceiling")
	dir := resultstest.TempRun(t, "20261202T100000Z-lab-1", m, resultstest.TableRows())
	md := writeReport(t, dir, Options{NoPlots: true})
	start := strings.Index(md, "## Headline\n")
	end := strings.Index(md, "Fastpath Lab ladder run:")
	if next := strings.Index(md[start+1:], "\n## "); next >= 0 && start+1+next < end {
		end = start + 1 + next + 1 // the section alone, up to the next one
	}
	if start < 0 || end < start {
		t.Fatalf("no headline before the run's facts:\n%s", md)
	}
	if first := strings.Index(md, "\n## "); first+1 != start {
		t.Errorf("the headline is not the first section (first at %d, headline at %d)", first+1, start)
	}
	golden.Check(t, "headline.golden.md", []byte(md[start:end]))
}

// TestHeadlineNone: a spec without a headline has no such section, and
// Headline says the run names none.
func TestHeadlineNone(t *testing.T) {
	dir := resultstest.TempRun(t, "20261202T100000Z-lab-1", resultstest.Manifest(), resultstest.TableRows())
	if md := writeReport(t, dir, Options{NoPlots: true}); strings.Contains(md, "## Headline") {
		t.Error("a spec without a headline got a headline section")
	}
	run, err := results.ReadRun(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Headline(run, Options{}); err == nil || !strings.Contains(err.Error(), "names no headline") {
		t.Errorf("Headline of a run without one: %v", err)
	}
}

// TestHeadlineUnreadable: a headline this version cannot parse is said in
// the section's place, and the rest of the report is written.
func TestHeadlineUnreadable(t *testing.T) {
	m := headlineManifest(t, "fast")
	dir := resultstest.TempRun(t, "20261202T100000Z-lab-1", m, resultstest.TableRows())
	md := writeReport(t, dir, Options{NoPlots: true})
	lacks(t, "report", md, "## Headline\n\nThe spec's headline cannot be read: ", "## Tables")
}
