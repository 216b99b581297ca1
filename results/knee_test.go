package results

import (
	"strings"
	"testing"

	"github.com/fastpathlab/fplab/results/texttab"
)

// kneeRow is one OK repetition with the given rec/s and ckpt-p99-ms (a
// negative p99 leaves the checkpoint metric out).
func kneeRow(cell string, rep int, rate, p99 float64) Row {
	ms := []Metric{{Unit: UnitRecPerSec, Value: rate}}
	if p99 >= 0 {
		ms = append(ms, Metric{Unit: UnitCkptP99, Value: p99})
	}
	return Row{Cell: cell, Rep: rep, OK: true, Metrics: ms}
}

func cellAt(path string, batch string) string {
	return "path=" + path + "/format=json/batch=" + batch + "/brokers=3/alloc=go/crc=off"
}

func TestKnee(t *testing.T) {
	tests := []struct {
		name   string
		rows   []Row
		budget float64
		want   []KneePoint // compared on Path, Found, Batch, RecPerSec, CkptP99Ms, Reason prefix
	}{
		{
			name: "highest throughput within budget wins, medians across reps",
			rows: []Row{
				kneeRow(cellAt("fast", "256"), 0, 1e6, 10), kneeRow(cellAt("fast", "256"), 1, 1.2e6, 12), kneeRow(cellAt("fast", "256"), 2, 1.1e6, 11),
				kneeRow(cellAt("fast", "8192"), 0, 3e6, 90), kneeRow(cellAt("fast", "8192"), 1, 3.2e6, 150), kneeRow(cellAt("fast", "8192"), 2, 3.1e6, 95),
				kneeRow(cellAt("fast", "65536"), 0, 4e6, 300), kneeRow(cellAt("fast", "65536"), 1, 4e6, 320),
			},
			budget: 100,
			want:   []KneePoint{{Path: "fast", Found: true, Batch: 8192, RecPerSec: 3.1e6, CkptP99Ms: 95}},
		},
		{
			name: "throughput tie goes to lower p99, then smaller batch",
			rows: []Row{
				kneeRow(cellAt("fast", "1024"), 0, 2e6, 40),
				kneeRow(cellAt("fast", "4096"), 0, 2e6, 30),
				kneeRow(cellAt("shallow", "1024"), 0, 1e6, 30),
				kneeRow(cellAt("shallow", "4096"), 0, 1e6, 30),
			},
			budget: 100,
			want: []KneePoint{
				{Path: "shallow", Found: true, Batch: 1024, RecPerSec: 1e6, CkptP99Ms: 30},
				{Path: "fast", Found: true, Batch: 4096, RecPerSec: 2e6, CkptP99Ms: 30},
			},
		},
		{
			name: "live and maxrate cells are left to the latency knee",
			rows: []Row{
				kneeRow(cellAt("fast", "1024"), 0, 1e6, 10),
				kneeRow(cellAt("fast", "1024")+"/mode=live/rate=1000/linger=10ms", 0, 1e3, 10),
				kneeRow(cellAt("fast", "1024")+"/mode=maxrate/linger=10ms", 0, 1e5, 10),
			},
			budget: 100,
			want:   []KneePoint{{Path: "fast", Found: true, Batch: 1024, RecPerSec: 1e6, CkptP99Ms: 10}},
		},
		{
			name: "p99 exactly at the budget is within",
			rows: []Row{
				kneeRow(cellAt("fast", "1024"), 0, 1e6, 10),
				kneeRow(cellAt("fast", "8192"), 0, 2e6, 100),
			},
			budget: 100,
			want:   []KneePoint{{Path: "fast", Found: true, Batch: 8192, RecPerSec: 2e6, CkptP99Ms: 100}},
		},
		{
			name: "none within budget",
			rows: []Row{
				kneeRow(cellAt("fast", "1024"), 0, 1e6, 150),
				kneeRow(cellAt("fast", "8192"), 0, 2e6, 400),
			},
			budget: 100,
			want:   []KneePoint{{Path: "fast", Reason: "none within budget (100 ms): lowest p99 150 ms at batch 1024"}},
		},
		{
			name: "missing ckpt metric",
			rows: []Row{
				kneeRow(cellAt("fast", "1024"), 0, 1e6, -1),
				kneeRow(cellAt("fast", "8192"), 0, 2e6, -1),
			},
			budget: 100,
			want:   []KneePoint{{Path: "fast", Reason: "no ckpt-p99-ms samples"}},
		},
		{
			name: "cell without ckpt is not a candidate, others still count",
			rows: []Row{
				kneeRow(cellAt("fast", "1024"), 0, 1e6, 20),
				kneeRow(cellAt("fast", "8192"), 0, 5e6, -1),
			},
			budget: 100,
			want:   []KneePoint{{Path: "fast", Found: true, Batch: 1024, RecPerSec: 1e6, CkptP99Ms: 20}},
		},
		{
			name: "only failed reps",
			rows: []Row{
				{Cell: cellAt("fast", "1024"), Rep: 0, Reason: "timeout"},
			},
			budget: 100,
			want:   []KneePoint{{Path: "fast", Reason: "no successful repetitions"}},
		},
		{
			name: "failed reps and A/A cells are ignored; zero budget means the default",
			rows: []Row{
				kneeRow(cellAt("fast", "1024"), 0, 1e6, 20),
				{Cell: cellAt("fast", "8192"), Rep: 0, Reason: "crash"},
				kneeRow(cellAt("fast", "8192")+"/aa=a", 0, 9e6, 1),
			},
			budget: 0,
			want:   []KneePoint{{Path: "fast", Found: true, Batch: 1024, RecPerSec: 1e6, CkptP99Ms: 20}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Knee(sweptOf(tt.rows), tt.budget)
			if len(got) != len(tt.want) {
				t.Fatalf("got %d knee points %+v, want %d", len(got), got, len(tt.want))
			}
			for i, w := range tt.want {
				g := got[i]
				if g.Format != "json" || g.Setting != "brokers=3 alloc=go crc=off" {
					t.Errorf("[%d] format/setting = %q/%q", i, g.Format, g.Setting)
				}
				if g.Path != w.Path || g.Found != w.Found || g.Batch != w.Batch || g.RecPerSec != w.RecPerSec || g.CkptP99Ms != w.CkptP99Ms {
					t.Errorf("[%d] got %+v, want %+v", i, g, w)
				}
				if !strings.HasPrefix(g.Reason, w.Reason) || (w.Reason == "") != (g.Reason == "") {
					t.Errorf("[%d] reason %q, want %q", i, g.Reason, w.Reason)
				}
			}
		})
	}
}

