package report

import (
	"strings"
	"testing"

	"github.com/fastpathlab/fplab/results/history"
	"github.com/fastpathlab/fplab/results/resultstest"
)

// With Options.History the report says where the run stands against the
// history, the figures outside their past range in a table; without it,
// nothing.
func TestReportAgainstHistory(t *testing.T) {
	dir := resultstest.TempRun(t, "run", resultstest.Manifest(), resultstest.GapRows())
	run := mustRun(t, dir)
	h := &History{Store: "results/history.sqlite", Last: 10, Skipped: 3, Standings: []history.Standing{
		{Cell: "path=fast/batch=8192", Unit: "rec/s", Now: 1.5e6, Past: []float64{2e6, 2.1e6, 1.9e6}, Median: 2e6, Min: 1.9e6, Max: 2.1e6,
			Threshold: 0.02, Outside: true, Worse: true},
		{Cell: "path=shallow/batch=8192", Unit: "rec/s", Now: 1e6, Past: []float64{1e6, 1.01e6, 0.99e6}, Median: 1e6, Min: 0.99e6, Max: 1.01e6, Threshold: 0.02},
	}}
	md := mustRender(t, run, Options{NoPlots: true, History: h})
	lacks(t, "report", md,
		"## Against the history",
		"1 of 2 figures lie outside the range of those runs by more than the run's A/A floor (or 1%), 1 of them for the worse; 3 figures have fewer than 3 past runs",
		"| path=fast/batch=8192 | rec/s | 1.500M | 2.000M (3 runs) | 1.900M .. 2.100M | -25.0% | worse |",
	)
	if strings.Contains(md, "path=shallow/batch=8192 | rec/s | 1.000M") {
		t.Errorf("a figure within its range is in the table:\n%s", md)
	}
	if plain := mustRender(t, run, Options{NoPlots: true}); strings.Contains(plain, "Against the history") {
		t.Error("a report without a history has the section")
	}
}
