package results

import (
	"math"
	"strconv"
	"strings"
	"testing"
)

// latRow is one OK repetition of a live cell with the given e2e-p99-ms (a
// negative p99 leaves the unit out).
func latRow(cell string, rep int, p99 float64) Row {
	ms := []Metric{{Unit: UnitRecPerSec, Value: 1e4}}
	if p99 >= 0 {
		ms = append(ms, Metric{Unit: UnitE2EP99Ms, Value: p99})
	}
	return Row{Cell: cell, Rep: rep, OK: true, Metrics: ms}
}

// liveAt is a live cell of path at batch, rate 10000 and the linger given.
func liveAt(path, batch, linger string) string {
	return "path=" + path + "/format=json/batch=" + batch + "/brokers=1/alloc=go/crc=off/mode=live/rate=10000/linger=" + linger
}

func TestLatencyKnee(t *testing.T) {
	tests := []struct {
		name   string
		rows   []Row
		budget float64
		want   []LatencyKneePoint // compared on Path, Found, Batch, E2EP99Ms, Candidates, Reason prefix
	}{
		{
			name: "largest batch within budget wins, medians across reps",
			rows: []Row{
				latRow(liveAt("fast", "256", "10ms"), 0, 5), latRow(liveAt("fast", "256", "10ms"), 1, 6), latRow(liveAt("fast", "256", "10ms"), 2, 7),
				latRow(liveAt("fast", "8192", "10ms"), 0, 90), latRow(liveAt("fast", "8192", "10ms"), 1, 150), latRow(liveAt("fast", "8192", "10ms"), 2, 95),
				latRow(liveAt("fast", "65536", "10ms"), 0, 300), latRow(liveAt("fast", "65536", "10ms"), 1, 20), latRow(liveAt("fast", "65536", "10ms"), 2, 320),
			},
			budget: 100,
			want:   []LatencyKneePoint{{Path: "fast", Found: true, Batch: 8192, E2EP99Ms: 95, Candidates: 3}},
		},
		{
			name: "p99 tie: the larger batch wins; at the budget is within",
			rows: []Row{
				latRow(liveAt("fast", "1024", "10ms"), 0, 100),
				latRow(liveAt("fast", "4096", "10ms"), 0, 100),
				latRow(liveAt("fast", "16384", "10ms"), 0, 100.5),
			},
			budget: 100,
			want:   []LatencyKneePoint{{Path: "fast", Found: true, Batch: 4096, E2EP99Ms: 100, Candidates: 3}},
		},
		{
			name: "not monotone: the largest within budget even past one over it",
			rows: []Row{
				latRow(liveAt("fast", "1024", "10ms"), 0, 40),
				latRow(liveAt("fast", "4096", "10ms"), 0, 140),
				latRow(liveAt("fast", "16384", "10ms"), 0, 60),
			},
			budget: 100,
			want:   []LatencyKneePoint{{Path: "fast", Found: true, Batch: 16384, E2EP99Ms: 60, Candidates: 3}},
		},
		{
			name: "one batch size only is a knee of one candidate",
			rows: []Row{
				latRow(liveAt("fast", "8192", "10ms"), 0, 12),
			},
			budget: 100,
			want:   []LatencyKneePoint{{Path: "fast", Found: true, Batch: 8192, E2EP99Ms: 12, Candidates: 1}},
		},
		{
			name: "none within budget names the lowest p99, ties to the smaller batch",
			rows: []Row{
				latRow(liveAt("fast", "1024", "10ms"), 0, 150),
				latRow(liveAt("fast", "256", "10ms"), 0, 150),
				latRow(liveAt("fast", "8192", "10ms"), 0, 400),
			},
			budget: 100,
			want:   []LatencyKneePoint{{Path: "fast", Candidates: 3, Reason: "none within budget (100 ms): lowest p99 150 ms at batch 256"}},
		},
		{
			name: "a smaller budget",
			rows: []Row{
				latRow(liveAt("fast", "1024", "10ms"), 0, 4),
				latRow(liveAt("fast", "8192", "10ms"), 0, 30),
			},
			budget: 5,
			want:   []LatencyKneePoint{{Path: "fast", Found: true, Batch: 1024, E2EP99Ms: 4, Candidates: 2}},
		},
		{
			name: "missing e2e unit",
			rows: []Row{
				latRow(liveAt("fast", "1024", "10ms"), 0, -1),
				latRow(liveAt("fast", "8192", "10ms"), 0, -1),
			},
			budget: 100,
			want:   []LatencyKneePoint{{Path: "fast", Reason: "no e2e-p99-ms samples"}},
		},
		{
			name: "cell without the unit is no candidate, others still count",
			rows: []Row{
				latRow(liveAt("fast", "1024", "10ms"), 0, 20),
				latRow(liveAt("fast", "8192", "10ms"), 0, -1),
			},
			budget: 100,
			want:   []LatencyKneePoint{{Path: "fast", Found: true, Batch: 1024, E2EP99Ms: 20, Candidates: 1}},
		},
		{
			name: "only failed reps",
			rows: []Row{
				{Cell: liveAt("fast", "1024", "10ms"), Rep: 0, Reason: "timeout"},
			},
			budget: 100,
			want:   []LatencyKneePoint{{Path: "fast", Reason: "no successful repetitions"}},
		},
		{
			name: "failed reps, A/A, bounded and maxrate cells are left out; zero budget means the default",
			rows: []Row{
				latRow(liveAt("fast", "1024", "10ms"), 0, 20),
				{Cell: liveAt("fast", "8192", "10ms"), Rep: 0, Reason: "crash"},
				latRow(liveAt("fast", "65536", "10ms")+"/aa=a", 0, 1),
				latRow("path=fast/format=json/batch=65536/brokers=1/alloc=go/crc=off", 0, 1),
				latRow("path=fast/format=json/batch=65536/brokers=1/alloc=go/crc=off/mode=maxrate/linger=10ms", 0, 1),
			},
			budget: 0,
			want:   []LatencyKneePoint{{Path: "fast", Found: true, Batch: 1024, E2EP99Ms: 20, Candidates: 1}},
		},
		{
			name: "paths ordered least to most native",
			rows: []Row{
				latRow(liveAt("fast", "1024", "10ms"), 0, 20),
				latRow(liveAt("shallow", "1024", "10ms"), 0, 30),
			},
			budget: 100,
			want: []LatencyKneePoint{
				{Path: "shallow", Found: true, Batch: 1024, E2EP99Ms: 30, Candidates: 1},
				{Path: "fast", Found: true, Batch: 1024, E2EP99Ms: 20, Candidates: 1},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := LatencyKnee(sweptOf(tt.rows), tt.budget)
			if len(got) != len(tt.want) {
				t.Fatalf("got %d knee points %+v, want %d", len(got), got, len(tt.want))
			}
			for i, w := range tt.want {
				g := got[i]
				if g.Format != "json" || g.Setting != "brokers=1 alloc=go crc=off mode=live rate=10000 linger=10ms" {
					t.Errorf("[%d] format/setting = %q/%q", i, g.Format, g.Setting)
				}
				if g.Path != w.Path || g.Found != w.Found || g.Batch != w.Batch || g.E2EP99Ms != w.E2EP99Ms || g.Candidates != w.Candidates {
					t.Errorf("[%d] got %+v, want %+v", i, g, w)
				}
				if !strings.HasPrefix(g.Reason, w.Reason) || (w.Reason == "") != (g.Reason == "") {
					t.Errorf("[%d] reason %q, want %q", i, g.Reason, w.Reason)
				}
			}
		})
	}
}

