package rung_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fastpathlab/fplab/cell"
	"github.com/fastpathlab/fplab/ladder/rung/rungtest"
	"github.com/fastpathlab/fplab/ladder/rungargs"
	"github.com/fastpathlab/fplab/results"
)

// liveCell is a small live cell: 20,000 rec/s for a 200 ms warm-up and a
// 300 ms window (10,000 records) on the package's 3-broker cluster.
func liveCell(t *testing.T, path string) rungargs.Cell {
	c := testCell(t)
	c.Path, c.Mode, c.Rate, c.Linger = path, cell.ModeLive, 20_000, 5*time.Millisecond
	c.Topic = "fplab-live-test"
	c.Warmup, c.Duration = 200*time.Millisecond, 300*time.Millisecond
	c.Records = rungargs.LiveRecords(c.Rate, c.Warmup+c.Duration)
	c.LiveDir, c.Rep = t.TempDir(), 2
	return c
}

// TestLiveCellPerPath: every path that reads live hands over every record
// the producer wrote, verified, and reports the live figures; the
// latency histogram in the live directory holds exactly the measured
// window's rows, and the lag series is written beside it.
func TestLiveCellPerPath(t *testing.T) {
	for _, p := range []string{cell.PathShallow, cell.PathFast, cell.PathFranz} {
		t.Run(p, func(t *testing.T) {
			c := liveCell(t, p)
			r := rungtest.MustRun(t, c)
			t.Logf("%s", r.Out)
			measured := c.Records - rungargs.LiveRecords(c.Rate, c.Warmup)
			if want := "path=" + p + "/format=json/batch=512/brokers=3/alloc=go/crc=off/mode=live/rate=20000/linger=5ms"; r.Name != want {
				t.Errorf("name %q, want %q", r.Name, want)
			}
			if r.Iters != int64(measured) {
				t.Errorf("iters %d, want the %d measured records", r.Iters, measured)
			}
			got := r.Units()
			for _, u := range []string{results.UnitE2EP50Ms, results.UnitE2EP99Ms, results.UnitE2EMaxMs, results.UnitLagMaxRec, results.UnitRecPerBatch, results.UnitProduceRecPerSec, results.UnitCPUNsPerRec} {
				if v, ok := got[u]; !ok || v < 0 {
					t.Errorf("metric %s = %v (present %v)", u, v, ok)
				}
			}
			if !(got[results.UnitE2EP50Ms] <= got[results.UnitE2EP99Ms] && got[results.UnitE2EP99Ms] <= got[results.UnitE2EMaxMs]) {
				t.Errorf("percentiles out of order: %v", got)
			}
			// a batch of 512 at 20,000 rec/s over 3 partitions never fills
			// within a 5 ms linger: the linger rule hands every batch over
			if got[results.UnitRecPerBatch] >= 512 {
				t.Errorf("rec/batch %v: batches were not handed over short", got[results.UnitRecPerBatch])
			}
			if got[results.UnitProduceRecPerSec] < 0.95*20_000 {
				t.Errorf("producer achieved %v rec/s", got[results.UnitProduceRecPerSec])
			}
			f, h, err := results.ReadLatency(results.LatencyPath(c.LiveDir, r.Name, 2))
			if err != nil {
				t.Fatal(err)
			}
			if f.Count != int64(measured) || h.TotalCount() != int64(measured) || f.Rate != 20_000 {
				t.Errorf("histogram holds %d values (file %+v), want %d", h.TotalCount(), f, measured)
			}
			lag, err := os.ReadFile(results.LagPath(c.LiveDir, r.Name, 2))
			if err != nil || !strings.HasPrefix(string(lag), "t_ms,lag_rec,lag_ms\n") || strings.Count(string(lag), "\n") < 2 {
				t.Errorf("lag series %q: %v", lag, err)
			}
			// librdkafka's statistics beside them, on its paths only
			files := 2
			if p != cell.PathFranz {
				files++
				checkRdkStats(t, results.StatsPath(c.LiveDir, r.Name, 2), r.Out)
			}
			if m, _ := filepath.Glob(filepath.Join(c.LiveDir, "*")); len(m) != files {
				t.Errorf("live dir holds %v, want %d files", m, files)
			}
		})
	}
}

