package plots

import (
	"errors"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fastpathlab/fplab/cell"
	"github.com/fastpathlab/fplab/results"
	"github.com/fastpathlab/fplab/results/resultstest"
)

func figureByName(t *testing.T, figs []Figure, name string) Figure {
	t.Helper()
	for _, f := range figs {
		if f.Name == name {
			return f
		}
	}
	t.Fatalf("no figure %s among %d", name, len(figs))
	return Figure{}
}

func TestPlanFixture(t *testing.T) {
	figs := mustPlan(t, resultstest.SweepRows(), Options{})
	var names []string
	for _, f := range figs {
		names = append(names, f.Name)
		live := f.Name == latencyFigureName || f.Name == lagFigureName || f.Name == latencyBatchFigureName || f.Name == maxRateFigureName
		want := "no live cells (mode=live or maxrate) in this run"
		switch f.Name {
		case latencyBatchFigureName:
			want = "no live cells (mode=live) in this run"
		case maxRateFigureName:
			want = "no max-rate-rec/s samples (no mode=maxrate cells in this run)"
		}
		if live && f.Skip != want {
			t.Errorf("live figure %s: skip %q, want %q", f.Name, f.Skip, want)
		}
		if f.Skip != "" && !live {
			t.Errorf("figure %s skipped: %s", f.Name, f.Skip)
		}
		if strings.Contains(f.Title, EmulatedLabel) {
			t.Errorf("figure %s carries the emulated label in a native run", f.Name)
		}
	}
	if got, want := strings.Join(names, " "), "overview by-path by-batch by-brokers by-alloc by-crc throughput-json tradeoff-json alloc-json crc-json brokers-json latency-percentiles lag latency-batch max-rate"; got != want {
		t.Fatalf("figures = %s, want %s", got, want)
	}

	thr := figureByName(t, figs, "throughput-json")
	p := thr.Panels[0]
	if !p.LogX || len(p.Lines) != 3 {
		t.Fatalf("throughput panel: logx=%v lines=%d", p.LogX, len(p.Lines))
	}
	if p.Lines[0].Label != "rowwise" || p.Lines[2].Label != "fast" {
		t.Errorf("line order %s..%s, want rowwise..fast", p.Lines[0].Label, p.Lines[2].Label)
	}
	fast := p.Lines[2]
	if len(fast.Points) != 4 || fast.Points[0].X != 256 || fast.Points[3].X != 65536 {
		t.Fatalf("fast points %+v", fast.Points)
	}
	for _, pt := range fast.Points {
		if pt.N != 3 || !(pt.Min <= pt.Median && pt.Median <= pt.Max) || pt.Median < 1e6 {
			t.Errorf("point %+v: want 3 reps, min <= median <= max, rec/s scale", pt)
		}
	}
	if !strings.Contains(thr.Caption, "median of 3 repetitions") || !strings.Contains(thr.Caption, "min–max") ||
		!strings.Contains(thr.Caption, "Held: brokers=3 alloc=go crc=off") {
		t.Errorf("caption %q", thr.Caption)
	}

	tr := figureByName(t, figs, "tradeoff-json")
	if len(tr.Panels) != 3 || tr.Panels[1].BudgetY != results.DefaultBudgetMs {
		t.Fatalf("trade-off panels=%d budget=%v", len(tr.Panels), tr.Panels[1].BudgetY)
	}
	if len(tr.Panels[1].Marks) != 3 || tr.Panels[1].Marks[0].X != 8192 {
		t.Errorf("knee marks %+v, want one per path at 8192", tr.Panels[1].Marks)
	}

	br := figureByName(t, figs, "brokers-json")
	bp := br.Panels[0]
	if bp.Kind != BarPanel || strings.Join(bp.Groups, ",") != "rowwise,shallow,fast" || len(bp.Bars) != 2 {
		t.Fatalf("brokers panel %+v", bp)
	}
	if bp.Bars[0].Label != "brokers=1" || bp.Bars[0].Values[0].N != 0 || bp.Bars[0].Values[1].N != 3 {
		t.Errorf("brokers=1 bars %+v: want a gap for rowwise (failed) and 3 reps for shallow", bp.Bars[0])
	}
	if !strings.Contains(br.Caption, "n/a") || !strings.Contains(br.Caption, "Held: batch=8192 alloc=go crc=off") {
		t.Errorf("caption %q", br.Caption)
	}
}

