package plots

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fastpathlab/fplab/cell"
	"github.com/fastpathlab/fplab/internal/golden"
	"github.com/fastpathlab/fplab/results"
	"github.com/fastpathlab/fplab/results/headline"
)

// headlineRows are fixed rows of every verdict over two units: fast/flink
// by format (two resolved rows, one with too few reps), fast/java on raw
// (not significant), mimalloc3/go by batch (within the 6.1% rec/s floor),
// fast/ceiling (missing) and mimalloc3/go in peak-RSS-MB (resolved, no
// floor for that unit).
func headlineRows(t *testing.T) []headline.Row {
	t.Helper()
	comp := func(s string) headline.Comparison {
		c, err := headline.Parse(s)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	recs := headline.Floor{Unit: results.UnitRecPerSec, Detectable: 0.061, Pairs: 2}
	rss := headline.Floor{Unit: "peak-RSS-MB"}
	ratio := func(r, lo, hi, p float64, n int) results.RatioCI {
		return results.RatioCI{Ratio: r, Lo: lo, Hi: hi, P: p, NA: n, NB: n}
	}
	flink, java, alloc := comp("fast/flink by format"), comp("fast/java on raw"), comp("mimalloc3/go by batch")
	format := func(v string) []cell.Part { return []cell.Part{{Key: cell.Format, Value: v}} }
	batch := func(v string) []cell.Part { return []cell.Part{{Key: cell.Batch, Value: v}} }
	return []headline.Row{
		{Comparison: flink, Label: format("json"), Ratio: ratio(3.42, 3.10, 3.80, 0.002, 6), Floor: recs, Verdict: headline.Resolved},
		{Comparison: flink, Label: format("avro"), Ratio: ratio(4.61, 4.20, 5.02, 0.002, 6), Floor: recs, Verdict: headline.Resolved},
		{Comparison: flink, Label: format("protobuf"), Ratio: ratio(3.90, 0, math.Inf(1), 0.1, 3), Floor: recs, Verdict: headline.TooFewReps,
			Why: "n=3+3 is too few for a 95% interval"},
		{Comparison: java, Ratio: ratio(0.97, 0.90, 1.05, 0.31, 6), Floor: recs, Verdict: headline.NotSignificant, Why: "p=0.31 is not below 0.05"},
		{Comparison: alloc, Label: batch("1024"), Ratio: ratio(1.04, 1.02, 1.07, 0.004, 6), Floor: recs, Verdict: headline.WithinFloor,
			Why: "the interval reaches into the 6.1% A/A floor"},
		{Comparison: alloc, Label: batch("8192"), Ratio: ratio(1.12, 1.08, 1.15, 0.002, 6), Floor: recs, Verdict: headline.Resolved},
		{Comparison: comp("fast/ceiling"), Floor: recs, Verdict: headline.Missing, Why: "no path=ceiling cell"},
		{Comparison: comp("mimalloc3/go in peak-RSS-MB"), Ratio: ratio(0.81, 0.78, 0.85, 0.002, 6), Floor: rss, Verdict: headline.Resolved},
	}
}

func TestHeadlineFigure(t *testing.T) {
	fig := HeadlineFigure(headlineRows(t), Options{})
	if fig.Skip != "" || len(fig.Panels) != 1 || fig.Name != HeadlineFigureName {
		t.Fatalf("name %q, skip %q, %d panels", fig.Name, fig.Skip, len(fig.Panels))
	}
	pn := fig.Panels[0]
	if pn.Kind != RatioPanel || !pn.LogX {
		t.Errorf("kind %v, log %v: want a ratio panel on a log axis (0.78 to 5.02 spans more than 4x)", pn.Kind, pn.LogX)
	}
	var labels []string
	for _, r := range pn.Ratios {
		labels = append(labels, r.Label)
	}
	want := []string{"fast/flink by format · format=json", "fast/flink by format · format=avro", "fast/flink by format · format=protobuf",
		"fast/java on raw", "mimalloc3/go by batch · batch=1024", "mimalloc3/go by batch · batch=8192", "mimalloc3/go in peak-RSS-MB"}
	if strings.Join(labels, "|") != strings.Join(want, "|") {
		t.Errorf("rows\n%q\nwant (the missing one left out)\n%q", labels, want)
	}
	rs := pn.Ratios
	if !rs[0].Resolved || !rs[0].HasInterval() || rs[0].Floor != 0.061 {
		t.Errorf("json %+v: want resolved, with its interval and the rec/s floor", rs[0])
	}
	if rs[2].Resolved || rs[2].HasInterval() {
		t.Errorf("protobuf %+v: too few reps is an open dot without a bar", rs[2])
	}
	if rs[3].Resolved || !rs[3].HasInterval() || rs[4].Resolved {
		t.Errorf("~ rows %+v, %+v: want open with their bars", rs[3], rs[4])
	}
	if rs[6].Floor != 0 || !rs[6].Resolved {
		t.Errorf("peak-RSS-MB %+v: no floor for its unit, so no band", rs[6])
	}
	for _, s := range []string{"band: 1 ± the A/A floor of the row's unit (rec/s 6.1%).", "No band for peak-RSS-MB: no A/A pair reports it", "Not drawn: fast/ceiling (no path=ceiling cell).",
		"too few repetitions", "\"~\", not significant or within the floor", "Filled: resolved (p < 0.05"} {
		if !strings.Contains(fig.Caption, s) {
			t.Errorf("caption lacks %q:\n%s", s, fig.Caption)
		}
	}
	var kinds []LegendKind
	for _, e := range fig.Legend {
		kinds = append(kinds, e.Kind)
	}
	if len(kinds) != 4 || kinds[0] != LegendRatio || kinds[1] != LegendRatioOpen || kinds[2] != LegendNoInterval || kinds[3] != LegendFloor {
		t.Errorf("legend %+v", fig.Legend)
	}
	t.Logf("caption: %s", fig.Caption)
}

// TestHeadlineFigureLinear: ratios within 4x of each other (and of 1) are
// drawn on a linear axis, and a run without a floor gets no band entry.
func TestHeadlineFigureLinear(t *testing.T) {
	rows := headlineRows(t)[3:6]
	for i := range rows {
		rows[i].Floor = headline.Floor{Unit: results.UnitRecPerSec}
	}
	fig := HeadlineFigure(rows, Options{Emulated: true})
	if fig.Skip != "" || fig.Panels[0].LogX {
		t.Fatalf("skip %q, log %v: want a linear axis", fig.Skip, fig.Panels[0].LogX)
	}
	for _, e := range fig.Legend {
		if e.Kind == LegendFloor {
			t.Error("a band in the legend without a floor")
		}
	}
	if !strings.Contains(fig.Caption, "Line: 1, no difference. No band for rec/s:") || strings.Contains(fig.Caption, "band)") {
		t.Errorf("caption %s", fig.Caption)
	}
	if !strings.Contains(fig.Title, EmulatedLabel) {
		t.Errorf("title %q lacks the emulated label", fig.Title)
	}
}

func TestHeadlineFigureSkipped(t *testing.T) {
	if fig := HeadlineFigure(nil, Options{}); fig.Skip == "" {
		t.Error("no rows: not skipped")
	}
	rows := headlineRows(t)[6:7]
	if fig := HeadlineFigure(rows, Options{}); fig.Skip != "no comparison has a ratio: fast/ceiling (no path=ceiling cell)" {
		t.Errorf("only a missing row: skip %q", fig.Skip)
	}
}

// TestHeadlineFigureGolden compares the fixed rows' figure with
// testdata/golden/headline/headline.png, and checks its SVG's text.
func TestHeadlineFigureGolden(t *testing.T) {
	fig := HeadlineFigure(headlineRows(t), Options{})
	got, err := Render(fig, "png")
	if err != nil {
		t.Fatal(err)
	}
	golden.CheckWith(t, filepath.Join("golden", "headline", HeadlineFigureName+".png"), got, samePNG)
	svg, err := Render(fig, "svg")
	if err != nil {
		t.Fatal(err)
	}
	all := svgText(t, svg)
	for _, want := range []string{"fast/java on raw", "ratio, numerator over denominator (log scale)", "1×", "2×", "5×"} {
		if !strings.Contains(all, want) {
			t.Errorf("svg text lacks %q", want)
		}
	}
}

// TestWriteFigure: the headline figure is written in both formats into
// plots/, skipped.txt left as it was; a skipped figure is an error and
// writes nothing.
func TestWriteFigure(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, Dir), 0o755); err != nil {
		t.Fatal(err)
	}
	skipped := filepath.Join(dir, Dir, SkippedFile)
	if err := os.WriteFile(skipped, []byte("lag: no live cells\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	files, err := WriteFigure(dir, HeadlineFigure(headlineRows(t), Options{}), Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{filepath.Join(dir, Dir, "headline.png"), filepath.Join(dir, Dir, "headline.svg")}
	if strings.Join(files, " ") != strings.Join(want, " ") {
		t.Errorf("wrote %v, want %v", files, want)
	}
	for _, f := range files {
		if st, err := os.Stat(f); err != nil || st.Size() == 0 {
			t.Errorf("%s: %v", f, err)
		}
	}
	if list, err := os.ReadFile(skipped); err != nil || string(list) != "lag: no live cells\n" {
		t.Errorf("skipped.txt = %q, %v: want it untouched", list, err)
	}
	files, err = WriteFigure(t.TempDir(), HeadlineFigure(nil, Options{}), Options{Formats: []string{"png"}})
	if err == nil || len(files) != 0 {
		t.Errorf("a skipped figure: files %v, err %v", files, err)
	}
}

// TestRatioTicks: a log ratio axis under 1.5 decades labels 1-5 and 7
// times the powers of ten, a wider one 1, 2 and 5, a linear one
// plot.DefaultTicks'; every label ends in "×".
func TestRatioTicks(t *testing.T) {
	labels := func(tk ratioTicks, lo, hi float64) string {
		var l []string
		for _, x := range tk.Ticks(lo, hi) {
			if x.Label != "" {
				l = append(l, x.Label)
			}
		}
		return strings.Join(l, " ")
	}
	tests := []struct {
		tk     ratioTicks
		lo, hi float64
		want   string
	}{
		{ratioTicks{log: true}, math.Log10(0.68), math.Log10(5.8), "0.7× 1× 2× 3× 4× 5×"},
		{ratioTicks{log: true}, math.Log10(0.3), math.Log10(40), "0.5× 1× 2× 5× 10× 20×"},
		{ratioTicks{log: false}, 0.88, 1.17, "0.9× 1× 1.1×"},
	}
	for _, tt := range tests {
		if got := labels(tt.tk, tt.lo, tt.hi); got != tt.want {
			t.Errorf("%+v [%g, %g]: %q, want %q", tt.tk, tt.lo, tt.hi, got, tt.want)
		}
	}
}
