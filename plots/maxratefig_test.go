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

// maxRateRows is a seeded maxrate run: per path, a maxrate cell and its
// bounded twin (franz has none), reps repetitions each, the rates around
// per-path centres.
func maxRateRows(reps int) []results.Row {
	rng := rand.New(rand.NewSource(11))
	centre := map[string][2]float64{"shallow": {150e3, 780e3}, "fast": {300e3, 1.9e6}, "franz": {280e3, 0}}
	var rows []results.Row
	for _, p := range []string{"shallow", "fast", "franz"} {
		base := fmt.Sprintf("path=%s/format=json/batch=8192/brokers=1/alloc=go/crc=off", p)
		for rep := range reps {
			jitter := 1 + 0.1*(rng.Float64()-0.5)
			rows = append(rows, results.Row{Cell: base + "/mode=maxrate/linger=10ms", Rep: rep, OK: true, Metrics: []results.Metric{
				{Unit: results.UnitMaxRate, Value: centre[p][0] * jitter},
				{Unit: results.UnitMaxRateTrials, Value: 9},
			}})
			if centre[p][1] > 0 {
				rows = append(rows, results.Row{Cell: base, Rep: rep, OK: true, Metrics: []results.Metric{
					{Unit: results.UnitRecPerSec, Value: centre[p][1] * jitter},
				}})
			}
		}
	}
	return rows
}

func maxRatePlan(t *testing.T, rows []results.Row) Figure {
	t.Helper()
	a, err := results.Analyze(rows, results.AnalysisOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return figureByName(t, planLive(t, a, Options{}), maxRateFigureName)
}

func TestMaxRateFigure(t *testing.T) {
	fig := maxRatePlan(t, maxRateRows(2))
	if fig.Skip != "" || len(fig.Panels) != 1 {
		t.Fatalf("skip %q, %d panels", fig.Skip, len(fig.Panels))
	}
	pn := fig.Panels[0]
	if got := strings.Join(pn.Groups, " "); got != "shallow fast franz" {
		t.Errorf("groups %q, want the paths in path order", got)
	}
	if len(pn.Bars) != 2 || pn.Bars[0].Label != "max sustainable rate (live)" || pn.Bars[1].Label != "bounded drain" {
		t.Fatalf("bars %+v", pn.Bars)
	}
	live, drain := pn.Bars[0].Values, pn.Bars[1].Values
	for i, g := range pn.Groups {
		if live[i].N != 2 {
			t.Errorf("%s: %d max-rate samples, want 2", g, live[i].N)
		}
	}
	// fast's twin is the bounded cell of the same name without mode and
	// linger: its rec/s, not another path's
	if drain[1].N != 2 || drain[1].Median < 1.7e6 || drain[1].Median > 2.1e6 {
		t.Errorf("fast's bounded drain %+v, want its twin's ~1.9M rec/s", drain[1])
	}
	if drain[2].N != 0 || !strings.Contains(fig.Caption, "n/a: the run has no bounded twin") {
		t.Errorf("franz has no twin: %+v, caption %s", drain[2], fig.Caption)
	}
	if !strings.Contains(fig.Caption, "Held: format=json batch=8192") {
		t.Errorf("caption lacks the held setting: %s", fig.Caption)
	}
}

func TestMaxRateSkipped(t *testing.T) {
	rows := []results.Row{{Cell: "path=fast/format=json/batch=8192/brokers=1/alloc=go/crc=off", OK: true, Metrics: []results.Metric{{Unit: results.UnitRecPerSec, Value: 1}}}}
	if fig := maxRatePlan(t, rows); fig.Skip != "no max-rate-rec/s samples (no mode=maxrate cells in this run)" {
		t.Errorf("skip %q", fig.Skip)
	}
}

// TestMaxRateGolden compares the seeded run's figure with
// testdata/golden/live/max-rate.png.
func TestMaxRateGolden(t *testing.T) {
	got, err := Render(maxRatePlan(t, maxRateRows(3)), "png")
	if err != nil {
		t.Fatal(err)
	}
	golden.CheckWith(t, filepath.Join("golden", "live", maxRateFigureName+".png"), got, samePNG)
}
