package results

import (
	"bytes"
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// runRows makes reps rows per cell: value = center * (1 + spread*u), u
// uniform in [-1, 1] from a seeded generator.
func runRows(seed uint64, reps int, cells map[string][]Metric, spread map[string]float64) []Row {
	rng := rand.New(rand.NewPCG(seed, 7))
	var rows []Row
	for _, cell := range sortedKeys(cells) {
		for rep := 0; rep < reps; rep++ {
			var ms []Metric
			for _, m := range cells[cell] {
				v := m.Value * (1 + spread[cell]*(2*rng.Float64()-1))
				ms = append(ms, Metric{m.Unit, round4(v)})
			}
			rows = append(rows, Row{Cell: cell, Rep: rep, OK: true, Metrics: ms})
		}
	}
	return rows
}

func sortedKeys(m map[string][]Metric) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	_ = sortCells(ks, []string{"path", "batch"})
	return ks
}

func compareFixture() (old, new []Row) {
	spread := map[string]float64{
		"path=fast/batch=1024":    0.005, // tight: a 10% drop must be flagged
		"path=fast/batch=8192":    0.08,  // noisy: no real change
		"path=rowwise/batch=1024": 0.005, // tight: 10% faster, an improvement
		"path=rowwise/batch=8192": 0.002, // tight: 2% slower, under the threshold
	}
	old = runRows(1, 8, map[string][]Metric{
		"path=fast/batch=1024":    {{"rec/s", 4e6}, {"ns/rec", 250}, {"window-ms", 500}},
		"path=fast/batch=8192":    {{"rec/s", 4.5e6}, {"ns/rec", 222}, {"window-ms", 450}},
		"path=rowwise/batch=1024": {{"rec/s", 1e6}, {"ns/rec", 1000}, {"window-ms", 2000}},
		"path=rowwise/batch=8192": {{"rec/s", 1.1e6}, {"ns/rec", 909}, {"window-ms", 1800}},
		"path=shallow/batch=1024": {{"rec/s", 2e6}, {"ns/rec", 500}, {"window-ms", 1000}},
	}, spread)
	new = runRows(2, 8, map[string][]Metric{
		"path=fast/batch=1024":    {{"rec/s", 3.6e6}, {"ns/rec", 277.8}, {"window-ms", 556}},
		"path=fast/batch=8192":    {{"rec/s", 4.5e6}, {"ns/rec", 222}, {"window-ms", 450}},
		"path=rowwise/batch=1024": {{"rec/s", 1.1e6}, {"ns/rec", 909}, {"window-ms", 1800}},
		"path=rowwise/batch=8192": {{"rec/s", 1.078e6}, {"ns/rec", 927.6}, {"window-ms", 1836}},
		"path=fast/batch=65536":   {{"rec/s", 4.6e6}, {"ns/rec", 217}, {"window-ms", 440}},
	}, spread)
	return old, new
}

func TestCompareGolden(t *testing.T) {
	old, new := compareFixture()
	c, err := Compare(old, new, DefaultThreshold)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := c.WriteText(&buf); err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "compare.txt", buf.Bytes())
}

func TestCompareRegressions(t *testing.T) {
	old, new := compareFixture()
	c, err := Compare(old, new, DefaultThreshold)
	if err != nil {
		t.Fatal(err)
	}
	row := func(cell, unit string) CompareRow {
		for _, r := range c.Rows {
			if r.Cell == cell && r.Unit == unit {
				return r
			}
		}
		t.Fatalf("no row %s %s", cell, unit)
		return CompareRow{}
	}
	// A 10% rec/s drop with tight samples is flagged, and so is the
	// matching ns/rec rise (lower is better there).
	drop := row("path=fast/batch=1024", "rec/s")
	if !drop.Regression || math.Abs(drop.By-0.10) > 0.02 {
		t.Errorf("10%% drop: regression=%v by=%.3f delta=%+v", drop.Regression, drop.By, drop.New.Delta)
	}
	if !row("path=fast/batch=1024", "ns/rec").Regression {
		t.Error("ns/rec rise not flagged")
	}
	// Noise with no real change is not.
	noise := row("path=fast/batch=8192", "rec/s")
	if noise.Regression || noise.New.Delta.Significant {
		t.Errorf("noise flagged: %+v", noise.New.Delta)
	}
	// A significant improvement is not a regression.
	up := row("path=rowwise/batch=1024", "rec/s")
	if up.Regression || up.Worse || !up.New.Delta.Significant {
		t.Errorf("improvement: worse=%v regression=%v significant=%v", up.Worse, up.Regression, up.New.Delta.Significant)
	}
	// A significant 2% worsening is under the 5% threshold, but over 1%.
	small := row("path=rowwise/batch=8192", "rec/s")
	if small.Regression || !small.Worse || !small.New.Delta.Significant {
		t.Errorf("2%% drop: worse=%v regression=%v significant=%v", small.Worse, small.Regression, small.New.Delta.Significant)
	}
	// window-ms is informational.
	if w := row("path=fast/batch=1024", "window-ms"); w.Regression || w.Worse {
		t.Errorf("window-ms judged: %+v", w)
	}
	if got := len(c.Regressions()); got != 2 {
		t.Errorf("%d regressions, want 2", got)
	}
	strict, err := Compare(old, new, 0.01)
	if err != nil {
		t.Fatal(err)
	}
	if got := len(strict.Regressions()); got != 4 {
		t.Errorf("threshold 1%%: %d regressions, want 4", got)
	}
	if strings.Join(c.OnlyOld, ",") != "path=shallow/batch=1024" || strings.Join(c.OnlyNew, ",") != "path=fast/batch=65536" {
		t.Errorf("only old %v, only new %v", c.OnlyOld, c.OnlyNew)
	}
	for _, bad := range []float64{-0.1, math.NaN(), math.Inf(1)} {
		if _, err := Compare(old, new, bad); err == nil {
			t.Errorf("threshold %v accepted", bad)
		}
	}
}

