package results_test

import (
	"errors"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fastpathlab/fplab/results"
)

const (
	liveA = "path=fast/format=json/batch=8192/brokers=1/alloc=go/crc=off/mode=live/rate=1000/linger=10ms"
	liveB = "path=shallow/format=json/batch=8192/brokers=1/alloc=go/crc=off/mode=live/rate=1000/linger=10ms"
)

// writeLiveRep writes one live repetition's histogram of ms (milliseconds)
// and, unless lag is "", its lag series file, into runDir/live.
func writeLiveRep(t *testing.T, runDir, cellName string, rep int, ms []int, lag string) {
	t.Helper()
	dir := filepath.Join(runDir, results.LiveDir)
	h := results.NewLatencyHistogram()
	for _, v := range ms {
		results.RecordLatency(h, time.Duration(v)*time.Millisecond)
	}
	if err := results.WriteLatency(results.LatencyPath(dir, cellName, rep), results.LatencyFile{Cell: cellName, Rep: rep, Rate: 1000, Warmup: 500}, h); err != nil {
		t.Fatal(err)
	}
	if lag != "" {
		if err := os.WriteFile(results.LagPath(dir, cellName, rep), []byte(lag), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// The live folder reads back as one merged curve per cell (the pooled
// percentiles of every repetition) and each repetition's lag series.
func TestReadLive(t *testing.T) {
	run := t.TempDir()
	writeLiveRep(t, run, liveA, 0, []int{1, 2, 3, 4}, "t_ms,lag_rec,lag_ms\n0,10,10.000\n100,3,3.000\n300,0,0.000\n")
	writeLiveRep(t, run, liveA, 1, []int{100, 200, 300, 400}, "t_ms,lag_rec,lag_ms\r\n0,5,5.000\r\n")
	writeLiveRep(t, run, liveB, 0, []int{7}, "") // no lag file: a repetition without a series
	// Files the reader does not group by: a stray lag series without a
	// histogram and an unrelated file.
	if err := os.WriteFile(filepath.Join(run, results.LiveDir, "other.lag.csv"), []byte("garbage"), 0o644); err != nil {
		t.Fatal(err)
	}

	l, err := results.ReadLive(run)
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Cells) != 2 || l.Cells[0].Name != liveA || l.Cells[1].Name != liveB {
		t.Fatalf("cells %+v", l.Cells)
	}
	a := l.Cell(liveA)
	if a == nil || len(a.Reps) != 2 || a.Reps[0].Rep != 0 || a.Reps[1].Rep != 1 || a.Count != 8 {
		t.Fatalf("cell A %+v", a)
	}
	if r := a.Reps[0]; r.Rate != 1000 || r.Warmup != 500 || r.Count != 4 || len(r.Lag) != 3 ||
		r.Lag[1] != (results.LagPoint{TMs: 100, Rec: 3, Ms: 3}) {
		t.Errorf("rep 0 %+v", r)
	}
	if lag := a.Reps[1].Lag; len(lag) != 1 || lag[0].Rec != 5 {
		t.Errorf("rep 1 lag %+v (CRLF rows)", lag)
	}
	// The curve is the merged histogram's: p50 is the pooled 4th value
	// (4 ms), the last point the maximum at 100.
	at := func(c *results.LiveCell, q float64) float64 {
		for _, p := range c.Percentiles {
			if p.Percentile >= q {
				return p.Ms
			}
		}
		return math.NaN()
	}
	if got := at(a, 50); math.Abs(got-4) > 0.01 {
		t.Errorf("merged p50 %v ms, want 4", got)
	}
	last := a.Percentiles[len(a.Percentiles)-1]
	if last.Percentile != 100 || math.Abs(last.Ms-400) > 0.5 {
		t.Errorf("last point %+v, want the max 400 ms at 100", last)
	}
	for i := 1; i < len(a.Percentiles); i++ {
		if p, q := a.Percentiles[i-1], a.Percentiles[i]; q.Percentile <= p.Percentile || q.Ms < p.Ms {
			t.Fatalf("curve not ascending at %d: %+v then %+v", i, p, q)
		}
	}
	if b := l.Cell(liveB); b == nil || b.Reps[0].Lag != nil || b.Count != 1 {
		t.Errorf("cell B %+v", b)
	}
	if l.Cell("path=none") != nil {
		t.Error("Cell found a cell the run does not have")
	}
}

func TestReadLiveWithoutFolder(t *testing.T) {
	l, err := results.ReadLive(t.TempDir())
	if err != nil || l == nil || len(l.Cells) != 0 {
		t.Fatalf("ReadLive = %+v, %v; want an empty Live", l, err)
	}
}

// A malformed file is one line naming the file, and the line for a lag
// row.
func TestReadLiveErrors(t *testing.T) {
	good := "t_ms,lag_rec,lag_ms\n0,1,1.000\n"
	tests := []struct {
		name string
		lag  string
		edit func(t *testing.T, dir string)
		want string
	}{
		{"short row", "t_ms,lag_rec,lag_ms\n0,1,1.000\n100,2\n", nil, ".r0.lag.csv:3: 2 fields, want 3"},
		{"negative records", "t_ms,lag_rec,lag_ms\n0,-1,1.000\n", nil, `.r0.lag.csv:2: lag_rec "-1"`},
		{"bad ms", "t_ms,lag_rec,lag_ms\n0,1,x\n", nil, `.r0.lag.csv:2: lag_ms "x"`},
		{"bad time", "t_ms,lag_rec,lag_ms\n0.5,1,1\n", nil, `.r0.lag.csv:2: t_ms "0.5"`},
		{"backwards", "t_ms,lag_rec,lag_ms\n100,1,1\n100,2,2\n", nil, ".r0.lag.csv:3: t_ms 100 after 100"},
		{"blank row", "t_ms,lag_rec,lag_ms\n\n0,1,1\n", nil, ".r0.lag.csv:2: 1 fields"},
		{"header", "t,lag\n", nil, `.r0.lag.csv:1: header "t,lag"`},
		{"empty", "", func(t *testing.T, dir string) {
			if err := os.WriteFile(results.LagPath(dir, liveA, 0), nil, 0o644); err != nil {
				t.Fatal(err)
			}
		}, ".r0.lag.csv: empty"},
		{"renamed histogram", good, func(t *testing.T, dir string) {
			if err := os.Rename(results.LatencyPath(dir, liveA, 0), results.LatencyPath(dir, liveA, 3)); err != nil {
				t.Fatal(err)
			}
		}, "holds cell " + liveA + " rep 0, whose file is"},
		{"bad histogram", good, func(t *testing.T, dir string) {
			if err := os.WriteFile(results.LatencyPath(dir, liveA, 0), []byte(`{"cell":"x","unit":"ms"}`), 0o644); err != nil {
				t.Fatal(err)
			}
		}, `latency unit "ms", want us`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			run := t.TempDir()
			writeLiveRep(t, run, liveA, 0, []int{1}, tt.lag)
			if tt.edit != nil {
				tt.edit(t, filepath.Join(run, results.LiveDir))
			}
			_, err := results.ReadLive(run)
			if err == nil {
				t.Fatal("no error")
			}
			if !strings.HasPrefix(err.Error(), "read ") || !strings.Contains(err.Error(), tt.want) || strings.Contains(err.Error(), "\n") {
				t.Fatalf("err = %v, want one line containing %q", err, tt.want)
			}
			var fe *results.FileError
			if !errors.As(err, &fe) || !strings.HasPrefix(fe.File, run) {
				t.Errorf("err %v is no *FileError naming a file of the run", err)
			}
		})
	}
}

func TestReadLiveUnreadableFolder(t *testing.T) {
	run := t.TempDir()
	if err := os.WriteFile(filepath.Join(run, results.LiveDir), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := results.ReadLive(run)
	if err == nil || errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), "read live folder") {
		t.Fatalf("live/ as a file: err = %v", err)
	}
}

