package report

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fastpathlab/fplab/internal/golden"
	"github.com/fastpathlab/fplab/results"
	"github.com/fastpathlab/fplab/results/resultstest"
)

// hostRun writes a complete ladder-like run (spec with cells and
// repetitions) for one host into dir (relative to the test's working
// directory, so the report's paths are stable).
func hostRun(t *testing.T, dir, arch, cpu string, emulated bool, batches []int, rate float64) string {
	t.Helper()
	var cells []string
	for _, b := range batches {
		cells = append(cells, fmt.Sprintf("path=fast/format=json/batch=%d/brokers=1/alloc=go/crc=on", b))
	}
	spec, err := json.Marshal(map[string]any{
		"spec":  map[string]any{"name": "merge", "batch": batches, "crc": []string{"on"}, "repetitions": 3},
		"cells": cells,
	})
	if err != nil {
		t.Fatal(err)
	}
	m := results.Manifest{
		Host: results.Fingerprint{Hostname: "host-" + arch, CPUModel: cpu, Cores: 2, Arch: arch,
			Kernel: "6.1.0", Governor: "performance", SMT: "off", THP: "madvise"},
		GoVersion: "go1.26.8", Librdkafka: "2.11.1", AllocVersions: map[string]string{"go": "go1.26.8"},
		GitCommit: "0123456789ab", Spec: spec, Start: resultstest.T0, End: resultstest.T0.Add(20 * time.Minute),
		MeasuredFraction: 0.5, Emulated: emulated,
	}
	var rows []results.Row
	for i, c := range cells {
		for rep := range 3 {
			v := rate * float64(i+1) * (1 + 0.01*float64(rep))
			rows = append(rows, resultstest.OK(c, rep, resultstest.Metric("rec/s", v), resultstest.Metric("ns/rec", 1e9/v)))
		}
	}
	return resultstest.WriteRun(t, dir, m, rows)
}

// noStaging fails if a staging directory or outDir was left behind.
func noStaging(t *testing.T, parent, outDir string) {
	t.Helper()
	ents, err := os.ReadDir(parent)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if strings.Contains(e.Name(), ".merging-") {
			t.Errorf("staging directory %s left behind", e.Name())
		}
	}
	if outDir != "" {
		if _, err := os.Stat(outDir); !os.IsNotExist(err) {
			t.Errorf("%s exists after a failed merge (%v)", outDir, err)
		}
	}
}

func TestMergeReportGolden(t *testing.T) {
	t.Chdir(t.TempDir())
	x86 := hostRun(t, "runs/x86", "amd64", "AMD EPYC", false, []int{1024, 8192}, 2e6)
	arm := hostRun(t, "runs/arm", "arm64", "AMD EPYC", true, []int{1024, 8192}, 2e5)
	path, err := MergeReport("runs/merged", []string{x86, arm}, false, Options{NoPlots: true})
	if err != nil {
		t.Fatal(err)
	}
	if path != filepath.Join("runs/merged", FileName) {
		t.Errorf("path %s", path)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	md := string(data)
	golden.Check(t, "merged.golden.md", data) // the package's testdata, wherever the test runs
	lacks(t, "merged report", md,
		"# Run merged\n",
		"## Merged runs",
		"| `arm64-emulated` | host-arm64 |",
		"### rec/s by arch",
		"| arch=amd64 rec/s | CV | arch=arm64-emulated rec/s |",
	)
	for _, f := range []string{results.ManifestFile, results.JournalFile, results.RawFile, results.SourcesFile} {
		if _, err := os.Stat(filepath.Join("runs/merged", f)); err != nil {
			t.Errorf("merged directory lacks %s: %v", f, err)
		}
	}
	noStaging(t, "runs", "")
	if _, err := MergeReport("runs/merged", []string{x86, arm}, false, Options{NoPlots: true}); err == nil || !strings.Contains(err.Error(), "exists") {
		t.Errorf("merge over an existing directory: %v", err)
	}
}

func TestMergeReportBadInput(t *testing.T) {
	tests := []struct {
		name   string
		break_ func(t *testing.T, arm string)
		want   string
		force  bool // force lets it through
	}{
		{"missing manifest", func(t *testing.T, arm string) {
			os.Remove(filepath.Join(arm, results.ManifestFile))
		}, "runs/arm/" + results.ManifestFile, false},
		{"corrupt journal in the middle", func(t *testing.T, arm string) {
			p := filepath.Join(arm, results.JournalFile)
			data, _ := os.ReadFile(p)
			lines := strings.SplitAfter(string(data), "\n")
			lines[2] = lines[2][:len(lines[2])/2] + "\n"
			os.WriteFile(p, []byte(strings.Join(lines, "")), 0o644)
		}, "runs/arm/" + results.JournalFile, false},
		{"torn last line", func(t *testing.T, arm string) {
			f, _ := os.OpenFile(filepath.Join(arm, results.JournalFile), os.O_APPEND|os.O_WRONLY, 0)
			f.WriteString(`{"cell":"path=fast`)
			f.Close()
		}, "torn line", true},
		{"missing repetitions", func(t *testing.T, arm string) {
			p := filepath.Join(arm, results.JournalFile)
			data, _ := os.ReadFile(p)
			lines := strings.SplitAfter(strings.TrimSuffix(string(data), "\n"), "\n")
			os.WriteFile(p, []byte(strings.Join(lines[:4], "")), 0o644)
		}, "lacks 2 of 6", true},
		{"no journal", func(t *testing.T, arm string) {
			os.Remove(filepath.Join(arm, results.JournalFile))
		}, results.JournalFile, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Chdir(t.TempDir())
			x86 := hostRun(t, "runs/x86", "amd64", "EPYC", false, []int{1024, 8192}, 2e6)
			arm := hostRun(t, "runs/arm", "arm64", "Neoverse-N1", false, []int{1024, 8192}, 1e6)
			tt.break_(t, arm)
			_, err := MergeReport("runs/merged", []string{x86, arm}, false, Options{NoPlots: true})
			if err == nil {
				t.Fatal("merged")
			}
			msg := err.Error()
			if strings.HasPrefix(msg, "report: ") || strings.Contains(msg, "\n") || !strings.Contains(msg, tt.want) {
				t.Errorf("error %q: want one line without a package prefix naming %q", msg, tt.want)
			}
			noStaging(t, "runs", "runs/merged")
			_, err = MergeReport("runs/merged", []string{x86, arm}, true, Options{NoPlots: true})
			if tt.force != (err == nil) {
				t.Errorf("force: err %v, want success %v", err, tt.force)
			}
		})
	}
}

