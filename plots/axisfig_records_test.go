package plots

import (
	"fmt"
	"math/rand"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fastpathlab/fplab/internal/golden"
	"github.com/fastpathlab/fplab/results"
)

// recordsRows is a seeded run shaped like the merge by records of
// memory-kafka-4m, -16m and -64m (results.MergeBy): every cell name led by
// records=<N>, three paths by two formats, six repetitions at 4M and 16M
// and one at 64M (its spec's), franz/json at 64M failed. Memory stays flat
// on shallow and fast and grows with records on franz.
func recordsRows() []results.Row {
	rng := rand.New(rand.NewSource(31))
	rate := map[string]float64{"shallow": 0.7e6, "fast": 2.4e6, "franz": 2.2e6}
	rss := map[string]float64{"shallow": 160, "fast": 70, "franz": 120}
	scale := map[string]float64{"raw": 1, "json": 0.75}
	reps := map[int]int{4000000: 6, 16000000: 6, 64000000: 1}
	var rows []results.Row
	for _, n := range []int{4000000, 16000000, 64000000} {
		for _, path := range []string{"shallow", "fast", "franz"} {
			for _, format := range []string{"raw", "json"} {
				c := fmt.Sprintf("records=%d/path=%s/format=%s/batch=8192/brokers=1/alloc=go/crc=off/cluster=kafka", n, path, format)
				for rep := range reps[n] {
					if n == 64000000 && path == "franz" && format == "json" {
						rows = append(rows, results.Row{Cell: c, Rep: rep, Reason: "timeout after 15m0s"})
						continue
					}
					mem := rss[path] * scale[format]
					if path == "franz" {
						mem += 25 * float64(n) / 64e6
					}
					rows = append(rows, results.Row{Cell: c, Rep: rep, OK: true, Metrics: []results.Metric{
						{Unit: results.UnitRecPerSec, Value: rate[path] * scale[format] * (1 + (rng.Float64()-0.5)*0.08)},
						{Unit: results.UnitPathPeakRSSMB, Value: mem * (1 + (rng.Float64()-0.5)*0.06)},
					}})
				}
			}
		}
	}
	return rows
}

// TestAxisFiguresRecords: a merge by records gets rec/s by records and
// path-peak-RSS-MB by records, the record counts in numeric order, a panel
// per format and each path in its colour; the memory dots are the cells'
// path-peak-RSS-MB, and the failed cell is a note, never a dot. No other
// axis draws memory.
func TestAxisFiguresRecords(t *testing.T) {
	figs := mustPlan(t, recordsRows(), Options{})
	var names []string
	for _, f := range figs {
		if strings.HasPrefix(f.Name, "by-") {
			names = append(names, f.Name)
		}
	}
	if got, want := strings.Join(names, " "), "by-path by-format by-records by-records-path-peak-RSS-MB"; got != want {
		t.Fatalf("axis figures %s, want %s", got, want)
	}
	rate := figureByName(t, figs, "by-records")
	if rate.Title != "Throughput by records" || rate.Panels[0].YLabel != "throughput (rec/s)" {
		t.Errorf("by-records: title %q, y %q", rate.Title, rate.Panels[0].YLabel)
	}
	mem := figureByName(t, figs, "by-records-path-peak-RSS-MB")
	if mem.Skip != "" || mem.Title != "Path peak RSS by records" || len(mem.Panels) != 2 {
		t.Fatalf("memory figure: skip %q, title %q, %d panels", mem.Skip, mem.Title, len(mem.Panels))
	}
	json := mem.Panels[0]
	if json.Title != "format=json" || strings.Join(json.Groups, ",") != "4000000,16000000,64000000" ||
		json.YLabel != "path peak RSS (MB)" || json.XLabel != "records per path (corpus length)" {
		t.Fatalf("json panel %q: groups %v, x %q, y %q", json.Title, json.Groups, json.XLabel, json.YLabel)
	}
	if json.Notes[2] != "failed" {
		t.Errorf("64M note %q, want failed (franz/json)", json.Notes[2])
	}
	for _, d := range json.Dots {
		if d.Label != "path=franz" {
			continue
		}
		if d.Values[2].N != 0 {
			t.Errorf("franz/json has a 64M dot %+v from a failed cell", d.Values[2])
		}
		if m := d.Values[0].Median; m < 85 || m > 100 || d.Values[0].N != 6 {
			t.Errorf("franz/json at 4M: %+v, want the path-peak-RSS-MB of 6 reps (about 92 MB)", d.Values[0])
		}
	}
	for _, want := range []string{"Dots: median path-peak-RSS-MB of 1–6 repetitions", "One panel per format; colours: path.",
		"Failed, no successful repetition (not drawn): path=franz format=json records=64000000."} {
		if !strings.Contains(mem.Caption, want) {
			t.Errorf("caption %q lacks %q", mem.Caption, want)
		}
	}
}

// TestAxisFiguresRecordsGolden compares the records axis's two figures
// with testdata/golden/records/<name>.png.
func TestAxisFiguresRecordsGolden(t *testing.T) {
	figs := mustPlan(t, recordsRows(), Options{})
	for _, name := range []string{"by-records", "by-records-path-peak-RSS-MB"} {
		t.Run(name, func(t *testing.T) {
			got, err := Render(figureByName(t, figs, name), "png")
			if err != nil {
				t.Fatal(err)
			}
			golden.CheckWith(t, filepath.Join("golden", "records", name+".png"), got, samePNG)
		})
	}
}
