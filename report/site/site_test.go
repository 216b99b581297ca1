package site

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/fastpathlab/fplab/internal/golden"
	"github.com/fastpathlab/fplab/results"
	"github.com/fastpathlab/fplab/results/history"
	"github.com/fastpathlab/fplab/results/resultstest"
)

const (
	fastCell = "path=fast/format=json/batch=8192"
	aaCell   = "path=fast/format=raw/batch=8192"
)

var t0 = time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)

// fixtureStore stores 8 runs on one host (the fast cell 20% faster from
// the fifth) and 4 on another, and keeps the runs' directories, the last
// of the first host with a report, a figure and a table.
func fixtureStore(t *testing.T) (s *history.Store, runs string) {
	t.Helper()
	ctx := context.Background()
	dir := t.TempDir()
	runs = filepath.Join(dir, "runs")
	s, err := history.Open(ctx, filepath.Join(dir, "history.sqlite"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	hosts := []results.Fingerprint{
		{Hostname: "x86-1", CPUModel: "EPYC", Cores: 2, Arch: "amd64", Kernel: "6.1"},
		{Hostname: "arm-1", CPUModel: "Neoverse-N1", Cores: 4, Arch: "arm64", Kernel: "6.1"},
	}
	for h, n := range []int{8, 4} {
		for i := range n {
			rate := 1e6 * (1 + 0.003*float64((i*7)%5-2))
			if h == 1 {
				rate *= 0.6
			}
			if i >= 4 && h == 0 {
				rate *= 1.2
			}
			m := results.Manifest{Host: hosts[h], GitCommit: fmt.Sprintf("%02d%038d", i, 0),
				Start: t0.Add(time.Duration(i) * time.Hour), End: t0.Add(time.Duration(i)*time.Hour + time.Minute), Format: results.RunFormat}
			var rows []results.Row
			for rep := range 6 {
				v := rate * (1 + 0.001*float64(rep))
				rows = append(rows,
					resultstest.OK(fastCell, rep, resultstest.Metric("rec/s", v), resultstest.Metric("ns/rec", 1e9/v)),
					resultstest.OK(aaCell+"/aa=a", rep, resultstest.Metric("rec/s", 2e6*(1+0.002*float64(rep)))),
					resultstest.OK(aaCell+"/aa=b", rep, resultstest.Metric("rec/s", 2e6*(1+0.002*float64(rep))*1.001)))
			}
			id := fmt.Sprintf("20261201T%02d0000Z-%s", i, hosts[h].Hostname)
			rd := resultstest.WriteRun(t, filepath.Join(runs, id), m, rows)
			if h == 0 && i == n-1 {
				write(t, filepath.Join(rd, "report.md"), "# Run "+id+"\n\n![Throughput](plots/overview.svg)\n\n| cell | rec/s |\n|---|--:|\n| fast | 1.2M |\n\n[the table](tables/rec_s.md)\n")
				write(t, filepath.Join(rd, "plots", "overview.svg"), `<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"></svg>`)
				write(t, filepath.Join(rd, "tables", "rec_s.md"), "| cell | rec/s |\n")
			}
			run, err := results.ReadRun(rd)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := s.Add(ctx, run, history.WithCommitTime(t0.Add(time.Duration(i)*time.Minute))); err != nil {
				t.Fatal(err)
			}
		}
	}
	return s, runs
}

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func buildSite(t *testing.T) (string, Summary) {
	t.Helper()
	s, runs := fixtureStore(t)
	dir := filepath.Join(t.TempDir(), "site")
	sum, err := Build(context.Background(), s, Options{Dir: dir, RunRoots: []string{runs}, Now: t0.Add(48 * time.Hour)})
	if err != nil {
		t.Fatal(err)
	}
	return dir, sum
}

// TestBuild writes the fixture's site: a page per cell, a chart per unit
// of it, the one step found (and only on the host it happened on), the
// report of the run that has one; the index and the fast cell's page as
// the golden files hold them.
func TestBuild(t *testing.T) {
	dir, sum := buildSite(t)
	// cells: fast, aa=a, aa=b; charts: fast's rec/s and ns/rec, one each
	// for the A/A sides; changes: fast's rec/s and ns/rec on x86-1.
	if sum != (Summary{Cells: 3, Charts: 4, Changes: 2, Reports: 1}) {
		t.Errorf("summary = %+v", sum)
	}
	index, err := os.ReadFile(filepath.Join(dir, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "index.html", index)
	cell, err := os.ReadFile(filepath.Join(dir, "cells", Slug(fastCell)+".html"))
	if err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "cell.html", cell)
	report, err := os.ReadFile(filepath.Join(dir, "runs", "20261201T070000Z-x86-1", "report.html"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`<img src="plots/overview.svg"`, `<table>`, `<a href="tables/rec_s.md">`} {
		if !strings.Contains(string(report), want) {
			t.Errorf("report.html lacks %s:\n%s", want, report)
		}
	}
}

var linkAttr = regexp.MustCompile(`(?:href|src)="([^"]*)"`)

// Every link and figure of every page resolves to a file of the site.
func TestLinksResolve(t *testing.T) {
	dir, _ := buildSite(t)
	checked := 0
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Ext(p) != ".html" {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		for _, m := range linkAttr.FindAllStringSubmatch(string(b), -1) {
			target := strings.SplitN(m[1], "#", 2)[0]
			if target == "" || strings.Contains(target, "://") {
				continue
			}
			checked++
			if _, err := os.Stat(filepath.Join(filepath.Dir(p), target)); err != nil {
				rel, _ := filepath.Rel(dir, p)
				t.Errorf("%s links %s, which is not there", rel, m[1])
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 20 {
		t.Errorf("only %d links checked", checked)
	}
}

func TestSlug(t *testing.T) {
	a, b := Slug("path=fast/format=json"), Slug("path=fast/format_json")
	if a == b || !strings.HasPrefix(a, "path_fast_format_json-") || !regexp.MustCompile(`^[A-Za-z0-9._-]+$`).MatchString(a) {
		t.Errorf("slugs %q, %q", a, b)
	}
}
