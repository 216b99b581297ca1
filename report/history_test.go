package report

import (
	"strings"
	"testing"

	"github.com/fastpathlab/fplab/results/resultstest"
)

// Options.History is the section on where the run stands against the
// history (written by results/history): it follows the run's facts, and a
// report without one has none.
func TestReportAgainstHistory(t *testing.T) {
	dir := resultstest.TempRun(t, "run", resultstest.Manifest(), resultstest.GapRows())
	run := mustRun(t, dir)
	section := "## Against the history\n\nAgainst the last 10 runs of each cell on this host: 1 of 2 figures lie outside.\n"
	md := mustRender(t, run, Options{NoPlots: true, History: section})
	i, j := strings.Index(md, "## Against the history"), strings.Index(md, "| measured-time fraction")
	if i < 0 || j < 0 || i < j {
		t.Errorf("the history section is missing or before the run's facts:\n%s", md)
	}
	if plain := mustRender(t, run, Options{NoPlots: true}); strings.Contains(plain, "Against the history") {
		t.Error("a report without a history has the section")
	}
}
