package plots

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/fastpathlab/fplab/cell"
	"github.com/fastpathlab/fplab/results"
	"github.com/fastpathlab/fplab/results/resultstest"
)

// TestAxisFiguresSmoke: a covering run gets a figure for every axis that
// takes two or more values and none for the one it holds (ckpt) or the A/A
// tag; with one cell per format, a single panel whose dot sets are the
// other axes' settings.
func TestAxisFiguresSmoke(t *testing.T) {
	figs := mustPlan(t, resultstest.SmokeRows(), Options{})
	var names []string
	for _, f := range figs {
		if strings.HasPrefix(f.Name, "by-") {
			names = append(names, f.Name)
		}
	}
	if got, want := strings.Join(names, " "), "by-path by-format by-batch by-brokers by-alloc by-crc"; got != want {
		t.Fatalf("axis figures %s, want %s", got, want)
	}
	fig := figureByName(t, figs, "by-path")
	if fig.Skip != "" || len(fig.Panels) != 1 {
		t.Fatalf("by-path: skip %q, %d panels; want one panel", fig.Skip, len(fig.Panels))
	}
	p := fig.Panels[0]
	if strings.Join(p.Groups, ",") != "rowwise,shallow,fast,franz" || len(p.Dots) != 4 {
		t.Fatalf("by-path groups %v, %d sets; want 4 paths and the 4 settings with data", p.Groups, len(p.Dots))
	}
	// franz timed out: its category has no dot (never a zero) and says why.
	for _, d := range p.Dots {
		if d.Values[3].N != 0 {
			t.Errorf("set %s has a franz value %+v from a failed cell", d.Label, d.Values[3])
		}
		if strings.Contains(d.Label, "ckpt") {
			t.Errorf("set label %q repeats the held ckpt", d.Label)
		}
	}
	if p.Notes[3] != "failed" {
		t.Errorf("franz note %q, want failed", p.Notes[3])
	}
	for _, want := range []string{"Held: ckpt=20ms", "Failed, no successful repetition (not drawn): path=franz format=csv", "1 repetition", "Hollow"} {
		if !strings.Contains(fig.Caption, want) {
			t.Errorf("caption %q lacks %q", fig.Caption, want)
		}
	}
}

