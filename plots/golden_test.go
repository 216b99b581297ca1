package plots

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"image"
	"image/png"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fastpathlab/fplab/internal/golden"
	"github.com/fastpathlab/fplab/results"
	"github.com/fastpathlab/fplab/results/resultstest"
)

// Pixels whose channels differ by more than channelTol count as changed; a
// figure matches its golden image when at most pixelTol of its pixels
// changed and no blockSize x blockSize block has more than blockTol changed
// pixels. The tolerance absorbs rasteriser rounding across architectures
// (scattered edge pixels), not a moved line or a changed label; the block
// bound catches what a fraction of a whole image cannot: one moved dot of
// a dot chart is under 0.1% of the pixels but fills its block.
const (
	channelTol = 24
	pixelTol   = 0.002
	blockSize  = 16
	blockTol   = 16
)

func decodePNG(t *testing.T, data []byte) image.Image {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("decode png: %v", err)
	}
	return img
}

// pixelDiff returns the fraction of pixels that differ beyond channelTol
// and the most such pixels in one blockSize x blockSize block, or (1,
// blockSize*blockSize) when the sizes differ.
func pixelDiff(a, b image.Image) (frac float64, block int) {
	if a.Bounds().Size() != b.Bounds().Size() {
		return 1, blockSize * blockSize
	}
	ab, bb := a.Bounds(), b.Bounds()
	changed := 0
	blocks := make(map[image.Point]int)
	for y := 0; y < ab.Dy(); y++ {
		for x := 0; x < ab.Dx(); x++ {
			r1, g1, b1, a1 := a.At(ab.Min.X+x, ab.Min.Y+y).RGBA()
			r2, g2, b2, a2 := b.At(bb.Min.X+x, bb.Min.Y+y).RGBA()
			for _, d := range [][2]uint32{{r1, r2}, {g1, g2}, {b1, b2}, {a1, a2}} {
				hi, lo := d[0]>>8, d[1]>>8
				if hi < lo {
					hi, lo = lo, hi
				}
				if hi-lo > channelTol {
					changed++
					k := image.Point{X: x / blockSize, Y: y / blockSize}
					blocks[k]++
					block = max(block, blocks[k])
					break
				}
			}
		}
	}
	return float64(changed) / float64(ab.Dx()*ab.Dy()), block
}

// differs reports whether a change of frac pixels, at most block in one
// block, exceeds the golden tolerance.
func differs(frac float64, block int) bool { return frac > pixelTol || block > blockTol }

// goldenRuns are the fixture runs whose every figure is golden-tested:
// the seeded sweep (its images directly in testdata/golden) and runs
// shaped like the smoke and paths specs and like a one-cell run (each in
// testdata/golden/<dir>).
var goldenRuns = []struct {
	dir  string
	rows func() []results.Row
}{
	{"", resultstest.SweepRows},
	{"smoke", resultstest.SmokeRows},
	{"paths", resultstest.PathsRows},
	{"one-cell", resultstest.OneCellRows},
}

// TestGoldenImages renders every figure of each fixture run and compares
// it with testdata/golden/[<dir>/]<name>.png within the pixel tolerance
// (go test -update rewrites the images that differ beyond it). A figure
// the plan skips has no image to compare.
func TestGoldenImages(t *testing.T) {
	for _, run := range goldenRuns {
		for _, fig := range mustPlan(t, run.rows(), Options{Emulated: true}) {
			if fig.Skip != "" {
				continue
			}
			t.Run(filepath.Join(run.dir, fig.Name), func(t *testing.T) {
				got, err := Render(fig, "png")
				if err != nil {
					t.Fatal(err)
				}
				golden.CheckWith(t, filepath.Join("golden", run.dir, fig.Name+".png"), got, samePNG)
			})
		}
	}
}

// samePNG is the golden.Compare of rendered figures: the images match
// when they differ within the pixel tolerance.
func samePNG(got, want []byte) error {
	g, err := png.Decode(bytes.NewReader(got))
	if err != nil {
		return fmt.Errorf("decode the rendered png: %v", err)
	}
	w, err := png.Decode(bytes.NewReader(want))
	if err != nil {
		return fmt.Errorf("decode the golden png: %v", err)
	}
	if d, blk := pixelDiff(g, w); differs(d, blk) {
		return fmt.Errorf("differs in %.2f%% of pixels, up to %d in one %dx%d block (tolerance %.2f%%, %d)",
			100*d, blk, blockSize, blockSize, 100*pixelTol, blockTol)
	}
	return nil
}

