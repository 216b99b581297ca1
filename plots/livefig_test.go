package plots

import (
	"errors"
	"fmt"
	"math"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fastpathlab/fplab/internal/golden"
	"github.com/fastpathlab/fplab/results"
)

// liveCellName is a live cell of the fixture runs.
func liveCellName(path string, rate int) string {
	return fmt.Sprintf("path=%s/format=json/batch=8192/brokers=1/alloc=go/crc=off/mode=live/rate=%d/linger=10ms", path, rate)
}

// liveFixture describes a seeded synthetic live run: every cell of paths
// at every rate, reps repetitions each, n latencies per repetition over a
// warm-up of warmS and a window of windowS seconds.
type liveFixture struct {
	paths          []string
	rates          []int
	reps, n        int
	warmS, windowS int
	seed           int64
}

// sweepLive is the golden live run: three paths at two rates, three
// repetitions each; rowwise falls behind at the higher rate.
var sweepLive = liveFixture{
	paths: []string{"rowwise", "shallow", "fast"}, rates: []int{10000, 100000},
	reps: 3, n: 20000, warmS: 2, windowS: 10, seed: 7,
}

// baseMs is a path's typical latency at a rate, the centre of its
// synthetic latencies and the scale of its lag.
func baseMs(path string, rate int) float64 {
	b := map[string]float64{"rowwise": 6, "shallow": 2.5, "fast": 1.2}[path]
	if rate >= 100000 {
		b *= map[string]float64{"rowwise": 4, "shallow": 1.8, "fast": 1.5}[path]
	}
	return b
}

// write writes the fixture's live/ files into runDir and returns its
// journal rows. The latencies are lognormal around baseMs with a rare
// tail up to ~40x; the lag series is the backlog of baseMs at the rate,
// noisy, with rowwise at 100000 rec/s falling behind between 5 and 7 s and
// catching up, and a bucket without a hand-over at 3 s.
func (f liveFixture) write(t testing.TB, runDir string) []results.Row {
	t.Helper()
	rng := rand.New(rand.NewSource(f.seed))
	dir := filepath.Join(runDir, results.LiveDir)
	var rows []results.Row
	for _, p := range f.paths {
		for _, rate := range f.rates {
			name := liveCellName(p, rate)
			base := baseMs(p, rate)
			for rep := 0; rep < f.reps; rep++ {
				h := results.NewLatencyHistogram()
				for i := 0; i < f.n; i++ {
					ms := base * math.Exp(0.35*rng.NormFloat64())
					if rng.Float64() < 0.002 {
						ms += base * 40 * rng.Float64()
					}
					results.RecordLatency(h, time.Duration(ms*float64(time.Millisecond)))
				}
				lf := results.LatencyFile{Cell: name, Rep: rep, Rate: rate, Warmup: rate * f.warmS}
				if err := results.WriteLatency(results.LatencyPath(dir, name, rep), lf, h); err != nil {
					t.Fatal(err)
				}
				var csv strings.Builder
				csv.WriteString("t_ms,lag_rec,lag_ms\n")
				for b := 0; b < (f.warmS+f.windowS)*10; b++ {
					if b == 30 {
						continue
					}
					lag := float64(rate) * base / 1e3 * (1 + 0.3*rng.Float64())
					if p == "rowwise" && rate >= 100000 && b >= 50 && b < 90 {
						lag += float64(rate) * 0.4 * math.Sin(math.Pi*float64(b-50)/40)
					}
					fmt.Fprintf(&csv, "%d,%d,%.3f\n", b*100, int64(lag), lag/float64(rate)*1e3)
				}
				if err := os.WriteFile(results.LagPath(dir, name, rep), []byte(csv.String()), 0o644); err != nil {
					t.Fatal(err)
				}
				rows = append(rows, results.Row{Cell: name, Rep: rep, OK: true, Metrics: []results.Metric{
					{Unit: results.UnitRecPerSec, Value: float64(rate)},
					{Unit: results.UnitE2EP99Ms, Value: results.LatencyMs(h, 99)},
				}})
			}
		}
	}
	return rows
}