func TestPlanEmulatedTitles(t *testing.T) {
	for _, f := range mustPlan(t, resultstest.SweepRows(), Options{Emulated: true}) {
		if !strings.Contains(f.Title, EmulatedLabel) {
			t.Errorf("figure %s title %q lacks %q", f.Name, f.Title, EmulatedLabel)
		}
	}
}

func TestPlanSkips(t *testing.T) {
	ok := func(cell string, ms ...results.Metric) results.Row {
		return results.Row{Cell: cell, OK: true, Metrics: ms}
	}
	rate := results.Metric{Unit: results.UnitRecPerSec, Value: 1e6}
	tests := []struct {
		name string
		rows []results.Row
		fig  string
		want string
	}{
		{"no rows", nil, "throughput", "no cells"},
		{"one batch size", []results.Row{ok("path=fast/format=json/batch=8192/alloc=go", rate)}, "throughput-json", "one batch size only (8192)"},
		{"only failed rows", []results.Row{{Cell: "path=fast/format=json/batch=8192"}}, "throughput-json", "no rec/s samples"},
		{"no checkpoints", []results.Row{
			ok("path=fast/format=json/batch=256", rate), ok("path=fast/format=json/batch=8192", rate),
		}, "tradeoff-json", "no ckpt-p99-ms samples"},
		{"one allocator", []results.Row{
			ok("path=fast/format=json/batch=256/alloc=go", rate), ok("path=fast/format=json/batch=8192/alloc=go", rate),
		}, "alloc-json", "alloc takes one value (go)"},
		{"no crc axis", []results.Row{ok("path=fast/format=json/batch=256", rate)}, "crc-json", "no cell name has a part crc="},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := figureByName(t, mustPlan(t, tt.rows, Options{}), tt.fig)
			if !strings.Contains(f.Skip, tt.want) || len(f.Panels) != 0 {
				t.Errorf("skip = %q (panels %d), want it to contain %q", f.Skip, len(f.Panels), tt.want)
			}
		})
	}
}

func TestSelectCellsPrefersCoverageThenPreference(t *testing.T) {
	rate := []results.Metric{{Unit: results.UnitRecPerSec, Value: 1}}
	rows := []results.Row{
		{Cell: "path=fast/format=json/batch=1/brokers=1", OK: true, Metrics: rate},
		{Cell: "path=fast/format=json/batch=2/brokers=1", OK: true, Metrics: rate},
		{Cell: "path=fast/format=json/batch=1/brokers=3", OK: true, Metrics: rate},
		{Cell: "path=fast/format=json/batch=2/brokers=3", OK: true, Metrics: rate},
		{Cell: "path=fast/format=json/batch=1/brokers=5", OK: true, Metrics: rate},
	}
	cells := newDataset(sweptOf(t, rows)).cells
	fixed := map[string]string{cell.Format: "json"}
	vary := []string{cell.Path, cell.Batch}
	sel, _ := selectCells(cells, fixed, vary, results.UnitRecPerSec, nil)
	if sel.held[cell.Brokers] != "1" || len(sel.cells) != 2 {
		t.Errorf("no preference: held %v with %d cells, want brokers=1 (first of the two full settings)", sel.held, len(sel.cells))
	}
	sel, _ = selectCells(cells, fixed, vary, results.UnitRecPerSec, map[string]string{cell.Brokers: "3"})
	if sel.held[cell.Brokers] != "3" {
		t.Errorf("prefer brokers=3: held %v", sel.held)
	}
	sel, _ = selectCells(cells, fixed, vary, results.UnitRecPerSec, map[string]string{cell.Brokers: "5"})
	if sel.held[cell.Brokers] == "5" {
		t.Errorf("preference must not beat coverage: held %v", sel.held)
	}
	if _, ok := selectCells(cells, fixed, vary, results.UnitCkptP99, nil); ok {
		t.Error("selection without any sample of the unit reported ok")
	}
}

