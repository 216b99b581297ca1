package results

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"

	"github.com/fastpathlab/fplab/internal/atomicfile"
)

// A live cell's end-to-end latencies are kept whole, as an HdrHistogram,
// in the run directory's live/ folder: one file per cell-repetition, so
// that repetitions merge exactly (LatencyFile.Histogram, Merge) instead of
// by averaging their percentiles, which is not a percentile of anything.

// LiveDir is the folder of a run directory that holds the live cells'
// latency histograms and lag series.
const LiveDir = "live"

// Latency histograms record microseconds from 1 µs to an hour with three
// significant digits (0.1% resolution at every magnitude), as HdrHistogram
// is usually configured for request latencies.
const (
	latencyLowestUs  = 1
	latencyHighestUs = int64(time.Hour / time.Microsecond)
	latencySigDigits = 3
)

// NewLatencyHistogram is an empty histogram of end-to-end latencies in
// microseconds. A value above an hour is recorded as an hour.
func NewLatencyHistogram() *hdrhistogram.Histogram {
	return hdrhistogram.New(latencyLowestUs, latencyHighestUs, latencySigDigits)
}

// RecordLatency records d, in microseconds, clamped to the histogram's
// range (a row handed over before its intended send time, which a shared
// clock cannot produce, counts as 0).
func RecordLatency(h *hdrhistogram.Histogram, d time.Duration) {
	us := max(0, min(int64(d/time.Microsecond), latencyHighestUs))
	_ = h.RecordValue(us) // in range by construction
}

// LatencyFile is one live cell-repetition's latency record on disk.
type LatencyFile struct {
	Cell string `json:"cell"`
	Rep  int    `json:"rep"`
	// Rate is the target produce rate (records/s); Warmup is how many
	// records the producer wrote before the measured window, whose
	// latencies are not in the histogram.
	Rate   int `json:"rate"`
	Warmup int `json:"warmup_records"`
	// Unit is the histogram's value unit: always "us".
	Unit string `json:"unit"`
	// Count is the histogram's total count (a check on Encoded).
	Count int64 `json:"count"`
	// Encoded is the histogram in HdrHistogram's compressed V2 encoding
	// (base64), which every HdrHistogram implementation decodes.
	Encoded string `json:"histogram"`
}

// LatencyPath is where a run directory keeps cell's repetition rep's
// latency histogram, and the stem of its lag series (LagPath).
func LatencyPath(dir, cell string, rep int) string {
	return filepath.Join(dir, fmt.Sprintf("%s.r%d.hdr.json", FileSafe(strings.ReplaceAll(cell, "/", ",")), rep))
}

// LagPath is where a live cell-repetition's lag series is kept.
func LagPath(dir, cell string, rep int) string {
	return strings.TrimSuffix(LatencyPath(dir, cell, rep), ".hdr.json") + ".lag.csv"
}

// StatsPath is where a live cell-repetition's librdkafka statistics are
// kept: one JSON document a line, as librdkafka emitted them
// (statistics.interval.ms), for the librdkafka paths only.
func StatsPath(dir, cell string, rep int) string {
	return strings.TrimSuffix(LatencyPath(dir, cell, rep), ".hdr.json") + ".rdkafka-stats.jsonl"
}

// WriteLatency writes h as path's LatencyFile, atomically.
func WriteLatency(path string, f LatencyFile, h *hdrhistogram.Histogram) error {
	enc, err := h.Encode(hdrhistogram.V2CompressedEncodingCookieBase)
	if err != nil {
		return fmt.Errorf("results: encode latency histogram: %w", err)
	}
	f.Unit, f.Count, f.Encoded = "us", h.TotalCount(), string(enc)
	data, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return fmt.Errorf("results: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("results: %w", err)
	}
	if err := atomicfile.Write(path, append(data, '\n')); err != nil {
		return fmt.Errorf("results: %w", err)
	}
	return nil
}

// ReadLatency reads a LatencyFile and decodes its histogram, checking its
// unit and count.
func ReadLatency(path string) (LatencyFile, *hdrhistogram.Histogram, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return LatencyFile{}, nil, fmt.Errorf("results: %w", err)
	}
	var f LatencyFile
	if err := json.Unmarshal(data, &f); err != nil {
		return LatencyFile{}, nil, &FileError{File: path, Err: err}
	}
	if f.Unit != "us" {
		return LatencyFile{}, nil, &FileError{File: path, Err: fmt.Errorf("latency unit %q, want us", f.Unit)}
	}
	h, err := hdrhistogram.Decode([]byte(f.Encoded))
	if err != nil {
		return LatencyFile{}, nil, &FileError{File: path, Err: fmt.Errorf("latency histogram: %w", err)}
	}
	if h.TotalCount() != f.Count {
		return LatencyFile{}, nil, &FileError{File: path, Err: fmt.Errorf("latency histogram holds %d values, the file says %d", h.TotalCount(), f.Count)}
	}
	return f, h, nil
}

// MergeLatency merges the histograms of paths (a cell's repetitions) into
// one: its percentiles are those of every measured row of them all.
func MergeLatency(paths []string) (*hdrhistogram.Histogram, error) {
	if len(paths) == 0 {
		return nil, errors.New("results: no latency histogram to merge")
	}
	out := NewLatencyHistogram()
	for _, p := range paths {
		_, h, err := ReadLatency(p)
		if err != nil {
			return nil, err
		}
		if dropped := out.Merge(h); dropped > 0 {
			return nil, fmt.Errorf("results: %s: %d latencies outside the histogram's range", p, dropped)
		}
	}
	return out, nil
}

// LatencyMs is h's value at percentile q (0..100) in milliseconds; q = 100
// is its maximum.
func LatencyMs(h *hdrhistogram.Histogram, q float64) float64 {
	if q >= 100 {
		return float64(h.Max()) / 1e3
	}
	return float64(h.ValueAtPercentile(q)) / 1e3
}