// TestGoldenComparisonDetectsChange proves the tolerance is tight enough to
// catch a real change: one line moved by 15%.
func TestGoldenComparisonDetectsChange(t *testing.T) {
	fig := figureByName(t, mustPlan(t, resultstest.SweepRows(), Options{Emulated: true}), "throughput-json")
	base, err := Render(fig, "png")
	if err != nil {
		t.Fatal(err)
	}
	pts := fig.Panels[0].Lines[1].Points
	moved := append([]Point(nil), pts...)
	for i := range moved {
		moved[i].Median *= 1.15
		moved[i].Min *= 1.15
		moved[i].Max *= 1.15
	}
	fig.Panels[0].Lines[1].Points = moved
	changed, err := Render(fig, "png")
	if err != nil {
		t.Fatal(err)
	}
	if d, blk := pixelDiff(decodePNG(t, base), decodePNG(t, changed)); d <= pixelTol {
		t.Errorf("moving a line changed only %.3f%% of pixels (%d in a block), within the %.2f%% tolerance", 100*d, blk, 100*pixelTol)
	}
}

func TestRenderSVG(t *testing.T) {
	fig := figureByName(t, mustPlan(t, resultstest.SweepRows(), Options{Emulated: true}), "tradeoff-json")
	data, err := Render(fig, "svg")
	if err != nil {
		t.Fatal(err)
	}
	all := svgText(t, data)
	for _, want := range []string{EmulatedLabel, "ckpt p99 (ms)", "batch size (records, log scale)", "65536", "knee 8192", "budget 100 ms"} {
		if !strings.Contains(all, want) {
			t.Errorf("svg text lacks %q", want)
		}
	}
}

func TestRenderErrors(t *testing.T) {
	if _, err := Render(Figure{Name: "x", Skip: "no data"}, "png"); err == nil || err.Error() != "figure x is skipped: no data" {
		t.Errorf("skipped figure: err = %v", err)
	}
	if _, err := Render(Figure{Name: "x"}, "png"); err == nil {
		t.Error("figure without panels rendered")
	}
	fig := figureByName(t, mustPlan(t, resultstest.SweepRows(), Options{}), "alloc-json")
	if _, err := Render(fig, "gif"); err == nil || !strings.Contains(err.Error(), `"gif"`) {
		t.Errorf("unknown format: err = %v", err)
	}
}

// TestGoldenComparisonDetectsDotChange proves the tolerance catches a
// moved dot on the dot and row figures, where the pixel fraction alone
// does not: one overview row and one path of the paths run moved by 15%.
func TestGoldenComparisonDetectsDotChange(t *testing.T) {
	move := func(st Stat) Stat {
		st.Median *= 1.15
		st.Lo *= 1.15
		st.Hi *= 1.15
		return st
	}
	tests := []struct {
		name   string
		fig    Figure
		change func(*Figure)
	}{
		{"overview", figureByName(t, mustPlan(t, resultstest.SweepRows(), Options{}), "overview"), func(f *Figure) {
			rows := append([]CellRow(nil), f.Panels[0].Rows...)
			rows[5].Stat = move(rows[5].Stat)
			f.Panels[0].Rows = rows
		}},
		{"by-path", figureByName(t, mustPlan(t, resultstest.PathsRows(), Options{}), "by-path"), func(f *Figure) {
			d := f.Panels[0].Dots[1]
			d.Values = append([]Stat(nil), d.Values...)
			d.Values[1] = move(d.Values[1])
			f.Panels[0].Dots = append([]DotSet(nil), f.Panels[0].Dots...)
			f.Panels[0].Dots[1] = d
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			base, err := Render(tt.fig, "png")
			if err != nil {
				t.Fatal(err)
			}
			tt.change(&tt.fig)
			changed, err := Render(tt.fig, "png")
			if err != nil {
				t.Fatal(err)
			}
			d, blk := pixelDiff(decodePNG(t, base), decodePNG(t, changed))
			if !differs(d, blk) {
				t.Errorf("moving one dot changed %.3f%% of pixels, %d in one block: within the tolerance", 100*d, blk)
			}
			t.Logf("moved dot: %.3f%% of pixels, %d in one block", 100*d, blk)
		})
	}
}

func TestRenderOverviewSVG(t *testing.T) {
	data, err := Render(figureByName(t, mustPlan(t, resultstest.SmokeRows(), Options{}), "overview"), "svg")
	if err != nil {
		t.Fatal(err)
	}
	all := svgText(t, data)
	for _, want := range []string{"throughput (rec/s)", "failed: 1 of 1 repetitions", "path=shallow format=avro batch=8192 brokers=3 alloc=mimalloc2 crc=off", "no interval (&lt; 6 reps)"} {
		if !strings.Contains(all, want) && !strings.Contains(all, strings.ReplaceAll(want, "&lt;", "<")) {
			t.Errorf("svg text lacks %q", want)
		}
	}
}

// svgText is the character data of a well-formed SVG document.
func svgText(t *testing.T, data []byte) string {
	t.Helper()
	dec := xml.NewDecoder(bytes.NewReader(data))
	var texts []string
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("svg is not well-formed XML: %v", err)
		}
		if cd, ok := tok.(xml.CharData); ok {
			texts = append(texts, string(cd))
		}
	}
	return strings.Join(texts, " ")
}