// TestAxisFiguresPaths: the paths ladder reads as rec/s by path per format
// (a panel per format, each path in its own colour) and by format with the
// paths as sets; every drawn interval is the one the tables print.
func TestAxisFiguresPaths(t *testing.T) {
	rows := resultstest.PathsRows()
	figs := mustPlan(t, rows, Options{})
	byPath := figureByName(t, figs, "by-path")
	if len(byPath.Panels) != 2 || byPath.Panels[0].Title != "format=json" || byPath.Panels[1].Title != "format=raw" {
		t.Fatalf("by-path panels %d (%v), want format=json and format=raw", len(byPath.Panels), byPath.Panels)
	}
	if len(byPath.Legend) != 1 || byPath.Legend[0].Kind != LegendNoInterval {
		t.Errorf("by-path legend %+v, want only the no-interval entry (paths are named on the x axis)", byPath.Legend)
	}
	for _, d := range byPath.Panels[0].Dots {
		path := strings.TrimPrefix(d.Label, "path=")
		want, ok := cell.PathRank(path)
		if !ok || d.Style != want {
			t.Errorf("path %s drawn in style %d, want its path style %d", path, d.Style, want)
		}
	}
	byFormat := figureByName(t, figs, "by-format")
	if len(byFormat.Panels) != 1 || strings.Join(byFormat.Panels[0].Groups, ",") != "json,raw" || len(byFormat.Panels[0].Dots) != 4 {
		t.Fatalf("by-format %+v, want one panel, json and raw, a set per path", byFormat.Panels)
	}

	// The tables' Stat of every cell, by cell name.
	tables, err := results.BuildTables(results.NewIndex(rows), results.TableOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := make(map[string]*results.Stat)
	for _, tb := range tables {
		if tb.Unit != results.UnitRecPerSec {
			continue
		}
		for _, r := range tb.Rows {
			for _, st := range r.Cells {
				if st != nil {
					want[st.Cell] = st
				}
			}
		}
	}
	checked := 0
	for pi, pn := range byPath.Panels {
		format := strings.TrimPrefix(pn.Title, "format=")
		for _, d := range pn.Dots {
			for gi, st := range d.Values {
				if st.N == 0 {
					continue
				}
				cell := fmt.Sprintf("path=%s/format=%s/batch=8192/brokers=3/alloc=go/crc=off", pn.Groups[gi], format)
				ts := want[cell]
				if ts == nil {
					t.Fatalf("panel %d: no table stat for %s", pi, cell)
				}
				if st.Median != ts.Center || !sameBound(st.Lo, ts.Lo) || !sameBound(st.Hi, ts.Hi) || st.N != ts.N {
					t.Errorf("%s: figure %v [%v, %v] n=%d, table %v [%v, %v] n=%d", cell, st.Median, st.Lo, st.Hi, st.N, ts.Center, ts.Lo, ts.Hi, ts.N)
				}
				if cell == "path=shallow/format=json/batch=8192/brokers=3/alloc=go/crc=off" {
					if st.N != 5 || st.HasInterval() {
						t.Errorf("shallow/json %+v: want the 5 OK reps and no interval", st)
					}
				} else if !st.HasInterval() || !(st.Lo <= st.Median && st.Median <= st.Hi) {
					t.Errorf("%s %+v: want an interval around the median", cell, st)
				}
				checked++
			}
		}
	}
	if checked != 8 {
		t.Errorf("checked %d dots, want 8", checked)
	}
}

func sameBound(a, b float64) bool {
	return a == b || (math.IsInf(a, 1) && math.IsInf(b, 1)) || (math.IsInf(a, -1) && math.IsInf(b, -1))
}

// TestFacetAxesSplitsCrowdedPanels: with more settings than a panel can
// tell apart, further axes become panels, within maxPanels.
func TestFacetAxesSplitsCrowdedPanels(t *testing.T) {
	var rows []results.Row
	for _, path := range []string{"rowwise", "shallow", "fast", "franz"} {
		for _, b := range []int{256, 1024, 4096, 16384, 65536} {
			for _, ck := range []string{"", "/ckpt=1s"} {
				for _, f := range []string{"json", "raw"} {
					rows = append(rows, results.Row{Cell: fmt.Sprintf("path=%s/format=%s/batch=%d%s", path, f, b, ck), OK: true,
						Metrics: []results.Metric{{Unit: results.UnitRecPerSec, Value: float64(b)}}})
				}
			}
		}
	}
	cells := newDataset(sweptOf(t, rows)).cells
	axes := runAxes(cells)
	if strings.Join(axes, " ") != "path format batch ckpt" {
		t.Fatalf("axes %v, want path format batch ckpt (ckpt absent on half the cells still varies)", axes)
	}
	facets, sets := facetAxes(cells, cell.Path, []string{cell.Format, cell.Batch, "ckpt"})
	if strings.Join(facets, ",") != "format,ckpt" || strings.Join(sets, ",") != "batch" {
		t.Errorf("by-path: facets %v sets %v, want format,ckpt and batch (format x batch would be 10 panels)", facets, sets)
	}
	fig := axisFigure(cells, "ckpt", axes, Options{}, pathStyles(cells))
	if got := strings.Join(fig.Panels[0].Groups, ","); got != noValue+",1s" {
		t.Errorf("by-ckpt groups %s, want %s,1s", got, noValue)
	}
	// No split keeps by-ckpt within maxSets and maxPanels (path x batch is
	// 20 settings, 8 or 10 panels): it keeps two panels and draws every
	// cell rather than drop any.
	dots := 0
	for _, pn := range fig.Panels {
		for _, d := range pn.Dots {
			for _, st := range d.Values {
				if st.N > 0 {
					dots++
				}
			}
		}
	}
	if dots != len(cells) {
		t.Errorf("by-ckpt draws %d dots, want one per cell (%d)", dots, len(cells))
	}
	if len(fig.Panels) > maxPanels {
		t.Errorf("%d panels, more than %d", len(fig.Panels), maxPanels)
	}
}
