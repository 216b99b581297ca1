package plots

import (
	"fmt"
	"math"
	"math/rand"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fastpathlab/fplab/internal/golden"
	"github.com/fastpathlab/fplab/results"
)

// batchLiveCell is a live cell of the batch-sweep fixture.
func batchLiveCell(path string, batch, rate int, linger string) string {
	return fmt.Sprintf("path=%s/format=json/batch=%d/brokers=1/alloc=go/crc=off/mode=live/rate=%d/linger=%s", path, batch, rate, linger)
}

// batchLive describes a seeded synthetic live run that sweeps the batch:
// every path at every batch, rate and linger, reps repetitions each.
type batchLive struct {
	paths   []string
	batches []int
	rates   []int
	lingers []string
	reps    int
	seed    int64
}

// sweepBatchLive is the golden batch sweep: three paths at five batch
// sizes and two rates, three repetitions each. Its p99 grows with the
// batch, and faster at the higher rate, so each path's knee falls at
// another batch: rowwise 16384 at 10000 rec/s and 4096 at 100000,
// shallow 65536 and 16384, fast 65536 at both.
var sweepBatchLive = batchLive{
	paths: []string{"rowwise", "shallow", "fast"}, batches: []int{256, 1024, 4096, 16384, 65536},
	rates: []int{10000, 100000}, lingers: []string{"10ms"}, reps: 3, seed: 11,
}

// rows are the fixture's journal rows: e2e-p99-ms is baseMs(path, rate) x
// (1 + batch/2048), each repetition off by a lognormal factor of ~10%.
func (f batchLive) rows() []results.Row {
	rng := rand.New(rand.NewSource(f.seed))
	var rows []results.Row
	for _, p := range f.paths {
		for _, b := range f.batches {
			for _, r := range f.rates {
				for li, l := range f.lingers {
					for rep := 0; rep < f.reps; rep++ {
						p99 := baseMs(p, r) * (1 + float64(b)/2048) * (1 + float64(li)) * math.Exp(0.1*rng.NormFloat64())
						rows = append(rows, results.Row{Cell: batchLiveCell(p, b, r, l), Rep: rep, OK: true, Metrics: []results.Metric{
							{Unit: results.UnitRecPerSec, Value: float64(r)},
							{Unit: results.UnitE2EP99Ms, Value: p99},
						}})
					}
				}
			}
		}
	}
	return rows
}

