package results

import (
	"slices"
	"testing"
)

func TestIndexRules(t *testing.T) {
	m := func(vs ...float64) []Metric {
		var ms []Metric
		for _, v := range vs {
			ms = append(ms, Metric{Unit: UnitRecPerSec, Value: v})
		}
		return ms
	}
	rows := []Row{
		{Cell: "path=fast", Rep: 0, OK: true, Metrics: m(100)},
		{Cell: "path=fast", Rep: 1, Reason: "broker died"},
		{Cell: "path=fast/aa=a", Rep: 0, OK: true, Metrics: []Metric{{Unit: UnitNsPerRec, Value: 9}}},
		{Cell: "path=fast", Rep: 0, OK: true, Metrics: append(m(110, 999), Metric{Unit: UnitNsPerRec, Value: 5})},
		{Cell: "path=fast", Rep: 1, OK: true, Metrics: m(105)},
		{Cell: "path=fast", Rep: 2, Reason: "timeout"},
	}
	x := NewIndex(rows)

	var kept []float64
	for _, r := range x.Rows() {
		if r.OK {
			kept = append(kept, r.Metrics[0].Value)
		}
	}
	if want := []float64{9, 110, 105}; !slices.Equal(kept, want) {
		t.Errorf("rows that count, first values = %v, want %v (last row of a pair, journal order)", kept, want)
	}
	c := x.Cell("path=fast")
	if c == nil {
		t.Fatal("no cell path=fast")
	}
	if got := c.Samples[UnitRecPerSec]; !slices.Equal(got, []float64{110, 105}) {
		t.Errorf("samples = %v, want [110 105] (the resumed rows, a repeated unit's first value)", got)
	}
	if c.OK != 2 || c.Failed != 1 || len(c.Rows) != 3 {
		t.Errorf("OK=%d Failed=%d rows=%d, want 2, 1, 3", c.OK, c.Failed, len(c.Rows))
	}
	if !slices.Equal(c.Units, []string{UnitRecPerSec, UnitNsPerRec}) {
		t.Errorf("cell units = %v", c.Units)
	}
	if !slices.Equal(x.Units(), []string{UnitNsPerRec, UnitRecPerSec}) {
		t.Errorf("run units = %v, want the order first printed", x.Units())
	}
	if n := len(x.Cells()); n != 2 {
		t.Errorf("cells = %d, want 2", n)
	}
	sweep, aa := x.SplitAA()
	if sw := sweep.Cells(); len(sw) != 1 || sw[0].Name != "path=fast" {
		t.Errorf("swept = %v, want path=fast only", sw)
	}
	if len(sweep.Rows()) != 3 || !slices.Equal(sweep.Units(), []string{UnitRecPerSec, UnitNsPerRec}) {
		t.Errorf("sweep: %d rows, units %v; want 3 rows, rec/s then ns/rec", len(sweep.Rows()), sweep.Units())
	}
	if c := aa.Cells(); len(c) != 1 || c[0] != x.Cell("path=fast/aa=a") || len(aa.Rows()) != 1 {
		t.Errorf("aa = %v, want the one A/A cell, shared with x", c)
	}
	if !slices.Equal(x.Names(), []string{"path=fast", "path=fast/aa=a"}) {
		t.Errorf("names = %v, want journal order", x.Names())
	}
	if x.Cell("path=slow") != nil {
		t.Error("Cell of an absent name is not nil")
	}
	if got := x.Values("path=fast", UnitRecPerSec); !slices.Equal(got, []float64{110, 105}) {
		t.Errorf("Values = %v, want [110 105]", got)
	}
	if got := countOK(x); got != 3 {
		t.Errorf("countOK = %d, want 3", got)
	}
}

// TestBuildTablesCountsResumedRepOnce: a (cell, rep) journaled twice is one
// sample in the tables, as in the figures and the knee.
func TestBuildTablesCountsResumedRepOnce(t *testing.T) {
	rate := func(v float64) []Metric { return []Metric{{Unit: UnitRecPerSec, Value: v}} }
	rows := []Row{
		{Cell: "path=fast", Rep: 0, OK: true, Metrics: rate(1)},
		{Cell: "path=slow", Rep: 0, OK: true, Metrics: rate(2)},
		{Cell: "path=fast", Rep: 0, OK: true, Metrics: rate(3)},
	}
	tables, err := BuildTables(NewIndex(rows), TableOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(tables) != 1 {
		t.Fatalf("%d tables, want 1", len(tables))
	}
	st := tables[0].Rows[0].Cells[0]
	if tables[0].Cols[0] != "fast" || st.N != 1 || st.Center != 3 {
		t.Errorf("fast: %+v, want one sample, 3 (the later row)", st)
	}
}