// analysis is the fixture's run analysed as the report analyses it:
// ReadLive of its directory handed to results.Analyze.
func (f liveFixture) analysis(t testing.TB) *results.Analysis {
	t.Helper()
	run := t.TempDir()
	rows := f.write(t, run)
	live, err := results.ReadLive(run)
	a, aerr := results.Analyze(rows, results.AnalysisOptions{Live: live, LiveErr: err})
	if aerr != nil {
		t.Fatal(aerr)
	}
	return a
}

func planLive(t testing.TB, a *results.Analysis, opt Options) []Figure {
	t.Helper()
	figs, err := Plan(a, opt)
	if err != nil {
		t.Fatal(err)
	}
	return figs
}

func TestLiveFigures(t *testing.T) {
	figs := planLive(t, sweepLive.analysis(t), Options{})
	if n := len(figs); n < 4 || figs[n-4].Name != latencyFigureName || figs[n-3].Name != lagFigureName || figs[n-2].Name != latencyBatchFigureName || figs[n-1].Name != maxRateFigureName {
		t.Fatalf("the live figures are not the last four of %d", n)
	}

	lat := figureByName(t, figs, latencyFigureName)
	if lat.Skip != "" || len(lat.Panels) != 2 {
		t.Fatalf("latency: skip %q, %d panels; want a panel per rate", lat.Skip, len(lat.Panels))
	}
	if lat.Panels[0].Title != "rate=10000 rec/s" || lat.Panels[1].Title != "rate=100000 rec/s" {
		t.Errorf("panel titles %q, %q", lat.Panels[0].Title, lat.Panels[1].Title)
	}
	for _, pn := range lat.Panels {
		if pn.Kind != CurvePanel || !pn.LogX || !pn.LogY || len(pn.Curves) != 3 || len(pn.XTicks) == 0 {
			t.Fatalf("latency panel %q: kind %v logx %v logy %v curves %d", pn.Title, pn.Kind, pn.LogX, pn.LogY, len(pn.Curves))
		}
		if got := []string{pn.Curves[0].Label, pn.Curves[1].Label, pn.Curves[2].Label}; strings.Join(got, ",") != "path=rowwise,path=shallow,path=fast" {
			t.Errorf("labels %v, want the paths least to most native", got)
		}
		for _, c := range pn.Curves {
			pts := c.Points
			if pts[0].X != 1 || pts[len(pts)-1].X < 3*20000 {
				t.Errorf("%s: x from %v to %v, want 1 (0%%) to at least the count of latencies (the max)", c.Label, pts[0].X, pts[len(pts)-1].X)
			}
			for i := 1; i < len(pts); i++ {
				if pts[i].X < pts[i-1].X || pts[i].Y < pts[i-1].Y {
					t.Fatalf("%s: curve goes back at %d: %+v then %+v", c.Label, i, pts[i-1], pts[i])
				}
			}
		}
	}
	// Paths keep the colours they have in every other figure.
	if got := lat.Panels[0].Curves[2].Style; got != 2 {
		t.Errorf("fast's style %d, want its path rank 2", got)
	}
	if len(lat.Legend) != 3 || lat.Legend[0].Kind != LegendCurve {
		t.Errorf("legend %+v", lat.Legend)
	}
	for _, want := range []string{"3 repetitions merged", "One panel per rate", "Held: format=json batch=8192 brokers=1 alloc=go crc=off mode=live linger=10ms"} {
		if !strings.Contains(lat.Caption, want) {
			t.Errorf("latency caption lacks %q: %s", want, lat.Caption)
		}
	}

	lag := figureByName(t, figs, lagFigureName)
	if lag.Skip != "" || len(lag.Panels) != 2 || len(lag.Panels[1].Curves) != 3 {
		t.Fatalf("lag: skip %q, %d panels", lag.Skip, len(lag.Panels))
	}
	row := lag.Panels[1].Curves[0]
	if row.Label != "path=rowwise" || len(row.Points) != 119 || row.Points[0].X != 0 || row.Points[118].X != 11.9 {
		t.Errorf("rowwise lag at 100000: %s, %d points from %v to %v", row.Label, len(row.Points), row.Points[0].X, row.Points[len(row.Points)-1].X)
	}
	for _, want := range []string{"repetition 0 of each cell", "the measured window starts at 2 s (dashed)", "One panel per rate"} {
		if !strings.Contains(lag.Caption, want) {
			t.Errorf("lag caption lacks %q: %s", want, lag.Caption)
		}
	}
}