func (f batchLive) figure(t *testing.T, opt Options) Figure {
	t.Helper()
	a, err := results.Analyze(f.rows(), results.AnalysisOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return figureByName(t, planLive(t, a, opt), latencyBatchFigureName)
}

func TestLatencyBatchFigure(t *testing.T) {
	fig := sweepBatchLive.figure(t, Options{})
	if fig.Skip != "" || len(fig.Panels) != 2 {
		t.Fatalf("skip %q, %d panels; want a panel per rate", fig.Skip, len(fig.Panels))
	}
	// The knee ring of each line sits on the largest batch within the
	// budget, at that batch's median p99 (the point the line draws).
	wantKnees := []string{
		"rate=10000 rec/s: path=rowwise@16384 path=shallow@65536 path=fast@65536",
		"rate=100000 rec/s: path=rowwise@4096 path=shallow@16384 path=fast@65536",
	}
	for i, pn := range fig.Panels {
		if pn.Kind != LinePanel || !pn.LogX || !pn.LogY || pn.BudgetY != results.DefaultLatencyBudgetMs || len(pn.Lines) != 3 {
			t.Fatalf("panel %q: kind %v logx %v logy %v budget %v lines %d", pn.Title, pn.Kind, pn.LogX, pn.LogY, pn.BudgetY, len(pn.Lines))
		}
		if len(pn.Marks) != len(pn.Lines) {
			t.Fatalf("panel %q: %d marks for %d lines", pn.Title, len(pn.Marks), len(pn.Lines))
		}
		got := []string{}
		for j, s := range pn.Lines {
			mk := pn.Marks[j]
			if mk.Style != s.Style || mk.Label != fmt.Sprintf("knee %d", int(mk.X)) {
				t.Errorf("%s %s: mark %+v, want the line's style %d", pn.Title, s.Label, mk, s.Style)
			}
			on := false
			for _, pt := range s.Points {
				if pt.X == mk.X && pt.Median == mk.Y {
					on = true
				}
				if pt.X > mk.X && pt.Median <= results.DefaultLatencyBudgetMs {
					t.Errorf("%s %s: batch %v is within budget (%v ms) and larger than the knee %v", pn.Title, s.Label, pt.X, pt.Median, mk.X)
				}
			}
			if !on {
				t.Errorf("%s %s: knee ring at (%v, %v) is on no point of its line", pn.Title, s.Label, mk.X, mk.Y)
			}
			got = append(got, fmt.Sprintf("%s@%d", s.Label, int(mk.X)))
		}
		if s := pn.Title + ": " + strings.Join(got, " "); s != wantKnees[i] {
			t.Errorf("knees %q, want %q", s, wantKnees[i])
		}
	}
	if fig.Panels[0].Lines[2].Style != 2 {
		t.Errorf("fast's style %d, want its path rank 2", fig.Panels[0].Lines[2].Style)
	}
	n := len(fig.Legend)
	if n != 5 || fig.Legend[n-2].Kind != LegendBudget || fig.Legend[n-2].Label != "budget 100 ms" || fig.Legend[n-1].Kind != LegendMark {
		t.Errorf("legend %+v", fig.Legend)
	}
	for _, want := range []string{"median e2e p99 of 3 repetitions", "largest batch whose median p99 is within the latency budget of 100 ms", "One panel per rate", "Held: format=json brokers=1 alloc=go crc=off mode=live linger=10ms"} {
		if !strings.Contains(fig.Caption, want) {
			t.Errorf("caption lacks %q: %s", want, fig.Caption)
		}
	}
}

// Lines follow what varies among the live cells, the batch aside: a
// varying linger labels lines beside the path, and a path without a batch
// within budget is named in the caption and has no ring.
func TestLatencyBatchLayout(t *testing.T) {
	f := batchLive{paths: []string{"rowwise", "fast"}, batches: []int{1024, 65536}, rates: []int{100000}, lingers: []string{"10ms", "50ms"}, reps: 1, seed: 3}
	fig := f.figure(t, Options{})
	if fig.Skip != "" || len(fig.Panels) != 1 || fig.Panels[0].Title != "" {
		t.Fatalf("skip %q, %d panels; want one panel without a title", fig.Skip, len(fig.Panels))
	}
	var labels []string
	for _, s := range fig.Panels[0].Lines {
		labels = append(labels, s.Label)
	}
	if got := strings.Join(labels, ","); got != "path=rowwise linger=10ms,path=rowwise linger=50ms,path=fast linger=10ms,path=fast linger=50ms" {
		t.Errorf("labels %s", got)
	}
	// At 100000 rec/s every line is within 100 ms at batch 1024 (rowwise
	// 36 ms with linger=10ms, 72 ms with 50ms), none but fast with 10ms at
	// 65536; under 20 ms rowwise has no batch within.
	if len(fig.Panels[0].Marks) != 4 {
		t.Errorf("marks %+v", fig.Panels[0].Marks)
	}
	tight := f.figureWithBudget(t, 20)
	if !strings.Contains(tight.Caption, "None within budget: path=rowwise linger=10ms; path=rowwise linger=50ms.") {
		t.Errorf("caption %s", tight.Caption)
	}
	if len(tight.Panels[0].Marks) != 2 {
		t.Errorf("marks under a 20 ms budget: %+v", tight.Panels[0].Marks)
	}
}

func (f batchLive) figureWithBudget(t *testing.T, budget float64) Figure {
	t.Helper()
	a, err := results.Analyze(f.rows(), results.AnalysisOptions{LatencyBudgetMs: budget})
	if err != nil {
		t.Fatal(err)
	}
	return figureByName(t, planLive(t, a, Options{}), latencyBatchFigureName)
}

func TestLatencyBatchSkipped(t *testing.T) {
	oneBatch := batchLive{paths: []string{"fast"}, batches: []int{8192}, rates: []int{1000}, lingers: []string{"10ms"}, reps: 1}
	tests := []struct {
		name string
		rows []results.Row
		want string
	}{
		{"no live cells", []results.Row{{Cell: "path=fast/format=json/batch=8192", OK: true}}, "no live cells (mode=live) in this run"},
		{"no p99", []results.Row{{Cell: batchLiveCell("fast", 8192, 1000, "10ms"), OK: true, Metrics: []results.Metric{{Unit: results.UnitRecPerSec, Value: 1}}}},
			"no live cell has e2e-p99-ms samples"},
		{"one batch", oneBatch.rows(), "one batch size only (8192); see the tables"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, err := results.Analyze(tt.rows, results.AnalysisOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if f := figureByName(t, planLive(t, a, Options{}), latencyBatchFigureName); f.Skip != tt.want {
				t.Errorf("skip %q, want %q", f.Skip, tt.want)
			}
		})
	}
}

// TestLatencyBatchGolden compares the figure of the seeded batch sweep with
// testdata/golden/live/latency-batch.png, and proves the tolerance catches
// a line moved by 15%.
func TestLatencyBatchGolden(t *testing.T) {
	fig := sweepBatchLive.figure(t, Options{Emulated: true})
	got, err := Render(fig, "png")
	if err != nil {
		t.Fatal(err)
	}
	golden.CheckWith(t, filepath.Join("golden", "live", latencyBatchFigureName+".png"), got, samePNG)

	lines := append([]Series(nil), fig.Panels[0].Lines...)
	moved := append([]Point(nil), lines[1].Points...)
	for i := range moved {
		moved[i].Median *= 1.15
		moved[i].Min *= 1.15
		moved[i].Max *= 1.15
	}
	lines[1].Points = moved
	fig.Panels = append([]Panel(nil), fig.Panels...)
	fig.Panels[0].Lines = lines
	changed, err := Render(fig, "png")
	if err != nil {
		t.Fatal(err)
	}
	if d, blk := pixelDiff(decodePNG(t, got), decodePNG(t, changed)); !differs(d, blk) {
		t.Errorf("moving one line changed %.3f%% of pixels, %d in one block: within the tolerance", 100*d, blk)
	}
}

func TestRenderLatencyBatchSVG(t *testing.T) {
	data, err := Render(sweepBatchLive.figure(t, Options{}), "svg")
	if err != nil {
		t.Fatal(err)
	}
	all := svgText(t, data)
	for _, want := range []string{"e2e p99 (ms, log scale)", "batch size (records, log scale)", "rate=100000 rec/s", "knee 4096", "budget 100 ms", "65536"} {
		if !strings.Contains(all, want) {
			t.Errorf("svg text lacks %q", want)
		}
	}
}
