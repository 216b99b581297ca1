package results_test

import (
	"bytes"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/fastpathlab/fplab/internal/golden"
	"github.com/fastpathlab/fplab/results"
	"github.com/fastpathlab/fplab/results/resultstest"
)

func TestCompareGolden(t *testing.T) {
	old, new := resultstest.CompareRows()
	c, err := results.Compare(old, new, results.DefaultThreshold)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := c.WriteText(&buf); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "compare.txt.golden", buf.Bytes())
}

func TestCompareRegressions(t *testing.T) {
	old, new := resultstest.CompareRows()
	c, err := results.Compare(old, new, results.DefaultThreshold)
	if err != nil {
		t.Fatal(err)
	}
	row := func(cell, unit string) results.CompareRow {
		for _, r := range c.Rows {
			if r.Cell == cell && r.Unit == unit {
				return r
			}
		}
		t.Fatalf("no row %s %s", cell, unit)
		return results.CompareRow{}
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
	strict, err := results.Compare(old, new, 0.01)
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
		if _, err := results.Compare(old, new, bad); err == nil {
			t.Errorf("threshold %v accepted", bad)
		}
	}
}

func TestBetter(t *testing.T) {
	for unit, want := range map[string]results.Direction{
		"rec/s": results.HigherIsBetter, "MB/s": results.HigherIsBetter,
		"ns/rec": results.LowerIsBetter, "cpu-ns/rec": results.LowerIsBetter, "B/rec": results.LowerIsBetter, "allocs/rec": results.LowerIsBetter,
		"peak-RSS-MB": results.LowerIsBetter, "ckpt-p50-ms": results.LowerIsBetter, "ckpt-p99-ms": results.LowerIsBetter,
		"ckpt-max-ms": results.LowerIsBetter, "ckpt-align-p99-ms": results.LowerIsBetter, "recover-ms": results.LowerIsBetter,
		"replay-rec": results.LowerIsBetter, "window-ms": results.Neutral, "ckpt-count": results.Neutral, "bogus": results.Neutral,
	} {
		if got := results.Better(unit); got != want {
			t.Errorf("Better(%s) = %d, want %d", unit, got, want)
		}
	}
	if worse, by := results.Worse("rec/s", 100, 90); !worse || math.Abs(by-0.1) > 1e-9 {
		t.Errorf("rec/s 100->90: worse=%v by=%v", worse, by)
	}
	if worse, _ := results.Worse("ns/rec", 100, 90); worse {
		t.Error("ns/rec 100->90 called worse")
	}
	if worse, _ := results.Worse("ns/rec", 0, 90); worse {
		t.Error("zero baseline called worse")
	}
}

