package results

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

var mergeT0 = time.Date(2026, 12, 2, 9, 0, 0, 0, time.UTC)

// storedSpec mimics the ladder's manifest spec: the spec, its cells and
// the per-host pinning.
func storedSpec(t *testing.T, batches []int, cells []string, reps int, cpus string) json.RawMessage {
	t.Helper()
	b, err := json.Marshal(map[string]any{
		"spec":    map[string]any{"name": "m", "batch": batches, "repetitions": reps},
		"cells":   cells,
		"pinning": map[string]any{"on": cpus != "", "cell_cpus": cpus},
	})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

var mergeCells = []string{"path=fast/batch=1024", "path=fast/batch=8192"}

func mergeRun(t *testing.T, dir, arch string, emulated bool, cpus string, rate float64) Run {
	t.Helper()
	m := Manifest{
		Host:      Fingerprint{Hostname: "h-" + arch, CPUModel: "cpu-" + arch, Cores: 4, Arch: arch, Kernel: "6.1"},
		GoVersion: "go1.26.8", Librdkafka: "2.11.1", GitCommit: "abc",
		AllocVersions: map[string]string{"go": "go1.26.8"},
		Spec:          storedSpec(t, []int{1024, 8192}, mergeCells, 2, cpus),
		Start:         mergeT0, End: mergeT0.Add(10 * time.Minute), MeasuredFraction: 0.5, Emulated: emulated,
	}
	var rows []Row
	for _, c := range mergeCells {
		for rep := range 2 {
			rows = append(rows, Row{Cell: c, Rep: rep, OK: true, Iters: 100, Metrics: []Metric{{"rec/s", rate * float64(1+rep)}}})
		}
	}
	rows = append(rows, Row{Cell: "path=fast/batch=1024/aa=a", Rep: 0, Reason: "crash"})
	return Run{Dir: dir, Manifest: m, Rows: rows}
}

func TestMerge(t *testing.T) {
	x86 := mergeRun(t, "runs/x86", "amd64", false, "1", 1e6)
	arm := mergeRun(t, "runs/arm", "arm64", true, "2-3", 5e5) // other pinning: same spec
	got, err := Merge([]Run{x86, arm}, false)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(got.Run.Rows); n != 10 {
		t.Fatalf("%d rows, want 10", n)
	}
	want := map[string]bool{
		"arch=amd64/path=fast/batch=1024": true, "arch=arm64-emulated/path=fast/batch=8192": true,
		"arch=arm64-emulated/path=fast/batch=1024/aa=a": true,
	}
	for _, r := range got.Run.Rows {
		delete(want, r.Cell)
	}
	if len(want) > 0 {
		t.Errorf("merged rows lack cells %v", want)
	}
	m := got.Run.Manifest
	if m.Host.Arch != "amd64 + arm64-emulated" || !m.Emulated || m.Host.Hostname != "h-amd64 + h-arm64" || m.GoVersion != "go1.26.8" {
		t.Errorf("merged manifest %+v", m)
	}
	if len(got.Sources) != 2 || got.Sources[1].Label != "arm64-emulated" || got.Sources[1].Rows != 5 || got.Sources[1].Failed != 1 {
		t.Errorf("sources %+v", got.Sources)
	}
	// Tables built from the merged rows have arch as an axis.
	tables, err := BuildTables(NewIndex(got.Run.Rows), TableOptions{})
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, tb := range tables {
		if tb.Axis == ArchKey && tb.Unit == "rec/s" && len(tb.Cols) == 2 && tb.Cols[0] == "amd64" && tb.Cols[1] == "arm64-emulated" {
			found = true
		}
	}
	if !found {
		t.Errorf("no rec/s by arch table with columns amd64, arm64-emulated")
	}
}

func TestMergeRefusals(t *testing.T) {
	x86 := mergeRun(t, "runs/x86", "amd64", false, "", 1e6)
	arm := mergeRun(t, "runs/arm", "arm64", false, "", 5e5)

	otherSpec := arm
	otherSpec.Manifest.Spec = storedSpec(t, []int{1024, 65536}, mergeCells, 2, "")

	torn := arm
	torn.Dropped = 1

	short := arm
	short.Rows = short.Rows[:3] // batch=8192 rep 1 missing

	merged, err := Merge([]Run{x86, arm}, false)
	if err != nil {
		t.Fatal(err)
	}
	again := merged.Run
	again.Dir = "runs/merged"

	tests := []struct {
		name  string
		runs  []Run
		want  []string
		force bool // whether force makes it pass
	}{
		{"no runs", nil, []string{"no runs"}, false},
		{"different specs", []Run{x86, otherSpec}, []string{"runs/x86", "runs/arm", "different specs", "fields batch"}, true},
		{"same arch", []Run{x86, x86}, []string{"both arch=amd64"}, true},
		{"torn journal", []Run{x86, torn}, []string{"runs/arm", "journal.jsonl", "torn line"}, true},
		{"missing reps", []Run{x86, short}, []string{"runs/arm", "lacks 1 of 4", "path=fast/batch=8192 rep 1"}, true},
		{"merged again", []Run{again, arm}, []string{"runs/merged", "already has an arch= part"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Merge(tt.runs, false)
			if err == nil {
				t.Fatal("merged")
			}
			msg := err.Error()
			if strings.HasPrefix(msg, "results: ") || strings.Contains(msg, "\n") {
				t.Errorf("error %q is not one line without a package prefix", msg)
			}
			for _, w := range tt.want {
				if !strings.Contains(msg, w) {
					t.Errorf("error %q lacks %q", msg, w)
				}
			}
			_, err = Merge(tt.runs, true)
			if tt.force && err != nil {
				t.Errorf("force: %v", err)
			}
			if !tt.force && err == nil {
				t.Error("force merged what must never merge")
			}
		})
	}
}

func TestMergeForceSameArch(t *testing.T) {
	a := mergeRun(t, "a", "amd64", false, "", 1e6)
	got, err := Merge([]Run{a, a}, true)
	if err != nil {
		t.Fatal(err)
	}
	if got.Sources[0].Label != "amd64" || got.Sources[1].Label != "amd64-run2" {
		t.Errorf("labels %q, %q", got.Sources[0].Label, got.Sources[1].Label)
	}
}

func TestWriteMergedTo(t *testing.T) {
	got, err := Merge([]Run{mergeRun(t, "x", "amd64", false, "", 1e6), mergeRun(t, "y", "arm64", false, "", 5e5)}, false)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := WriteMergedTo(dir, got, TableOptions{}); err != nil {
		t.Fatal(err)
	}
	back, err := ReadRun(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(back.Rows) != len(got.Run.Rows) || back.Manifest.Host.Arch != "amd64 + arm64" {
		t.Errorf("read back %d rows, arch %q", len(back.Rows), back.Manifest.Host.Arch)
	}
	src, err := ReadSources(dir)
	if err != nil || len(src) != 2 || src[1].Dir != "y" {
		t.Errorf("sources %+v, %v", src, err)
	}
	raw, err := os.ReadFile(filepath.Join(dir, RawFile))
	if err != nil || !strings.Contains(string(raw), "BenchmarkLadder/arch=arm64/path=fast/batch=8192 ") {
		t.Errorf("raw.txt lacks the arch-labelled cell (%v):\n%s", err, raw)
	}
	if _, err := os.Stat(filepath.Join(dir, TablesDir, TableFileBase("rec/s", ArchKey)+".txt")); err != nil {
		t.Errorf("no rec/s by arch table: %v", err)
	}
	// A plain run has no sources; a corrupt sources.json names the file.
	if src, err := ReadSources(t.TempDir()); src != nil || err != nil {
		t.Errorf("plain run: sources %v, err %v", src, err)
	}
	if err := os.WriteFile(filepath.Join(dir, SourcesFile), []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadSources(dir); err == nil || !strings.Contains(err.Error(), SourcesFile) {
		t.Errorf("corrupt sources: %v", err)
	}
}

func TestDetectEmulation(t *testing.T) {
	x86info := "processor\t: 0\nvendor_id\t: AuthenticAMD\ncpu family\t: 25\nmodel name\t: AMD EPYC\nflags\t\t: fpu sse4_2\n"
	arminfo := "processor\t: 0\nBogoMIPS\t: 50.00\nFeatures\t: fp asimd crc32\nCPU implementer\t: 0x41\nCPU architecture: 8\n"
	tests := []struct {
		env, cpuinfo, goarch string
		want                 bool
	}{
		{"", x86info, "amd64", false},
		{"", arminfo, "arm64", false},
		{"", x86info, "arm64", true},
		{"", arminfo, "amd64", true},
		{"1", arminfo, "arm64", true},
		{"0", arminfo, "arm64", false},
		{"", "", "arm64", false}, // unreadable cpuinfo: no claim
	}
	for _, tt := range tests {
		got, why := detectEmulation(tt.env, tt.cpuinfo, tt.goarch)
		if got != tt.want || got == (why == "") {
			t.Errorf("env %q goarch %s: %v (%q), want %v", tt.env, tt.goarch, got, why, tt.want)
		}
	}
}

// recordsRun is a run of a memory-scaling spec at records, on one host:
// the ladder's stored spec (named after its length, as memory-kafka-4m
// is) with reps repetitions of two cells and an A/A pair.
func recordsRun(t *testing.T, dir string, records int64, reps int, extra map[string]any) Run {
	t.Helper()
	spec := map[string]any{"name": fmt.Sprintf("memory-%d", records), "path": []string{"fast"}, "batch": []int{1024, 8192},
		"records": records, "repetitions": reps, "warmup": 1}
	for k, v := range extra {
		spec[k] = v
	}
	raw, err := json.Marshal(map[string]any{"spec": spec, "cells": mergeCells})
	if err != nil {
		t.Fatal(err)
	}
	m := Manifest{
		Host:      Fingerprint{Hostname: "vm", CPUModel: "AMD EPYC", Cores: 2, Arch: "amd64", Kernel: "6.1", THP: "madvise"},
		GoVersion: "go1.26.8", Librdkafka: "2.11.1", GitCommit: "abc", Spec: raw,
		Start: mergeT0, End: mergeT0.Add(10 * time.Minute), MeasuredFraction: 0.5,
	}
	var rows []Row
	for _, c := range append(mergeCells, "path=fast/batch=1024/aa=a", "path=fast/batch=1024/aa=b") {
		for rep := range reps {
			rows = append(rows, Row{Cell: c, Rep: rep, OK: true, Iters: records,
				Metrics: []Metric{{UnitRecPerSec, 1e6}, {UnitPathPeakRSSMB, 60 + float64(records)/1e6}}})
		}
	}
	return Run{Dir: dir, Manifest: m, Rows: rows}
}

// TestMergeByRecords: runs of one spec at several records, given in any
// order, merge smallest first with records=<N> leading every cell name;
// their repetitions and names may differ, and the merged manifest keeps
// the host's arch (the labels are record counts).
func TestMergeByRecords(t *testing.T) {
	big := recordsRun(t, "runs/16m", 16000000, 1, nil)
	small := recordsRun(t, "runs/4m", 4000000, 2, nil)
	got, err := MergeBy([]Run{big, small}, RecordsKey, false)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Sources) != 2 || got.Sources[0].Label != "4000000" || got.Sources[1].Label != "16000000" ||
		got.Sources[0].Dir != "runs/4m" || got.Sources[0].MergeKey() != RecordsKey || got.Sources[0].Rows != 8 {
		t.Errorf("sources %+v", got.Sources)
	}
	if c := got.Run.Rows[0].Cell; c != "records=4000000/path=fast/batch=1024" {
		t.Errorf("first row %s, want the 4M run's first cell with records= first", c)
	}
	if m := got.Run.Manifest; m.Host.Arch != "amd64" || m.Host.Hostname != "vm" || !strings.Contains(string(m.Spec), `"memory-4000000"`) {
		t.Errorf("merged manifest arch %q host %q spec %s, want the host's arch and the smallest run's spec", m.Host.Arch, m.Host.Hostname, m.Spec)
	}
	tables, err := BuildTables(NewIndex(got.Run.Rows), TableOptions{})
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, tb := range tables {
		if tb.Axis == RecordsKey && tb.Unit == UnitPathPeakRSSMB && strings.Join(tb.Cols, ",") == "4000000,16000000" {
			found = true
		}
	}
	if !found {
		t.Error("no path-peak-RSS-MB by records table with columns 4000000, 16000000")
	}
	// An arch merge's sources keep no key: sources.json is what it was.
	arch, err := Merge([]Run{mergeRun(t, "x", "amd64", false, "", 1e6), mergeRun(t, "y", "arm64", false, "", 1e6)}, false)
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := json.Marshal(arch.Sources[0]); strings.Contains(string(b), `"key"`) || arch.Sources[0].MergeKey() != ArchKey {
		t.Errorf("arch source %s", b)
	}
}

func TestMergeByRecordsRefusals(t *testing.T) {
	small := recordsRun(t, "runs/4m", 4000000, 3, nil)
	big := recordsRun(t, "runs/16m", 16000000, 1, nil)

	noRecords := big
	noRecords.Manifest.Spec = storedSpec(t, []int{1024, 8192}, mergeCells, 1, "")

	warmup := recordsRun(t, "runs/16m", 16000000, 1, map[string]any{"warmup": 0})
	batches := recordsRun(t, "runs/16m", 16000000, 1, map[string]any{"batch": []int{8192}})

	otherHost := big
	otherHost.Manifest.Host.Hostname = "lab-2"

	thp := big
	thp.Manifest.Host.THP = "always"

	emulated := big
	emulated.Manifest.Emulated = true

	short := small
	short.Rows = short.Rows[:2] // batch=1024 rep 2 and batch=8192 missing

	byArch, err := Merge([]Run{mergeRun(t, "x", "amd64", false, "", 1e6), mergeRun(t, "y", "arm64", false, "", 1e6)}, false)
	if err != nil {
		t.Fatal(err)
	}
	again := byArch.Run
	again.Dir = "runs/merged"

	// A run without a warm-up round (a long topic's, as memory-kafka-64m)
	// merges with runs that had one.
	if _, err := MergeBy([]Run{small, warmup}, RecordsKey, false); err != nil {
		t.Errorf("runs differing in warm-up rounds: %v", err)
	}
	// Nor does a headline (the report's question, not a setting) keep a
	// run from one before its spec had one.
	asked := recordsRun(t, "runs/16m", 16000000, 1, map[string]any{"headline": []string{"fast/franz in path-peak-RSS-MB"}})
	if _, err := MergeBy([]Run{small, asked}, RecordsKey, false); err != nil {
		t.Errorf("runs differing in headline: %v", err)
	}

	tests := []struct {
		name  string
		runs  []Run
		want  []string
		force bool // whether force makes it pass
	}{
		{"no records", []Run{small, noRecords}, []string{"runs/16m", "no records"}, false},
		{"same records", []Run{small, big, recordsRun(t, "runs/16m-again", 16000000, 3, nil)}, []string{"runs/16m and runs/16m-again", "both ran records=16000000"}, false},
		{"other spec", []Run{small, batches}, []string{"runs/4m and runs/16m", "more than records, repetitions and warm-up", "fields batch"}, true},
		{"other host", []Run{small, otherHost}, []string{"different hosts", `hostname "vm" vs "lab-2"`}, true},
		{"other THP", []Run{small, thp}, []string{"different hosts", `THP "madvise" vs "always"`}, true},
		{"emulated", []Run{small, emulated}, []string{"different hosts", "emulated"}, true},
		{"missing reps", []Run{short, big}, []string{"runs/4m", "lacks 4 of 6"}, true},
		{"merged again", []Run{again, small}, []string{"runs/merged", "already has an arch= part"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := MergeBy(tt.runs, RecordsKey, false)
			if err == nil {
				t.Fatal("merged")
			}
			msg := err.Error()
			if strings.Contains(msg, "\n") {
				t.Errorf("error %q is not one line", msg)
			}
			for _, w := range tt.want {
				if !strings.Contains(msg, w) {
					t.Errorf("error %q lacks %q", msg, w)
				}
			}
			_, err = MergeBy(tt.runs, RecordsKey, true)
			if tt.force && err != nil {
				t.Errorf("force: %v", err)
			}
			if !tt.force && err == nil {
				t.Error("force merged what must never merge")
			}
		})
	}
	if _, err := MergeBy([]Run{small, big}, "size", false); err == nil || err.Error() != `merge: cannot merge by "size" (want arch or records)` {
		t.Errorf("unknown key: %v", err)
	}
}