func TestBetter(t *testing.T) {
	for unit, want := range map[string]Direction{
		"rec/s": HigherIsBetter, "MB/s": HigherIsBetter,
		"ns/rec": LowerIsBetter, "cpu-ns/rec": LowerIsBetter, "B/rec": LowerIsBetter, "allocs/rec": LowerIsBetter,
		"peak-RSS-MB": LowerIsBetter, "ckpt-p50-ms": LowerIsBetter, "ckpt-p99-ms": LowerIsBetter,
		"ckpt-max-ms": LowerIsBetter, "ckpt-align-p99-ms": LowerIsBetter, "recover-ms": LowerIsBetter,
		"replay-rec": LowerIsBetter, "window-ms": Neutral, "ckpt-count": Neutral, "bogus": Neutral,
	} {
		if got := Better(unit); got != want {
			t.Errorf("Better(%s) = %d, want %d", unit, got, want)
		}
	}
	if worse, by := Worse("rec/s", 100, 90); !worse || math.Abs(by-0.1) > 1e-9 {
		t.Errorf("rec/s 100->90: worse=%v by=%v", worse, by)
	}
	if worse, _ := Worse("ns/rec", 100, 90); worse {
		t.Error("ns/rec 100->90 called worse")
	}
	if worse, _ := Worse("ns/rec", 0, 90); worse {
		t.Error("zero baseline called worse")
	}
}

func TestCompareComplete(t *testing.T) {
	old, new := compareFixture()
	failed := func(rows []Row) []Row {
		out := make([]Row, len(rows))
		for i, r := range rows {
			out[i] = Row{Cell: r.Cell, Rep: r.Rep, Reason: "exit status 1: boom"}
		}
		return out
	}
	keep := func(rows []Row, cell string) []Row {
		var out []Row
		for _, r := range rows {
			if r.Cell == cell {
				out = append(out, r)
			}
		}
		return out
	}
	cases := []struct {
		name     string
		old, new []Row
		want     string // "" = complete
	}{
		{"same cells", old, old, ""},
		{"new adds cells", keep(old, "path=fast/batch=1024"), old, ""},
		{"every new cell failed", old, failed(new), "results: compare: comparison incomplete: new measured nothing (40 journal rows, none OK)"},
		{"new is empty", old, nil, "results: compare: comparison incomplete: new measured nothing (0 journal rows, none OK)"},
		{"every old cell failed", failed(old), new, "results: compare: comparison incomplete: old measured nothing (40 journal rows, none OK)"},
		{"one cell missing", old, new, "results: compare: comparison incomplete: new lacks 1 cell(s) old measured: path=shallow/batch=1024"},
		{"many cells missing", old, keep(new, "path=fast/batch=65536"),
			"results: compare: comparison incomplete: new lacks 5 cell(s) old measured: path=fast/batch=1024, path=fast/batch=8192, path=rowwise/batch=1024 and 2 more"},
	}
	for _, tc := range cases {
		cmp, err := Compare(tc.old, tc.new, DefaultThreshold)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		err = cmp.Complete()
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: Complete() = %v, want nil", tc.name, err)
		case tc.want != "" && (err == nil || err.Error() != tc.want || !errors.Is(err, ErrIncomplete)):
			t.Errorf("%s: Complete() = %v\nwant %s", tc.name, err, tc.want)
		}
		if tc.want != "" {
			var buf bytes.Buffer
			if err := cmp.WriteText(&buf); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(buf.String(), "INCOMPLETE: ") {
				t.Errorf("%s: text lacks the INCOMPLETE line:\n%s", tc.name, buf.String())
			}
		}
	}
}
