package report

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/fastpathlab/fplab/results"
)

var t0 = time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC)

// writeRun writes a run directory named name (so the report's heading is
// stable) holding m and rows, through the results package's own writers.
func writeRun(t *testing.T, name string, m results.Manifest, rows []results.Row) string {
	t.Helper()
	return writeRunAt(t, filepath.Join(t.TempDir(), name), m, rows)
}

// writeRunAt writes a run directory at dir holding m and rows.
func writeRunAt(t *testing.T, dir string, m results.Manifest, rows []results.Row) string {
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
			t.Fatal(err)
		}
	}
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	return dir
}

func okRow(cell string, rep int, ms ...results.Metric) results.Row {
	start := t0.Add(time.Duration(rep) * time.Minute)
	return results.Row{Cell: cell, Rep: rep, OK: true, Metrics: ms, Iters: 1000000,
		Start: start, End: start.Add(12 * time.Second), Measured: 9 * time.Second}
}

func metric(unit string, v float64) results.Metric { return results.Metric{Unit: unit, Value: v} }

// fixtureManifest is a complete manifest of an emulated run.
func fixtureManifest() results.Manifest {
	spec, _ := json.Marshal(map[string]any{"name": "fixture", "path": []string{"shallow", "fast"}, "batch": []int{1024, 8192, 65536}, "repetitions": 3})
	return results.Manifest{
		Host: results.Fingerprint{Hostname: "lab-1", CPUModel: "Neoverse-N1", Cores: 2, Arch: "arm64",
			Kernel: "6.1.0-28-arm64", Governor: "performance", SMT: "notsupported", THP: "madvise"},
		GoVersion: "go1.26.8", Librdkafka: "2.11.1",
		AllocVersions: map[string]string{"go": "go1.26.8", "mimalloc2": "2.1.7"},
		GitCommit:     "0123456789ab", GitDirty: true,
		Spec:  spec,
		Start: t0, End: t0.Add(42 * time.Minute),
		MeasuredFraction: 0.61, Emulated: true, BuildFlags: "-trimpath",
	}
}

// fixtureRows is a small run with every kind of gap: a cell whose every
// repetition failed (signal and stderr tail), a cell with a failed
// repetition among good ones, a cell that never reported ckpt-p99-ms, a
// single-repetition cell, and an A/A pair.
func fixtureRows() []results.Row {
	var rows []results.Row
	cell := func(path string, batch int, alloc string) string {
		return fmt.Sprintf("path=%s/format=json/batch=%d/brokers=3/alloc=%s/crc=off", path, batch, alloc)
	}
	rate := map[string]float64{"shallow": 1.2e6, "fast": 2.8e6}
	for _, path := range []string{"shallow", "fast"} {
		for _, batch := range []int{1024, 8192, 65536} {
			c := cell(path, batch, "go")
			for rep := range 3 {
				r := rate[path] * (1 - 256/float64(batch)) * (1 + 0.01*float64(rep-1))
				p99 := 10 + float64(batch)/(300-100*float64(rep%2))
				switch {
				case path == "shallow" && batch == 1024:
					rows = append(rows, results.Row{Cell: c, Rep: rep, Reason: "timeout after 2m0s", Signal: "killed",
						StderrTail: "rung: waiting for partition 3\n```\npanic: stuck", Start: t0, End: t0.Add(2 * time.Minute)})
				case path == "fast" && batch == 1024 && rep == 2:
					rows = append(rows, results.Row{Cell: c, Rep: rep, Reason: "assertion: fell back to per-record poll"})
				case path == "fast" && batch == 65536:
					rows = append(rows, okRow(c, rep, metric("rec/s", r), metric("ns/rec", 1e9/r)))
				default:
					rows = append(rows, okRow(c, rep, metric("rec/s", r), metric("ns/rec", 1e9/r),
						metric("ckpt-p99-ms", p99), metric("replay-rec", float64(batch)*2.5)))
				}
			}
		}
	}
	rows = append(rows, okRow(cell("fast", 8192, "mimalloc2"), 0, metric("rec/s", 3.1e6), metric("ns/rec", 1e9/3.1e6)))
	for rep := range 3 {
		for i, side := range []string{"a", "b"} {
			v := 2.7e6 * (1 + 0.004*float64(rep) + 0.002*float64(i))
			rows = append(rows, okRow(cell("fast", 8192, "go")+"/aa="+side, rep, metric("rec/s", v), metric("ns/rec", 1e9/v)))
		}
	}
	return rows
}
