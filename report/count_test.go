package report

import (
	"slices"
	"strings"
	"testing"

	"github.com/fastpathlab/fplab/plots"
	"github.com/fastpathlab/fplab/results"
)

// resumedRows is a journal a resumed ladder leaves: cell fast ran rep 0
// (100) and rep 2 (120), rep 1 failed when the broker died; the resumed
// ladder ran rep 0 again (110, printing rec/s twice: 110 then 999) and
// rep 1 (105). Cell rowwise ran its three reps once. Counted by results'
// one rule (the last row of a (cell, rep) pair, the first value of a
// unit), fast has three successful repetitions, 105, 110 and 120, and
// nothing failed.
func resumedRows() []results.Row {
	const fast, rowwise = "path=fast/format=json", "path=rowwise/format=json"
	ok := func(cell string, rep int, vs ...float64) results.Row {
		r := results.Row{Cell: cell, Rep: rep, OK: true}
		for _, v := range vs {
			r.Metrics = append(r.Metrics, results.Metric{Unit: results.UnitRecPerSec, Value: v})
		}
		return r
	}
	return []results.Row{
		ok(fast, 0, 100),
		{Cell: fast, Rep: 1, Reason: "broker died", Signal: "killed"},
		ok(fast, 2, 120),
		ok(rowwise, 0, 50), ok(rowwise, 1, 51), ok(rowwise, 2, 52),
		ok(fast, 0, 110, 999),
		ok(fast, 1, 105),
	}
}

// TestResumedRunCountsTheSameEverywhere: the tables, the figures, the
// on/off ratios and the report count one journal's repetitions alike.
func TestResumedRunCountsTheSameEverywhere(t *testing.T) {
	rows := resumedRows()
	const fast = "path=fast/format=json"
	want := []float64{105, 110, 120}

	tables, err := results.BuildTables(results.NewIndex(rows), results.TableOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(tables) != 1 || tables[0].Axis != "path" {
		t.Fatalf("tables: %d, want rec/s by path", len(tables))
	}
	var st *results.Stat
	for j, c := range tables[0].Cols {
		if c == "fast" {
			st = tables[0].Rows[0].Cells[j]
		}
	}
	if st == nil || !slices.Equal(st.Values, want) || st.Center != 110 {
		t.Errorf("table cell = %+v, want values %v, median 110", st, want)
	}

	var fig *plots.Figure
	a, err := results.Analyze(rows, results.AnalysisOptions{})
	if err != nil {
		t.Fatal(err)
	}
	figs, err := plots.Plan(a, plots.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range figs {
		if f.Name == "overview" {
			fig = &f
		}
	}
	if fig == nil || len(fig.Panels) == 0 {
		t.Fatal("no overview figure")
	}
	found := false
	for _, r := range fig.Panels[0].Rows {
		if strings.Contains(r.Label, "fast") {
			found = true
			if r.Stat.N != 3 || r.Stat.Median != 110 || strings.Contains(r.Label, "failed") {
				t.Errorf("overview row %q: N=%d median=%v, want 3 and 110, nothing failed", r.Label, r.Stat.N, r.Stat.Median)
			}
		}
	}
	if !found {
		t.Errorf("overview has no row for %s", fast)
	}

	if got := a.Sweep.Values(fast, results.UnitRecPerSec); !slices.Equal(slices.Sorted(slices.Values(got)), want) {
		t.Errorf("Values = %v, want %v", got, want)
	}

	md := mustRender(t, results.Run{Dir: t.TempDir(), Rows: rows}, Options{NoPlots: true})
	for _, s := range []string{
		"| journal | 2 cells, 6 repetitions (0 failed) |",
		"None: every repetition of every cell succeeded.",
	} {
		if !strings.Contains(md, s) {
			t.Errorf("report lacks %q", s)
		}
	}
	if strings.Contains(md, "broker died") {
		t.Error("the report lists the failure the resumed ladder replaced")
	}
}

// TestCellsFallbackCountsResumedRun: with no swept axis the report's one
// table per cell counts the resumed run as the tables would.
func TestCellsFallbackCountsResumedRun(t *testing.T) {
	var rows []results.Row
	for _, r := range resumedRows() {
		if strings.HasPrefix(r.Cell, "path=fast/") {
			rows = append(rows, r)
		}
	}
	var b strings.Builder
	writeCells(&b, &notes{}, results.NewIndex(rows))
	if want := "| `path=fast/format=json` | 110.0 (n=3) |"; !strings.Contains(b.String(), want) {
		t.Errorf("cells table lacks %q:\n%s", want, b.String())
	}
}
