package report

import (
	"encoding/json"
	"errors"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/fastpathlab/fplab/internal/golden"
	"github.com/fastpathlab/fplab/plots"
	"github.com/fastpathlab/fplab/results"
	"github.com/fastpathlab/fplab/results/resultstest"
)

// writeReport runs Write on the run directory dir and returns the report
// it wrote, which must be dir/report.md.
func writeReport(t *testing.T, dir string, opt Options) string {
	t.Helper()
	path, err := Write(dir, opt)
	if err != nil {
		t.Fatal(err)
	}
	if path != filepath.Join(dir, FileName) {
		t.Errorf("path = %s", path)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// lacks fails t for each of wants that md, the named text, does not hold.
func lacks(t *testing.T, name, md string, wants ...string) {
	t.Helper()
	for _, want := range wants {
		if !strings.Contains(md, want) {
			t.Errorf("%s lacks %q", name, want)
		}
	}
}

func TestWriteGolden(t *testing.T) {
	dir := resultstest.TempRun(t, "20261202T100000Z-lab-1", resultstest.Manifest(), resultstest.GapRows())
	md := writeReport(t, dir, Options{})
	golden.Check(t, "report.golden.md", []byte(md))

	// Every relative link points at a file Write produced.
	links := regexp.MustCompile(`\]\(([^)]+)\)`).FindAllStringSubmatch(md, -1)
	if len(links) == 0 {
		t.Fatal("report links no image")
	}
	for _, l := range links {
		if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(l[1]))); err != nil {
			t.Errorf("link %s: %v", l[1], err)
		}
	}
}

// TestReportContent checks the properties the golden file is meant to
// hold, so a careless -update cannot bless a broken report.
func TestReportContent(t *testing.T) {
	dir := resultstest.TempRun(t, "run", resultstest.Manifest(), resultstest.GapRows())
	md := mustRender(t, mustRun(t, dir), Options{NoPlots: true})
	lacks(t, "report", md,
		plots.EmulatedLabel,
		"| commit | 0123456789ab (dirty: uncommitted changes) |",
		"| measured-time fraction | 61.0% |",
		"| allocators | go go1.26.8, mimalloc2 2.1.7 |",
		"Pair `path=fast/format=json/batch=8192/brokers=3/alloc=go/crc=off`",
		"| json | fast | brokers=3 alloc=go crc=off | 8192 |",
		"all 3 repetitions failed (timeout after 2m0s)",
		"no ckpt-p99-ms samples in its successful repetitions",
		"one repetition (or a zero mean): no spread to measure",
		"| `path=shallow/format=json/batch=1024/brokers=3/alloc=go/crc=off` | 3 of 3 | timeout after 2m0s | killed |",
		"| `path=fast/format=json/batch=1024/brokers=3/alloc=go/crc=off` | 1 of 3 | assertion: fell back to per-record poll | none |",
		"````\nfplab rung: waiting for partition 3\n```\npanic: stuck\n````",
		"`tradeoff-json`: not drawn yet",
	)
	// A/A cells belong to the noise floor only: no table row, knee or
	// figure of theirs.
	if strings.Contains(md, "aa=a |") || strings.Contains(md, "by aa") {
		t.Error("A/A cells leaked into the tables")
	}
	// A gap is never a zero.
	if regexp.MustCompile(`\| 0 ± `).MatchString(md) {
		t.Error("a table shows a zero value")
	}
	// Every footnote reference has a definition.
	for _, ref := range regexp.MustCompile(`\[\^(\d+)\]`).FindAllStringSubmatch(md, -1) {
		if !strings.Contains(md, "\n[^"+ref[1]+"]: ") {
			t.Errorf("footnote %s has no definition", ref[1])
		}
	}
}

func mustRun(t *testing.T, dir string) results.Run {
	t.Helper()
	run, err := results.ReadRun(dir)
	if err != nil {
		t.Fatal(err)
	}
	return run
}

