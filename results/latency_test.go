package results_test

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fastpathlab/fplab/results"
)

// Two repetitions merge into the histogram of all their values: its
// percentiles are the pooled values', not an average of each one's.
func TestLatencyFileRoundTripAndMerge(t *testing.T) {
	dir := t.TempDir()
	const cellName = "path=fast/format=json/batch=8192/brokers=1/alloc=go/crc=off/mode=live/rate=1000/linger=10ms"
	var paths []string
	for rep, ms := range [][]int{{1, 2, 3, 4}, {100, 200, 300, 400}} {
		h := results.NewLatencyHistogram()
		for _, v := range ms {
			results.RecordLatency(h, time.Duration(v)*time.Millisecond)
		}
		p := results.LatencyPath(dir, cellName, rep)
		if err := results.WriteLatency(p, results.LatencyFile{Cell: cellName, Rep: rep, Rate: 1000, Warmup: 10}, h); err != nil {
			t.Fatal(err)
		}
		f, back, err := results.ReadLatency(p)
		if err != nil {
			t.Fatal(err)
		}
		if f.Cell != cellName || f.Rep != rep || f.Count != 4 || !back.Equals(h) {
			t.Fatalf("rep %d read back %+v", rep, f)
		}
		paths = append(paths, p)
	}
	m, err := results.MergeLatency(paths)
	if err != nil {
		t.Fatal(err)
	}
	// pooled: 1 2 3 4 100 200 300 400; p50 is the 4th value (4 ms), where
	// averaging the two medians (2 and 200) would say about 101 ms
	if got := results.LatencyMs(m, 50); math.Abs(got-4) > 0.01 {
		t.Fatalf("merged p50 = %v ms, want 4", got)
	}
	if got := results.LatencyMs(m, 100); math.Abs(got-400) > 0.5 {
		t.Fatalf("merged max = %v ms, want 400", got)
	}
	if !strings.HasSuffix(results.LagPath(dir, cellName, 1), ".r1.lag.csv") || !strings.HasSuffix(results.StatsPath(dir, cellName, 1), ".r1.rdkafka-stats.jsonl") || strings.Contains(filepath.Base(paths[0]), "/") {
		t.Fatalf("paths %q, %q", paths[0], results.LagPath(dir, cellName, 1))
	}
}

func TestLatencyFileRefusesTampering(t *testing.T) {
	dir := t.TempDir()
	h := results.NewLatencyHistogram()
	results.RecordLatency(h, time.Millisecond)
	results.RecordLatency(h, -time.Second) // clamped to 0, never an error
	results.RecordLatency(h, 2*time.Hour)  // clamped to an hour
	p := filepath.Join(dir, "x.hdr.json")
	if err := results.WriteLatency(p, results.LatencyFile{Cell: "c"}, h); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(p)
	for name, edit := range map[string]func(string) string{
		"count":   func(s string) string { return strings.Replace(s, `"count": 3`, `"count": 4`, 1) },
		"unit":    func(s string) string { return strings.Replace(s, `"unit": "us"`, `"unit": "ms"`, 1) },
		"encoded": func(s string) string { return strings.Replace(s, `"histogram": "`, `"histogram": "x`, 1) },
	} {
		bad := filepath.Join(dir, name+".hdr.json")
		edited := edit(string(data))
		if edited == string(data) {
			t.Fatalf("%s: the edit changed nothing", name)
		}
		if err := os.WriteFile(bad, []byte(edited), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, _, err := results.ReadLatency(bad); err == nil {
			t.Errorf("%s: a tampered file read back", name)
		}
	}
}
