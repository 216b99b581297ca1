package resultstest

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/fastpathlab/fplab/results"
)

// T0 is when every fixture run starts: fixed, so times in reports and
// golden files do not move.
var T0 = time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC)

// Metric is one measured value.
func Metric(unit string, v float64) results.Metric { return results.Metric{Unit: unit, Value: v} }

// OK is a measured row of cell with the metrics ms: a million records, the
// repetition started rep minutes after T0 and ran 12 s, 9 s of it measured.
func OK(cell string, rep int, ms ...results.Metric) results.Row {
	start := T0.Add(time.Duration(rep) * time.Minute)
	return results.Row{Cell: cell, Rep: rep, OK: true, Metrics: ms, Iters: 1000000,
		Start: start, End: start.Add(12 * time.Second), Measured: 9 * time.Second}
}

// WriteRun writes a run directory at dir (created if need be; relative to
// the working directory when relative) holding m and rows, through
// results.WriteManifest and a results.Journal, and returns dir.
func WriteRun(t testing.TB, dir string, m results.Manifest, rows []results.Row) string {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := results.WriteManifest(dir, m); err != nil {
		t.Fatal(err)
	}
	j, err := results.OpenJournal(filepath.Join(dir, results.JournalFile))
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		if err := j.Append(r); err != nil {
			j.Close()
			t.Fatal(err)
		}
	}
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TempRun writes a run directory named name (so a report's heading is
// stable) in a fresh temporary directory, as WriteRun does.
func TempRun(t testing.TB, name string, m results.Manifest, rows []results.Row) string {
	t.Helper()
	return WriteRun(t, filepath.Join(t.TempDir(), name), m, rows)
}

// Manifest is a complete manifest of an emulated run on an arm64 host, with
// a stored spec of two paths by three batch sizes.
func Manifest() results.Manifest {
	spec, _ := json.Marshal(map[string]any{"name": "fixture", "path": []string{"shallow", "fast"}, "batch": []int{1024, 8192, 65536}, "repetitions": 3})
	return results.Manifest{
		Host: results.Fingerprint{Hostname: "lab-1", CPUModel: "Neoverse-N1", Cores: 2, Arch: "arm64",
			Kernel: "6.1.0-28-arm64", Governor: "performance", SMT: "notsupported", THP: "madvise"},
		GoVersion: "go1.26.8", Librdkafka: "2.11.1",
		AllocVersions: map[string]string{"go": "go1.26.8", "mimalloc2": "2.1.7"},
		GitCommit:     "0123456789ab", GitDirty: true,
		Spec:  spec,
		Start: T0, End: T0.Add(42 * time.Minute),
		MeasuredFraction: 0.61, Emulated: true, BuildFlags: "-trimpath",
	}
}