func TestSummarize(t *testing.T) {
	inf := math.Inf(1)
	tests := []struct {
		in   []float64
		want Stat
	}{
		{nil, Stat{}},
		{[]float64{5}, Stat{Median: 5, Min: 5, Max: 5, N: 1, Lo: -inf, Hi: inf}},
		{[]float64{3, 1, 2}, Stat{Median: 2, Min: 1, Max: 3, N: 3, Lo: -inf, Hi: inf}},
		{[]float64{4, 1, 3, 2}, Stat{Median: 2.5, Min: 1, Max: 4, N: 4, Lo: -inf, Hi: inf}},
		// Six repetitions are the fewest with a 95% interval: the
		// extreme order statistics, as benchstat prints for n=6.
		{[]float64{6, 1, 5, 2, 4, 3}, Stat{Median: 3.5, Min: 1, Max: 6, N: 6, Lo: 1, Hi: 6}},
		{[]float64{7, 1, 5, 2, 4, 3, 6, 8, 9, 10}, Stat{Median: 5.5, Min: 1, Max: 10, N: 10, Lo: 2, Hi: 9}},
	}
	for _, tt := range tests {
		in := append([]float64(nil), tt.in...)
		if got := summarize(in); got != tt.want {
			t.Errorf("summarize(%v) = %+v, want %+v", tt.in, got, tt.want)
		}
		if !slices.Equal(in, tt.in) {
			t.Errorf("summarize reordered its input: %v", in)
		}
	}
	if (Stat{Median: 1, N: 3, Lo: math.Inf(-1), Hi: inf}).HasInterval() || !(Stat{Median: 1, N: 6, Lo: 0.9, Hi: 1.1}).HasInterval() {
		t.Error("HasInterval disagrees with the bounds")
	}
}

func TestDatasetLastRowWinsAndDropsAA(t *testing.T) {
	rows := []results.Row{
		{Cell: "path=fast/format=json", Rep: 0, Reason: "crash"},
		{Cell: "path=fast/format=json", Rep: 0, OK: true, Metrics: []results.Metric{{Unit: "rec/s", Value: 7}, {Unit: "rec/s", Value: 8}}},
		{Cell: "path=fast/format=json/aa=a", Rep: 0, OK: true, Metrics: []results.Metric{{Unit: "rec/s", Value: 1}}},
	}
	ds := newDataset(sweptOf(t, rows))
	if len(ds.cells) != 1 {
		t.Fatalf("cells = %d, want 1 (A/A cell dropped)", len(ds.cells))
	}
	c := ds.cells[0]
	if c.ok != 1 || c.failed != 0 || len(c.samples["rec/s"]) != 1 || c.samples["rec/s"][0] != 7 {
		t.Errorf("cell %+v: want the resumed OK row only, first value of a repeated unit", c)
	}
}