// checkRdkStats: a live cell's statistics file holds librdkafka consumer
// documents, one a line, as many as its result's file-config line says.
func checkRdkStats(t *testing.T, path, out string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	for i, l := range lines {
		var doc struct {
			Type   string         `json:"type"`
			TS     int64          `json:"ts"`
			Time   int64          `json:"time"`
			Topics map[string]any `json:"topics"`
		}
		if err := json.Unmarshal([]byte(l), &doc); err != nil || doc.Type != "consumer" || doc.Topics == nil {
			t.Fatalf("statistics line %d %.80q: type %q, %v", i, l, doc.Type, err)
		}
		if i == 0 || i == len(lines)-1 {
			t.Logf("statistics line %d: ts %d us, time %d s", i, doc.TS, doc.Time)
		}
	}
	if want := fmt.Sprintf("librdkafka-stats: %d documents every ", len(lines)); len(b) == 0 || !strings.Contains(out, want) {
		t.Errorf("%d statistics documents; result lacks %q:\n%s", len(lines), want, out)
	}
}

// TestLiveCompressedCell: a live compression cell reads a topic its
// producer compressed where the codec shrank a batch, and says how much.
func TestLiveCompressedCell(t *testing.T) {
	c := liveCell(t, cell.PathFast)
	c.Compression = cell.CompressionLZ4
	r := rungtest.MustRun(t, c)
	if got := r.Units()[results.UnitCompressedPct]; !(got > 0 && got <= 100) {
		t.Errorf("compressed-pct %v, want in (0, 100]\n%s", got, r.Out)
	}
}

// TestLiveCellRefusals: a live cell checks its own settings before it
// starts anything.
func TestLiveCellRefusals(t *testing.T) {
	c := liveCell(t, cell.PathRowwise)
	if _, err := rungtest.Run(t, c); err == nil || !strings.Contains(err.Error(), "path=rowwise cannot read live") {
		t.Errorf("rowwise live: %v", err)
	}
	c = liveCell(t, cell.PathFast)
	c.Records++
	if _, err := rungtest.Run(t, c); err == nil || !strings.Contains(err.Error(), "writes 10000 records") {
		t.Errorf("records off the rate: %v", err)
	}
}

// maxRateCell searches 5,000..20,000 rec/s with a 200 ms warm-up and a
// 300 ms window per trial.
func maxRateCell(t *testing.T, p99 time.Duration) rungargs.Cell {
	c := liveCell(t, cell.PathFast)
	c.Mode, c.Rate = cell.ModeMaxRate, 0
	c.MaxRateFrom, c.MaxRateTo, c.MaxRateP99 = 5_000, 20_000, p99
	c.Records = rungargs.LiveRecords(c.MaxRateTo, c.Warmup+c.Duration)
	return c
}

// TestMaxRateCell: with a lenient budget every rate of a small search is
// sustained and the cell reports the search's upper bound after three
// doublings; the rates tried are in its file-config. With a budget no
// read can meet, its lowest rate fails, and so does the cell, saying why.
func TestMaxRateCell(t *testing.T) {
	c := maxRateCell(t, 5*time.Second)
	r := rungtest.MustRun(t, c)
	t.Logf("%s", r.Out)
	got := r.Units()
	if got[results.UnitMaxRate] != 20_000 || got[results.UnitMaxRateTrials] != 3 {
		t.Errorf("max rate %v after %v trials, want 20000 after 3", got[results.UnitMaxRate], got[results.UnitMaxRateTrials])
	}
	if r.Config["maxrate-tried"] != "5000 ok, 10000 ok, 20000 ok" || r.Config["maxrate-limit"] != "the search's upper bound" {
		t.Errorf("config %v", r.Config)
	}
	if _, err := os.Stat(results.LatencyPath(c.LiveDir, r.Name, c.Rep)); err != nil {
		t.Errorf("the max rate's histogram: %v", err)
	}
	c = maxRateCell(t, time.Microsecond)
	if _, err := rungtest.Run(t, c); err == nil || !strings.Contains(err.Error(), "the search's lowest rate, 5000 rec/s, is not sustained (lag)") {
		t.Errorf("an impossible budget: %v", err)
	}
}