// The panels and labels follow what varies among the live cells.
func TestLiveLayout(t *testing.T) {
	tests := []struct {
		name   string
		fix    liveFixture
		panels int
		labels string
	}{
		{"one rate", liveFixture{paths: []string{"shallow", "fast"}, rates: []int{1000}}, 1, "path=shallow,path=fast"},
		{"only the rate varies", liveFixture{paths: []string{"fast"}, rates: []int{1000, 5000}}, 1, "rate=1000,rate=5000"},
		{"one cell", liveFixture{paths: []string{"fast"}, rates: []int{1000}}, 1, "path=fast"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := tt.fix
			f.reps, f.n, f.warmS, f.windowS, f.seed = 1, 200, 1, 1, 1
			lat := figureByName(t, planLive(t, f.analysis(t), Options{}), latencyFigureName)
			if lat.Skip != "" || len(lat.Panels) != tt.panels {
				t.Fatalf("skip %q, %d panels, want %d", lat.Skip, len(lat.Panels), tt.panels)
			}
			var labels []string
			for _, c := range lat.Panels[0].Curves {
				labels = append(labels, c.Label)
			}
			if strings.Join(labels, ",") != tt.labels || lat.Panels[0].Title != "" {
				t.Errorf("labels %v title %q, want %s and no title", labels, lat.Panels[0].Title, tt.labels)
			}
			if strings.Contains(lat.Caption, "One panel per rate") || !strings.Contains(lat.Caption, "1 repetition merged") {
				t.Errorf("caption %s", lat.Caption)
			}
		})
	}
}

func TestLiveFiguresSkipped(t *testing.T) {
	withoutFiles := liveFixture{paths: []string{"fast"}, rates: []int{1000}, reps: 1, n: 10, warmS: 1, windowS: 1}
	rows := withoutFiles.write(t, t.TempDir())
	tests := []struct {
		name string
		opt  results.AnalysisOptions
		rows []results.Row
		want string
	}{
		{"no live cells", results.AnalysisOptions{}, []results.Row{{Cell: "path=fast/format=json/batch=8192", OK: true}}, "no live cells (mode=live or maxrate) in this run"},
		{"live cells without files", results.AnalysisOptions{}, rows, "no live cell with a successful repetition left a latency histogram in live/"},
		{"unreadable files", results.AnalysisOptions{LiveErr: errors.New("read lag series live/x.lag.csv:3: 2 fields, want 3")}, rows,
			"the live cells' files could not be read: read lag series live/x.lag.csv:3: 2 fields, want 3"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, err := results.Analyze(tt.rows, tt.opt)
			if err != nil {
				t.Fatal(err)
			}
			figs := planLive(t, a, Options{})
			for _, name := range []string{latencyFigureName, lagFigureName} {
				if f := figureByName(t, figs, name); f.Skip != tt.want {
					t.Errorf("%s: skip %q, want %q", name, f.Skip, tt.want)
				}
			}
		})
	}
}

// A run whose repetitions left no lag series keeps its latency figure.
func TestLagSkippedWithoutSeries(t *testing.T) {
	run := t.TempDir()
	f := liveFixture{paths: []string{"fast"}, rates: []int{1000}, reps: 1, n: 10, warmS: 1, windowS: 1}
	rows := f.write(t, run)
	if err := os.Remove(results.LagPath(filepath.Join(run, results.LiveDir), liveCellName("fast", 1000), 0)); err != nil {
		t.Fatal(err)
	}
	live, err := results.ReadLive(run)
	if err != nil {
		t.Fatal(err)
	}
	a, err := results.Analyze(rows, results.AnalysisOptions{Live: live})
	if err != nil {
		t.Fatal(err)
	}
	figs := planLive(t, a, Options{})
	if f := figureByName(t, figs, latencyFigureName); f.Skip != "" {
		t.Errorf("latency skipped: %s", f.Skip)
	}
	if f := figureByName(t, figs, lagFigureName); f.Skip != "no live cell left a lag series in live/" {
		t.Errorf("lag skip %q", f.Skip)
	}
}