func TestTradeoffKeepsThroughputOfCellsWithoutCheckpoints(t *testing.T) {
	m := func(rate, p99 float64) []results.Metric {
		ms := []results.Metric{{Unit: results.UnitRecPerSec, Value: rate}}
		if p99 > 0 {
			ms = append(ms, results.Metric{Unit: results.UnitCkptP99, Value: p99})
		}
		return ms
	}
	rows := []results.Row{
		{Cell: "path=fast/format=json/batch=256/crc=off", OK: true, Metrics: m(1e6, 10)},
		{Cell: "path=fast/format=json/batch=4096/crc=off", OK: true, Metrics: m(2e6, 50)},
		{Cell: "path=fast/format=json/batch=65536/crc=off", OK: true, Metrics: m(3e6, 0)},
		{Cell: "path=fast/format=json/batch=65536/crc=on", OK: true, Metrics: m(9e6, 0)},
	}
	fig := figureByName(t, mustPlan(t, rows, Options{}), "tradeoff-json")
	if fig.Skip != "" || len(fig.Panels) != 2 {
		t.Fatalf("skip %q, %d panels; want throughput and p99 panels", fig.Skip, len(fig.Panels))
	}
	rate := fig.Panels[0].Lines[0].Points
	if len(rate) != 3 || rate[2].X != 65536 || rate[2].Median != 3e6 {
		t.Errorf("throughput points %+v: want 256, 4096 and 65536 (crc=off only)", rate)
	}
	if p99 := fig.Panels[1].Lines[0].Points; len(p99) != 2 {
		t.Errorf("p99 points %+v, want the two cells with checkpoints", p99)
	}
	if !strings.Contains(fig.Caption, "No replay-rec samples") {
		t.Errorf("caption %q does not say replay is missing", fig.Caption)
	}
}

// analyze is results.Analyze of rows with the default options, as the
// report builds it.
func analyze(t testing.TB, rows []results.Row) *results.Analysis {
	t.Helper()
	a, err := results.Analyze(rows, results.AnalysisOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// mustPlan is Plan of rows' analysis for options a test knows are valid.
func mustPlan(t testing.TB, rows []results.Row, opt Options) []Figure {
	t.Helper()
	figs, err := Plan(analyze(t, rows), opt)
	if err != nil {
		t.Fatal(err)
	}
	return figs
}

// writeRows plans rows' figures and writes them, as the report does.
func writeRows(t testing.TB, dir string, rows []results.Row, opt Options) ([]string, error) {
	t.Helper()
	return WriteAll(dir, mustPlan(t, rows, opt), opt)
}

// sweptOf is the swept cells of rows' analysis: the dataset's input.
func sweptOf(t testing.TB, rows []results.Row) []*results.CellSamples {
	t.Helper()
	return analyze(t, rows).Sweep.Cells()
}

// TestOptionsRefused: a bad option is an error naming the field and its
// bound, from Plan and WriteAll alike, and nothing is drawn.
func TestOptionsRefused(t *testing.T) {
	for _, tc := range []struct {
		opt  Options
		want string
	}{
		{Options{Formats: []string{"png", "jpeg"}}, `Options.Formats has "jpeg", want some of png, svg`},
	} {
		if _, err := Plan(analyze(t, resultstest.SmokeRows()), tc.opt); err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("Plan(%+v) = %v, want %q", tc.opt, err, tc.want)
		}
		dir := t.TempDir()
		if files, err := WriteAll(dir, mustPlan(t, resultstest.SmokeRows(), Options{}), tc.opt); err == nil || len(files) != 0 {
			t.Errorf("WriteAll(%+v) = %v, %v", tc.opt, files, err)
		}
		if _, err := os.Stat(filepath.Join(dir, Dir)); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("WriteAll(%+v) made %s: %v", tc.opt, Dir, err)
		}
	}
}

// TestPlanDrawsTheAnalysisKnee: the trade-off figure rings the knee and
// draws the budget the analysis holds; it finds neither again.
func TestPlanDrawsTheAnalysisKnee(t *testing.T) {
	a := analyze(t, resultstest.SweepRows())
	if len(a.Knee) == 0 {
		t.Fatal("no knee in the sweep")
	}
	a.BudgetMs = 77
	for i := range a.Knee {
		a.Knee[i].Batch = 3
	}
	figs, err := Plan(a, Options{})
	if err != nil {
		t.Fatal(err)
	}
	p99 := figureByName(t, figs, "tradeoff-json").Panels[1]
	if p99.BudgetY != 77 || len(p99.Marks) == 0 {
		t.Fatalf("budget %v, %d marks; want the analysis's 77 ms and its knee", p99.BudgetY, len(p99.Marks))
	}
	for _, m := range p99.Marks {
		if m.X != 3 {
			t.Errorf("mark at batch %v, want the analysis's 3", m.X)
		}
	}
}
