package report

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fastpathlab/fplab/internal/golden"
	"github.com/fastpathlab/fplab/plots"
	"github.com/fastpathlab/fplab/results"
	"github.com/fastpathlab/fplab/results/resultstest"
)

// headlineManifest is the fixture manifest with a spec naming headlines.
func headlineManifest(t *testing.T, headlines ...string) results.Manifest {
	t.Helper()
	m := resultstest.Manifest()
	spec, err := json.Marshal(map[string]any{"name": "fixture", "path": []string{"rowwise", "fast"}, "batch": []int{1024, 8192},
		"alloc": []string{"go", "mimalloc2"}, "repetitions": 6, "headline": headlines})
	if err != nil {
		t.Fatal(err)
	}
	m.Spec = spec
	return m
}

// TestHeadlineOpensTheReport: a spec's headline is the report's first
// section, before the manifest, and its table and sentences are those of
// the rows (golden: the section alone).
func TestHeadlineOpensTheReport(t *testing.T) {
	m := headlineManifest(t, "fast/rowwise by batch", "mimalloc2/go on fast", "fast/ceiling")
	dir := resultstest.TempRun(t, "20261202T100000Z-lab-1", m, resultstest.TableRows())
	md := writeReport(t, dir, Options{NoPlots: true})
	start := strings.Index(md, "## Headline\n")
	end := strings.Index(md, "Fastpath Lab ladder run:")
	if next := strings.Index(md[start+1:], "\n## "); next >= 0 && start+1+next < end {
		end = start + 1 + next + 1 // the section alone, up to the next one
	}
	if start < 0 || end < start {
		t.Fatalf("no headline before the run's facts:\n%s", md)
	}
	if first := strings.Index(md, "\n## "); first+1 != start {
		t.Errorf("the headline is not the first section (first at %d, headline at %d)", first+1, start)
	}
	golden.Check(t, "headline.golden.md", []byte(md[start:end]))
}

// TestHeadlineNone: a spec without a headline has no such section, and
// Headline says the run names none.
func TestHeadlineNone(t *testing.T) {
	dir := resultstest.TempRun(t, "20261202T100000Z-lab-1", resultstest.Manifest(), resultstest.TableRows())
	if md := writeReport(t, dir, Options{NoPlots: true}); strings.Contains(md, "## Headline") {
		t.Error("a spec without a headline got a headline section")
	}
	run, err := results.ReadRun(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Headline(run, Options{}); err == nil || !strings.Contains(err.Error(), "names no headline") {
		t.Errorf("Headline of a run without one: %v", err)
	}
}

// TestHeadlineUnreadable: a headline this version cannot parse is said in
// the section's place, and the rest of the report is written.
func TestHeadlineUnreadable(t *testing.T) {
	m := headlineManifest(t, "fast")
	dir := resultstest.TempRun(t, "20261202T100000Z-lab-1", m, resultstest.TableRows())
	md := writeReport(t, dir, Options{NoPlots: true})
	lacks(t, "report", md, "## Headline\n\nThe spec's headline cannot be read: ", "## Tables")
}

// TestHeadlineFigure: with plots on, the headline section links
// plots/headline.png (and its SVG) between the sentences and the table,
// with the figure's caption, and both links resolve to files the report
// drew; with plots off a later report links the images already drawn, and
// a report of a spec without a headline draws none.
func TestHeadlineFigure(t *testing.T) {
	m := headlineManifest(t, "fast/rowwise by batch", "mimalloc2/go on fast", "fast/ceiling")
	dir := resultstest.TempRun(t, "20261202T100000Z-lab-1", m, resultstest.TableRows())
	for _, opt := range []Options{{}, {NoPlots: true}} {
		md := writeReport(t, dir, opt)
		section := md[strings.Index(md, "## Headline\n"):strings.Index(md, "Fastpath Lab ladder run:")]
		img := strings.Index(section, "![Headline: ")
		if img < 0 {
			t.Fatalf("NoPlots %v: no headline figure in\n%s", opt.NoPlots, section)
		}
		if sentences, tab := strings.Index(section, "Not measured: "), strings.Index(section, "| headline |"); !(sentences < img && img < tab) {
			t.Errorf("NoPlots %v: the figure (at %d) is not between the sentences (%d) and the table (%d)", opt.NoPlots, img, sentences, tab)
		}
		for _, rel := range []string{"plots/headline.png", "plots/headline.svg"} {
			if !strings.Contains(section, "("+rel+")") {
				t.Errorf("NoPlots %v: the section does not link %s", opt.NoPlots, rel)
			}
			if st, err := os.Stat(filepath.Join(dir, filepath.FromSlash(rel))); err != nil || st.Size() == 0 {
				t.Errorf("NoPlots %v: %s: %v", opt.NoPlots, rel, err)
			}
		}
		lacks(t, "headline section", section, "Not drawn: fast/ceiling (no path=ceiling cell).", "A row per comparison and group")
	}

	plain := resultstest.TempRun(t, "20261202T100000Z-lab-2", resultstest.Manifest(), resultstest.TableRows())
	writeReport(t, plain, Options{})
	if _, err := os.Stat(filepath.Join(plain, plots.Dir, plots.HeadlineFigureName+".png")); err == nil {
		t.Error("a run without a headline got a headline figure")
	}
}

// TestHeadlineStoredSpec: the ladder stores its spec one level down
// ({"spec": {...}, "cells": [...]}); the headline and the axis order are
// read from there as from a bare spec.
func TestHeadlineStoredSpec(t *testing.T) {
	bare := headlineManifest(t, "fast/rowwise by batch")
	stored := bare
	stored.Spec = json.RawMessage(`{"spec":` + string(bare.Spec) + `,"cells":["path=fast/format=json/batch=1024/brokers=3/alloc=go/crc=off"]}`)
	for _, m := range []results.Manifest{bare, stored} {
		comps, err := specHeadlines(m.Spec)
		if err != nil || len(comps) != 1 || comps[0].Text != "fast/rowwise by batch" {
			t.Errorf("%s: headlines %+v, %v", m.Spec, comps, err)
		}
		if got := specOrder(m.Spec)["path"]; strings.Join(got, ",") != "rowwise,fast" {
			t.Errorf("%s: path order %v", m.Spec, got)
		}
	}
}
