package plots

import (
	"fmt"
	"strings"
	"testing"

	"github.com/fastpathlab/fplab/results"
	"github.com/fastpathlab/fplab/results/resultstest"
)

func TestOverviewSmoke(t *testing.T) {
	fig := figureByName(t, mustPlan(t, resultstest.SmokeRows(), Options{}), "overview")
	if fig.Skip != "" || len(fig.Panels) != 1 || fig.Panels[0].Kind != RowPanel {
		t.Fatalf("overview %+v", fig)
	}
	rows := fig.Panels[0].Rows
	var labels []string
	for _, r := range rows {
		labels = append(labels, strings.Fields(r.Label)[0])
	}
	// Sorted by cell name, paths from least to most native; the A/A pair
	// left out.
	if got, want := strings.Join(labels, " "), "path=rowwise path=rowwise path=shallow path=fast path=franz"; got != want {
		t.Errorf("row order %s, want %s", got, want)
	}
	franz := rows[4]
	if franz.N != 0 || franz.Note != "failed: 1 of 1 repetitions" || franz.Median != 0 {
		t.Errorf("failed row %+v: want no sample and a failed note", franz)
	}
	if strings.Contains(rows[0].Label, "ckpt") {
		t.Errorf("label %q repeats the held ckpt", rows[0].Label)
	}
	for _, r := range rows[:4] {
		if r.N != 1 || r.HasInterval() {
			t.Errorf("row %s %+v: want one repetition and no interval", r.Label, r.Stat)
		}
	}
}

// TestOverviewOneCell: a run of one cell still gets its overview, labelled
// with the whole cell name.
func TestOverviewOneCell(t *testing.T) {
	figs := mustPlan(t, resultstest.OneCellRows(), Options{})
	fig := figureByName(t, figs, "overview")
	if fig.Skip != "" || len(fig.Panels) != 1 || len(fig.Panels[0].Rows) != 1 {
		t.Fatalf("overview %+v", fig)
	}
	r := fig.Panels[0].Rows[0]
	if r.Label != "path=fast format=json batch=8192" || r.N != 3 || r.Median != 2.1e6 {
		t.Errorf("row %+v", r)
	}
	for _, f := range figs {
		if strings.HasPrefix(f.Name, "by-") {
			t.Errorf("one-cell run has axis figure %s", f.Name)
		}
	}
}

func TestOverviewPartialAndAllFailed(t *testing.T) {
	rate := []results.Metric{{Unit: results.UnitRecPerSec, Value: 5}}
	rows := []results.Row{
		{Cell: "path=fast/format=json", Rep: 0, OK: true, Metrics: rate},
		{Cell: "path=fast/format=json", Rep: 1, Reason: "crash"},
		{Cell: "path=fast/format=raw", Rep: 0, OK: true, Metrics: []results.Metric{{Unit: "ns/rec", Value: 1}}},
	}
	r := figureByName(t, mustPlan(t, rows, Options{}), "overview").Panels[0].Rows
	if len(r) != 2 || r[0].Label != "format=json (1 of 2 failed)" || r[0].N != 1 || r[1].Note != "no rec/s samples" {
		t.Errorf("rows %+v", r)
	}
	failed := []results.Row{{Cell: "path=fast/format=json", Reason: "crash"}}
	if f := figureByName(t, mustPlan(t, failed, Options{}), "overview"); f.Skip == "" || len(f.Panels) != 0 {
		t.Errorf("overview of a run without a sample: skip %q, %d panels", f.Skip, len(f.Panels))
	}
}

func TestOverviewPages(t *testing.T) {
	var rows []results.Row
	for b := range 2*maxRows + 10 {
		rows = append(rows, results.Row{Cell: fmt.Sprintf("path=fast/batch=%d", b+1), OK: true,
			Metrics: []results.Metric{{Unit: results.UnitRecPerSec, Value: float64(b)}}})
	}
	var got []string
	total := 0
	for _, f := range mustPlan(t, rows, Options{}) {
		if strings.HasPrefix(f.Name, "overview") {
			got = append(got, fmt.Sprintf("%s:%d", f.Name, len(f.Panels[0].Rows)))
			total += len(f.Panels[0].Rows)
		}
	}
	if want := fmt.Sprintf("overview-1:%d overview-2:%d overview-3:10", maxRows, maxRows); strings.Join(got, " ") != want {
		t.Errorf("pages %v, want %s", got, want)
	}
	first := figureByName(t, mustPlan(t, rows, Options{}), "overview-1").Panels[0].Rows
	if first[0].Label != "batch=1" || first[1].Label != "batch=2" || first[9].Label != "batch=10" {
		t.Errorf("rows start %s %s .. %s, want batch sizes in numeric order", first[0].Label, first[1].Label, first[9].Label)
	}
}