func TestCompareComplete(t *testing.T) {
	old, new := resultstest.CompareRows()
	failed := func(rows []results.Row) []results.Row {
		out := make([]results.Row, len(rows))
		for i, r := range rows {
			out[i] = results.Row{Cell: r.Cell, Rep: r.Rep, Reason: "exit status 1: boom"}
		}
		return out
	}
	keep := func(rows []results.Row, cell string) []results.Row {
		var out []results.Row
		for _, r := range rows {
			if r.Cell == cell {
				out = append(out, r)
			}
		}
		return out
	}
	cases := []struct {
		name     string
		old, new []results.Row
		want     string // "" = complete
	}{
		{"same cells", old, old, ""},
		{"new adds cells", keep(old, "path=fast/batch=1024"), old, ""},
		{"every new cell failed", old, failed(new), "comparison incomplete: new measured nothing (40 journal rows, none OK)"},
		{"new is empty", old, nil, "comparison incomplete: new measured nothing (0 journal rows, none OK)"},
		{"every old cell failed", failed(old), new, "comparison incomplete: old measured nothing (40 journal rows, none OK)"},
		{"one cell missing", old, new, "comparison incomplete: new lacks 1 cell(s) old measured: path=shallow/batch=1024"},
		{"many cells missing", old, keep(new, "path=fast/batch=65536"),
			"comparison incomplete: new lacks 5 cell(s) old measured: path=fast/batch=1024, path=fast/batch=8192, path=rowwise/batch=1024 and 2 more"},
	}
	for _, tc := range cases {
		cmp, err := results.Compare(tc.old, tc.new, results.DefaultThreshold)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		err = cmp.Complete()
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: Complete() = %v, want nil", tc.name, err)
		case tc.want != "" && (err == nil || err.Error() != tc.want || !errors.Is(err, results.ErrIncomplete)):
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

// TestCompareAANoise: an A/A cell that got significantly worse is the
// host's noise between the runs, marked and never counted as a
// regression; the swept cell it repeats still is.
func TestCompareAANoise(t *testing.T) {
	mk := func(center float64) []results.Row {
		var rows []results.Row
		for rep := range 8 {
			v := center * (1 + 0.002*float64(rep%3))
			for _, c := range []string{"path=fast/batch=1024", "path=fast/batch=1024/aa=b"} {
				rows = append(rows, results.Row{Cell: c, Rep: rep, OK: true, Metrics: []results.Metric{{Unit: "rec/s", Value: v}}})
			}
		}
		return rows
	}
	c, err := results.Compare(mk(4e6), mk(3.6e6), results.DefaultThreshold)
	if err != nil {
		t.Fatal(err)
	}
	var aa, swept *results.CompareRow
	for i := range c.Rows {
		switch c.Rows[i].Cell {
		case "path=fast/batch=1024/aa=b":
			aa = &c.Rows[i]
		case "path=fast/batch=1024":
			swept = &c.Rows[i]
		}
	}
	if aa == nil || swept == nil {
		t.Fatalf("rows %+v", c.Rows)
	}
	if aa.Regression || !aa.Noise {
		t.Errorf("A/A cell: regression=%v noise=%v", aa.Regression, aa.Noise)
	}
	if !swept.Regression || swept.Noise {
		t.Errorf("swept cell: regression=%v noise=%v", swept.Regression, swept.Noise)
	}
	if reg := c.Regressions(); len(reg) != 1 || reg[0].Cell != "path=fast/batch=1024" {
		t.Errorf("regressions %+v", reg)
	}
	var buf bytes.Buffer
	if err := c.WriteText(&buf); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "A/A cell worse by 10.0%: host noise, not a regression") {
		t.Errorf("no noise note:\n%s", buf.String())
	}
}

// TestCompareWithinFloor: with a complete A/A pair in both runs, a cell
// that got significantly worse by less than the wider A/A floor is marked
// and not counted; a larger move still is, and so is a micro-benchmark
// row, whose noise the pair does not measure.
func TestCompareWithinFloor(t *testing.T) {
	spread := []float64{0.80, 1.20, 0.90, 1.10, 0.85, 1.15, 0.95, 1.05}
	mk := func(small, large, micro float64) []results.Row {
		var rows []results.Row
		for rep, f := range spread {
			for _, c := range []struct {
				name, unit string
				v          float64
			}{
				{"path=fast/batch=1024/aa=a", "rec/s", 4e6 * f},
				{"path=fast/batch=1024/aa=b", "rec/s", 4e6 * spread[(rep+3)%len(spread)]},
				{"path=fast/batch=1024", "rec/s", small * (1 + 0.001*float64(rep))},
				{"path=fast/batch=8192", "rec/s", large * (1 + 0.001*float64(rep))},
				{"micro=decode/format=json/lib=lab", "dec-ns/rec", micro * (1 + 0.001*float64(rep))},
			} {
				rows = append(rows, results.Row{Cell: c.name, Rep: rep, OK: true, Metrics: []results.Metric{{Unit: c.unit, Value: c.v}}})
			}
		}
		return rows
	}
	c, err := results.Compare(mk(4e6, 4e6, 200), mk(3.6e6, 2e6, 220), results.DefaultThreshold)
	if err != nil {
		t.Fatal(err)
	}
	floor := c.Floors["rec/s"]
	if floor <= 0.10 || floor >= 0.5 {
		t.Fatalf("A/A floor on rec/s %.3f, want between 10%% and 50%% for this spread", floor)
	}
	got := map[string]results.CompareRow{}
	for _, r := range c.Rows {
		got[r.Cell] = r
	}
	if r := got["path=fast/batch=1024"]; !r.InFloor || r.Regression {
		t.Errorf("10%% drop inside a %.0f%% floor: in-floor=%v regression=%v", 100*floor, r.InFloor, r.Regression)
	}
	if r := got["path=fast/batch=8192"]; r.InFloor || !r.Regression {
		t.Errorf("50%% drop: in-floor=%v regression=%v", r.InFloor, r.Regression)
	}
	if r := got["micro=decode/format=json/lib=lab"]; r.InFloor || !r.Regression {
		t.Errorf("micro row 10%% slower: in-floor=%v regression=%v", r.InFloor, r.Regression)
	}
	var buf bytes.Buffer
	if err := c.WriteText(&buf); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "A/A floor: not a regression") {
		t.Errorf("no in-floor note:\n%s", buf.String())
	}
}