// TestLiveGoldenImages compares the live figures of the seeded live run
// with testdata/golden/live/<name>.png, as TestGoldenImages does for the
// other fixture runs.
func TestLiveGoldenImages(t *testing.T) {
	figs := planLive(t, sweepLive.analysis(t), Options{Emulated: true})
	for _, name := range []string{latencyFigureName, lagFigureName} {
		t.Run(name, func(t *testing.T) {
			got, err := Render(figureByName(t, figs, name), "png")
			if err != nil {
				t.Fatal(err)
			}
			golden.CheckWith(t, filepath.Join("golden", "live", name+".png"), got, samePNG)
		})
	}
}

// TestGoldenComparisonDetectsCurveChange proves the tolerance catches a
// curve moved by 15% on each live figure.
func TestGoldenComparisonDetectsCurveChange(t *testing.T) {
	figs := planLive(t, sweepLive.analysis(t), Options{})
	for _, name := range []string{latencyFigureName, lagFigureName} {
		t.Run(name, func(t *testing.T) {
			fig := figureByName(t, figs, name)
			base, err := Render(fig, "png")
			if err != nil {
				t.Fatal(err)
			}
			curves := append([]Curve(nil), fig.Panels[0].Curves...)
			moved := append([]XY(nil), curves[1].Points...)
			for i := range moved {
				moved[i].Y *= 1.15
			}
			curves[1].Points = moved
			fig.Panels = append([]Panel(nil), fig.Panels...)
			fig.Panels[0].Curves = curves
			changed, err := Render(fig, "png")
			if err != nil {
				t.Fatal(err)
			}
			d, blk := pixelDiff(decodePNG(t, base), decodePNG(t, changed))
			if !differs(d, blk) {
				t.Errorf("moving one curve changed %.3f%% of pixels, %d in one block: within the tolerance", 100*d, blk)
			}
			t.Logf("moved curve: %.3f%% of pixels, %d in one block", 100*d, blk)
		})
	}
}

func TestRenderLiveSVG(t *testing.T) {
	figs := planLive(t, sweepLive.analysis(t), Options{})
	tests := map[string][]string{
		latencyFigureName: {"50%", "90%", "99%", "99.9%", "99.99%", "latency (ms, log scale)", "rate=100000 rec/s", "path=rowwise"},
		lagFigureName:     {"lag (records)", "seconds since T0", "measured window starts", "rate=10000 rec/s", "40k"},
	}
	for name, wants := range tests {
		data, err := Render(figureByName(t, figs, name), "svg")
		if err != nil {
			t.Fatal(err)
		}
		all := svgText(t, data)
		for _, want := range wants {
			if !strings.Contains(all, want) {
				t.Errorf("%s: svg text lacks %q", name, want)
			}
		}
	}
}

// Maxrate cells, which have no rate part, share a panel of their own.
func TestLiveLayoutMaxRate(t *testing.T) {
	maxrate := "path=fast/format=json/batch=8192/brokers=1/alloc=go/crc=off/mode=maxrate/linger=10ms"
	l := &results.Live{Cells: []results.LiveCell{
		{Name: liveCellName("fast", 1000)}, {Name: liveCellName("shallow", 1000)}, {Name: maxrate},
	}}
	lay := newLiveLayout(l, map[string]int{"fast": 2, "shallow": 1})
	if !lay.facet || len(lay.panels) != 2 {
		t.Fatalf("facet %v, %d panels; want a panel per rate", lay.facet, len(lay.panels))
	}
	var got []string
	for _, pn := range lay.panels {
		var labels []string
		for _, c := range pn.cells {
			labels = append(labels, c.label)
		}
		got = append(got, pn.title+": "+strings.Join(labels, ","))
	}
	want := "mode=maxrate, each at the highest rate it sustained: path=fast | rate=1000 rec/s: path=shallow,path=fast"
	if strings.Join(got, " | ") != want {
		t.Errorf("panels %q, want %q", strings.Join(got, " | "), want)
	}
	if lay.style["path=fast"] != 2 {
		t.Errorf("fast's style %d, want its path's", lay.style["path=fast"])
	}
}