// TestWriteMinimal: a bare manifest and one single-repetition cell still
// give a full report, with gaps instead of invented values.
func TestWriteMinimal(t *testing.T) {
	m := results.Manifest{Start: resultstest.T0}
	rows := []results.Row{resultstest.OK("path=fast/format=json/batch=8192", 0, resultstest.Metric("rec/s", 2e6))}
	md := writeReport(t, resultstest.TempRun(t, "minimal", m, rows), Options{})
	golden.Check(t, "minimal.golden.md", []byte(md))
	lacks(t, "minimal report", md, "| host | —[^1] |", "[^1]: not recorded in the manifest", "No A/A calibration pair", "no knee", "None: every repetition", "| `path=fast/format=json/batch=8192` | 2.000M (n=1) |")
}

func TestWriteBadInput(t *testing.T) {
	good := func(t *testing.T) string {
		return resultstest.TempRun(t, "run", resultstest.Manifest(), resultstest.GapRows()[:3])
	}
	tests := []struct {
		name   string
		break_ func(dir string) error
		file   string
	}{
		{"missing manifest", func(dir string) error { return os.Remove(filepath.Join(dir, results.ManifestFile)) }, results.ManifestFile},
		{"corrupt manifest", func(dir string) error {
			return os.WriteFile(filepath.Join(dir, results.ManifestFile), []byte("{\"host\": [\n"), 0o644)
		}, results.ManifestFile},
		{"missing journal", func(dir string) error { return os.Remove(filepath.Join(dir, results.JournalFile)) }, results.JournalFile},
		{"corrupt journal", func(dir string) error {
			return os.WriteFile(filepath.Join(dir, results.JournalFile), []byte("not json\n{\"cell\":\"a=b\",\"ok\":true}\n"), 0o644)
		}, results.JournalFile},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := good(t)
			if err := tt.break_(dir); err != nil {
				t.Fatal(err)
			}
			_, err := Write(dir, Options{})
			if err == nil {
				t.Fatal("no error")
			}
			msg := err.Error()
			var fe *results.FileError
			if !strings.HasPrefix(msg, "read ") || strings.Contains(msg, "\n") || !errors.As(err, &fe) || fe.File != filepath.Join(dir, tt.file) {
				t.Errorf("error %q: want one line, a *results.FileError naming %s", msg, tt.file)
			}
			if _, err := os.Stat(filepath.Join(dir, FileName)); !os.IsNotExist(err) {
				t.Errorf("report written despite the error: %v", err)
			}
		})
	}
}

// TestWriteAllFailed: a run where nothing succeeded still gets a report
// that says so section by section.
func TestWriteAllFailed(t *testing.T) {
	rows := []results.Row{
		{Cell: "path=fast/format=json/batch=256", Rep: 0, Reason: "broker unreachable"},
		{Cell: "path=fast/format=json/batch=8192", Rep: 0, Reason: "crash", Signal: "SIGSEGV", StderrTail: "SIGSEGV: segmentation violation"},
		{Cell: "path=fast/format=json/batch=8192/aa=a", Rep: 0, Reason: "crash"},
	}
	dir := resultstest.TempRun(t, "failed", results.Manifest{Start: resultstest.T0}, rows)
	md := writeReport(t, dir, Options{})
	lacks(t, "report", md,
		"no pair has successful repetitions on both sides",
		"No table: no repetition succeeded",
		"`throughput-json`: no rec/s samples",
		"| `path=fast/format=json/batch=8192` | 1 of 1 | crash | SIGSEGV |",
		"| `path=fast/format=json/batch=8192/aa=a` | 1 of 1 | crash | none |",
		"SIGSEGV: segmentation violation",
	)
	if _, err := os.Stat(filepath.Join(dir, plots.Dir, "throughput-json.png")); !os.IsNotExist(err) {
		t.Errorf("an image was drawn without data: %v", err)
	}
}