// Each rate and linger is a line of its own.
func TestLatencyKneeSeparatesRateAndLinger(t *testing.T) {
	at := func(batch, rate, linger string) string {
		return "path=fast/format=json/batch=" + batch + "/brokers=1/alloc=go/crc=off/mode=live/rate=" + rate + "/linger=" + linger
	}
	rows := []Row{
		latRow(at("1024", "10000", "10ms"), 0, 10), latRow(at("8192", "10000", "10ms"), 0, 50),
		latRow(at("1024", "10000", "1ms"), 0, 5), latRow(at("8192", "10000", "1ms"), 0, 150),
		latRow(at("1024", "100000", "10ms"), 0, 20), latRow(at("8192", "100000", "10ms"), 0, 80),
	}
	var got []string
	for _, k := range LatencyKnee(sweptOf(rows), 100) {
		got = append(got, k.Setting+" -> "+strconv.Itoa(k.Batch))
	}
	want := "brokers=1 alloc=go crc=off mode=live rate=10000 linger=10ms -> 8192|" +
		"brokers=1 alloc=go crc=off mode=live rate=10000 linger=1ms -> 1024|" +
		"brokers=1 alloc=go crc=off mode=live rate=100000 linger=10ms -> 8192"
	if s := strings.Join(got, "|"); s != want {
		t.Errorf("knees\n%s\nwant\n%s", strings.ReplaceAll(s, "|", "\n"), strings.ReplaceAll(want, "|", "\n"))
	}
}

func TestLatencyBudgetMs(t *testing.T) {
	for _, tt := range []struct {
		in   float64
		want float64
		err  string
	}{
		{0, DefaultLatencyBudgetMs, ""},
		{25, 25, ""},
		{-1, 0, "is -1, want 0 (default 100) to 60000"},
		{math.NaN(), 0, "is NaN, want 0 (default 100) to 60000"},
		{MaxBudgetMs + 1, 0, "is 60001, want 0 (default 100) to 60000"},
	} {
		got, err := LatencyBudgetMs(tt.in)
		switch {
		case tt.err != "" && (err == nil || err.Error() != tt.err):
			t.Errorf("LatencyBudgetMs(%v) err = %v, want %q", tt.in, err, tt.err)
		case tt.err == "" && (err != nil || got != tt.want):
			t.Errorf("LatencyBudgetMs(%v) = %v, %v; want %v", tt.in, got, err, tt.want)
		}
	}
	if _, err := Analyze(nil, AnalysisOptions{LatencyBudgetMs: -5}); err == nil || !strings.HasPrefix(err.Error(), "AnalysisOptions.LatencyBudgetMs is -5") {
		t.Errorf("Analyze with a negative latency budget: err = %v", err)
	}
}