func TestMergeReportDifferentSpecs(t *testing.T) {
	t.Chdir(t.TempDir())
	x86 := hostRun(t, "runs/x86", "amd64", "EPYC", false, []int{1024, 8192}, 2e6)
	arm := hostRun(t, "runs/arm", "arm64", "Neoverse-N1", false, []int{1024, 65536}, 1e6)
	_, err := MergeReport("runs/merged", []string{x86, arm}, false, Options{NoPlots: true})
	if err == nil || !strings.Contains(err.Error(), "different specs") || !strings.Contains(err.Error(), "batch") {
		t.Fatalf("different specs: %v", err)
	}
	noStaging(t, "runs", "runs/merged")
	path, err := MergeReport("runs/merged", []string{x86, arm}, true, Options{NoPlots: true})
	if err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	if !strings.Contains(string(data), "arch=arm64") {
		t.Error("forced merge lacks the arm64 rows")
	}
}

// lengthRun writes a complete run of a memory-scaling spec at records on
// one host (the spec named after its length, as memory-kafka-4m is): two
// paths, reps repetitions, rec/s and path-peak-RSS-MB.
func lengthRun(t *testing.T, dir string, records, reps int, timeout string) string {
	t.Helper()
	var cells []string
	for _, p := range []string{"shallow", "fast"} {
		cells = append(cells, "path="+p+"/format=json/batch=8192/brokers=1/alloc=go/crc=off/cluster=kafka")
	}
	spec, err := json.Marshal(map[string]any{
		"spec": map[string]any{"name": fmt.Sprintf("memory-kafka-%dm", records/1000000), "path": []string{"shallow", "fast"},
			"cluster": []string{"kafka"}, "records": records, "repetitions": reps, "warmup": 1, "timeout": timeout},
		"cells": cells,
	})
	if err != nil {
		t.Fatal(err)
	}
	m := results.Manifest{
		Host: results.Fingerprint{Hostname: "vm", CPUModel: "AMD EPYC", Cores: 2, Arch: "amd64",
			Kernel: "6.1.0", Governor: "performance", SMT: "off", THP: "madvise"},
		GoVersion: "go1.26.8", Librdkafka: "2.11.1", AllocVersions: map[string]string{"go": "go1.26.8"},
		GitCommit: "0123456789ab", Spec: spec, Start: resultstest.T0, End: resultstest.T0.Add(20 * time.Minute),
		MeasuredFraction: 0.5,
	}
	var rows []results.Row
	for i, c := range cells {
		for rep := range reps {
			v := 1e6 * float64(i+1) * (1 + 0.01*float64(rep))
			rss := 60 + float64(records)/1e6 + float64(rep)
			rows = append(rows, resultstest.OK(c, rep, resultstest.Metric("rec/s", v), resultstest.Metric(results.UnitPathPeakRSSMB, rss)))
		}
	}
	return resultstest.WriteRun(t, dir, m, rows)
}

// TestMergeReportByRecords: runs of one spec at 4M and 16M records (given
// largest first, with other repetitions) make one report whose tables set
// each path's rec/s and path-peak-RSS-MB against records, smallest first.
func TestMergeReportByRecords(t *testing.T) {
	t.Chdir(t.TempDir())
	big := lengthRun(t, "runs/16m", 16000000, 1, "15m0s")
	small := lengthRun(t, "runs/4m", 4000000, 3, "15m0s")
	path, err := MergeReportBy("runs/merged", []string{big, small}, results.RecordsKey, false, Options{NoPlots: true})
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "merged-records.golden.md", data)
	lacks(t, "merged report", string(data),
		"## Merged runs",
		"every cell name carries `records=`",
		"| `4000000` | vm |",
		"### rec/s by records",
		"| records=4000000 path-peak-RSS-MB | CV | records=16000000 path-peak-RSS-MB |",
	)
	src, err := results.ReadSources("runs/merged")
	if err != nil || len(src) != 2 || src[0].Key != results.RecordsKey || src[0].Dir != small {
		t.Errorf("sources %+v, %v", src, err)
	}

	// A run of another cell timeout differs in more than records and
	// repetitions: refused, nothing left behind.
	other := lengthRun(t, "runs/64m", 64000000, 1, "5m0s")
	_, err = MergeReportBy("runs/merged-64", []string{small, other}, results.RecordsKey, false, Options{NoPlots: true})
	if err == nil || !strings.Contains(err.Error(), "fields timeout") || strings.Contains(err.Error(), "\n") {
		t.Errorf("other timeout: %v", err)
	}
	noStaging(t, "runs", "runs/merged-64")
	// By arch, the default, the lengths are different specs, as before.
	if _, err := MergeReport("runs/merged-arch", []string{small, big}, false, Options{NoPlots: true}); err == nil || !strings.Contains(err.Error(), "different specs") {
		t.Errorf("by arch: %v", err)
	}
}
