package results

import "time"

// Row is one finished cell-repetition as the ladder journals it: either a
// measured result (OK) or a failed row with the reason. It is the unit of the
// journal, of raw.txt and of every table.
type Row struct {
	// Cell is the sub-benchmark name without the "BenchmarkLadder/" prefix,
	// key=value parts joined by '/', e.g. "path=fast/format=json/batch=8192/brokers=3/alloc=go/crc=off".
	Cell string `json:"cell"`
	// Rep is the repetition index (0-based) within the measured rounds;
	// warm-up rounds are never journaled as results.
	Rep int  `json:"rep"`
	OK  bool `json:"ok"`
	// Reason, Signal and StderrTail explain a failed row.
	Reason     string `json:"reason,omitempty"`
	Signal     string `json:"signal,omitempty"`
	StderrTail string `json:"stderr_tail,omitempty"`
	// Metrics in the order the child printed them: unit -> value
	// (rec/s, MB/s, ns/rec, cpu-ns/rec, B/rec, allocs/rec, peak-RSS-MB, ...).
	Metrics []Metric `json:"metrics,omitempty"`
	// Config holds the child's benchfmt file-config lines (goos, goarch, cpu,
	// librdkafka, alloc-version, commit, ...).
	Config map[string]string `json:"config,omitempty"`
	// Iters is the benchfmt iteration count (records consumed).
	Iters int64 `json:"iters"`
	// Start and End bound the child process; Measured is the part of it
	// inside the measured window (steady state), used for the ladder's
	// measured-time fraction.
	Start    time.Time     `json:"start"`
	End      time.Time     `json:"end"`
	Measured time.Duration `json:"measured_ns"`
}

// Metric is one benchfmt value with its unit.
type Metric struct {
	Unit  string  `json:"unit"`
	Value float64 `json:"value"`
}