// Analyze keeps the live cells and repetitions the sweep counts: an A/A
// cell, a cell without rows and a repetition whose row failed are left
// out, and the cell that lost one is merged again from the rest.
func TestAnalyzeKeepsCountedLiveReps(t *testing.T) {
	run := t.TempDir()
	aa := liveA + "/aa=a"
	writeLiveRep(t, run, liveA, 0, []int{1, 2, 3}, "t_ms,lag_rec,lag_ms\n0,1,1\n")
	writeLiveRep(t, run, liveA, 1, []int{500, 600, 700}, "t_ms,lag_rec,lag_ms\n0,9,9\n")
	writeLiveRep(t, run, liveB, 0, []int{5}, "")
	writeLiveRep(t, run, aa, 0, []int{5}, "")
	live, err := results.ReadLive(run)
	if err != nil {
		t.Fatal(err)
	}
	rate := results.Metric{Unit: results.UnitRecPerSec, Value: 1000}
	rows := []results.Row{
		{Cell: liveA, Rep: 0, OK: true, Metrics: []results.Metric{rate}},
		{Cell: liveA, Rep: 1, OK: true, Metrics: []results.Metric{rate}},
		{Cell: liveA, Rep: 1, OK: false, Reason: "exit status 1"}, // run again, failed: the last row counts
		{Cell: aa, Rep: 0, OK: true, Metrics: []results.Metric{rate}},
	}
	a, err := results.Analyze(rows, results.AnalysisOptions{Live: live})
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Live.Cells) != 1 {
		t.Fatalf("live cells %+v, want only %s", a.Live.Cells, liveA)
	}
	c := a.Live.Cells[0]
	if c.Name != liveA || len(c.Reps) != 1 || c.Reps[0].Rep != 0 || c.Count != 3 {
		t.Fatalf("kept %+v, want rep 0 only", c)
	}
	if last := c.Percentiles[len(c.Percentiles)-1]; math.Abs(last.Ms-3) > 0.01 {
		t.Errorf("max %v ms, want 3 (rep 1 merged again without its 700 ms)", last.Ms)
	}
	if live.Cell(liveA).Count != 6 {
		t.Error("Analyze changed the Live it was given")
	}

	none, err := results.Analyze(rows, results.AnalysisOptions{})
	if err != nil || none.Live == nil || len(none.Live.Cells) != 0 || none.LiveErr != nil {
		t.Fatalf("no live data: Live %+v, LiveErr %v, err %v", none.Live, none.LiveErr, err)
	}
}