func TestKneeSeparatesSettings(t *testing.T) {
	rows := []Row{
		kneeRow("path=fast/format=json/batch=1024/brokers=1/alloc=go/crc=off", 0, 1e6, 20),
		kneeRow("path=fast/format=json/batch=8192/brokers=3/alloc=go/crc=off", 0, 3e6, 50),
		kneeRow("path=fast/format=avro/batch=8192/brokers=3/alloc=go/crc=off", 0, 2e6, 50),
	}
	got := Knee(sweptOf(rows), 100)
	var keys []string
	for _, k := range got {
		keys = append(keys, k.Format+" "+k.Setting+" "+texttab.Compact(float64(k.Batch)))
	}
	want := "avro brokers=3 alloc=go crc=off 8192|json brokers=1 alloc=go crc=off 1024|json brokers=3 alloc=go crc=off 8192"
	if s := strings.Join(keys, "|"); s != want {
		t.Errorf("knees = %s, want %s", s, want)
	}
}

// sweptOf is the sweep half of rows' index: the cells Knee is given.
func sweptOf(rows []Row) []*CellSamples {
	sweep, _ := NewIndex(rows).SplitAA()
	return sweep.Cells()
}

func TestSweptLastRowWinsAndDropsAA(t *testing.T) {
	rows := []Row{
		{Cell: "path=fast/format=json", Rep: 0, Reason: "crash"},
		{Cell: "path=fast/format=json", Rep: 0, OK: true, Metrics: []Metric{{Unit: UnitRecPerSec, Value: 7}, {Unit: UnitRecPerSec, Value: 8}}},
		{Cell: "path=fast/format=json", Rep: 1, Reason: "timeout"},
		{Cell: "path=fast/format=json/aa=a", Rep: 0, OK: true, Metrics: []Metric{{Unit: UnitRecPerSec, Value: 1}}},
	}
	cells := sweptOf(rows)
	if len(cells) != 1 {
		t.Fatalf("cells = %d, want 1 (A/A cell dropped)", len(cells))
	}
	c := cells[0]
	if c.OK != 1 || c.Failed != 1 || len(c.Samples[UnitRecPerSec]) != 1 || c.Samples[UnitRecPerSec][0] != 7 {
		t.Errorf("cell %+v: want the resumed OK row and the failed rep 1, first value of a repeated unit", c)
	}
	if c.Dims["path"] != "fast" || c.Dims["format"] != "json" {
		t.Errorf("dims = %v", c.Dims)
	}
}