func TestLinkBase(t *testing.T) {
	dir := resultstest.TempRun(t, "run", resultstest.Manifest(), resultstest.GapRows())
	md := mustRender(t, mustRun(t, dir), Options{LinkBase: "../results/runs/run/"})
	if !strings.Contains(md, "](../results/runs/run/plots/throughput-json.png)") ||
		!strings.Contains(md, "[SVG](../results/runs/run/plots/throughput-json.svg)") {
		t.Errorf("links not prefixed with LinkBase:\n%s", md)
	}
	if strings.Contains(md, "](plots/") {
		t.Error("a link escaped LinkBase")
	}
}

func TestBudgetOption(t *testing.T) {
	dir := resultstest.TempRun(t, "run", resultstest.Manifest(), resultstest.GapRows())
	md := mustRender(t, mustRun(t, dir), Options{NoPlots: true, BudgetMs: 20})
	lacks(t, "report", md,
		"## Knee (checkpoint p99 budget 20 ms)",
		"| json | fast | brokers=3 alloc=go crc=off | 1024 |",
		"| json | shallow | brokers=3 alloc=go crc=off | none within budget[^",
	)
}

// mustRender is Render for options a test knows are valid.
func mustRender(t testing.TB, run results.Run, opt Options) string {
	t.Helper()
	md, err := Render(run, opt)
	if err != nil {
		t.Fatal(err)
	}
	return md
}

// TestOptionsRefused: a bad option is an error naming the field and its
// bound, and Write leaves no report behind.
func TestOptionsRefused(t *testing.T) {
	dir := resultstest.TempRun(t, "run", resultstest.Manifest(), resultstest.SmokeRows())
	for _, tc := range []struct {
		opt  Options
		want string
	}{
		{Options{BudgetMs: -5}, "Options.BudgetMs is -5, want 0 (default 100) to 60000"},
		{Options{BudgetMs: math.Inf(1)}, "Options.BudgetMs is +Inf"},
		{Options{CostBudget: 1}, "Options.CostBudget is 1, want 0 (default 0.02) up to but not including 1"},
		{Options{CostBudget: -0.1}, "Options.CostBudget is -0.1"},
	} {
		if _, err := Write(dir, tc.opt); err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("Write(%+v) = %v, want %q", tc.opt, err, tc.want)
		}
		if _, err := os.Stat(filepath.Join(dir, FileName)); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("Write(%+v) left %s: %v", tc.opt, FileName, err)
		}
	}
}

// TestIncompleteRunSaysSoAtTheTop: a run whose journal lacks cell
// repetitions of its spec (a killed ladder not resumed yet) says so before
// anything else, with the command that finishes it; a finished one does not.
func TestIncompleteRunSaysSoAtTheTop(t *testing.T) {
	cells := []string{"path=fast/format=json/batch=8192", "path=shallow/format=json/batch=8192"}
	spec, err := json.Marshal(map[string]any{"spec": map[string]any{"repetitions": 2}, "cells": cells})
	if err != nil {
		t.Fatal(err)
	}
	m := results.Manifest{Start: resultstest.T0, Spec: spec}
	var rows []results.Row
	for _, c := range cells {
		for rep := range 2 {
			rows = append(rows, resultstest.OK(c, rep, resultstest.Metric("rec/s", 2e6)))
		}
	}
	md := writeReport(t, resultstest.TempRun(t, "done", m, rows), Options{})
	if strings.Contains(md, "Incomplete run") {
		t.Errorf("a finished run reads as incomplete:\n%s", md)
	}
	md = writeReport(t, resultstest.TempRun(t, "killed", m, rows[:3]), Options{})
	head, _, _ := strings.Cut(md, "## Run")
	lacks(t, "incomplete report's head", head, "> **Incomplete run.**", "lacks 1 of 4 cell repetitions of its spec (first: path=shallow/format=json/batch=8192 rep 1)", "fplab ladder --resume ")
}
