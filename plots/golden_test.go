package plots

import (
	"bytes"
	"encoding/xml"
	"flag"
	"image"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden images in testdata/golden")

// Pixels whose channels differ by more than channelTol count as changed; a
// figure matches its golden image when at most pixelTol of its pixels
// changed. The tolerance absorbs rasteriser rounding across architectures,
// not a moved line or a changed label.
const (
	channelTol = 24
	pixelTol   = 0.002
)

func decodePNG(t *testing.T, data []byte) image.Image {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("decode png: %v", err)
	}
	return img
}

// pixelDiff returns the fraction of pixels that differ beyond channelTol,
// or 1 when the sizes differ.
func pixelDiff(a, b image.Image) float64 {
	if a.Bounds().Size() != b.Bounds().Size() {
		return 1
	}
	ab, bb := a.Bounds(), b.Bounds()
	changed := 0
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
					break
				}
			}
		}
	}
	return float64(changed) / float64(ab.Dx()*ab.Dy())
}

// TestGoldenImages renders every figure of the seeded fixture run and
// compares it with testdata/golden/<name>.png (go test -update rewrites
// them).
func TestGoldenImages(t *testing.T) {
	figs := Plan(fixtureRows(), Options{Emulated: true})
	for _, fig := range figs {
		t.Run(fig.Name, func(t *testing.T) {
			got, err := Render(fig, "png")
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join("testdata", "golden", fig.Name+".png")
			if *update {
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test -update to create it)", err)
			}
			if d := pixelDiff(decodePNG(t, got), decodePNG(t, want)); d > pixelTol {
				out := filepath.Join(t.TempDir(), fig.Name+".png")
				os.WriteFile(out, got, 0o644)
				t.Errorf("%s differs from %s in %.2f%% of pixels (tolerance %.2f%%); rendered image kept at %s",
					fig.Name, path, 100*d, 100*pixelTol, out)
			}
		})
	}
}

// TestGoldenComparisonDetectsChange proves the tolerance is tight enough to
// catch a real change: one line moved by 15%.
func TestGoldenComparisonDetectsChange(t *testing.T) {
	fig := figureByName(t, Plan(fixtureRows(), Options{Emulated: true}), "throughput-json")
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
	if d := pixelDiff(decodePNG(t, base), decodePNG(t, changed)); d <= pixelTol {
		t.Errorf("moving a line changed only %.3f%% of pixels, within the %.2f%% tolerance", 100*d, 100*pixelTol)
	}
}

func TestRenderSVG(t *testing.T) {
	fig := figureByName(t, Plan(fixtureRows(), Options{Emulated: true}), "tradeoff-json")
	data, err := Render(fig, "svg")
	if err != nil {
		t.Fatal(err)
	}
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
	all := strings.Join(texts, " ")
	for _, want := range []string{EmulatedLabel, "ckpt p99 (ms)", "batch size (records, log scale)", "65536", "knee 8192", "budget 100 ms"} {
		if !strings.Contains(all, want) {
			t.Errorf("svg text lacks %q", want)
		}
	}
}

func TestRenderErrors(t *testing.T) {
	if _, err := Render(Figure{Name: "x", Skip: "no data"}, "png"); err == nil || !strings.HasPrefix(err.Error(), "plots: ") {
		t.Errorf("skipped figure: err = %v", err)
	}
	if _, err := Render(Figure{Name: "x"}, "png"); err == nil {
		t.Error("figure without panels rendered")
	}
	fig := figureByName(t, Plan(fixtureRows(), Options{}), "alloc-json")
	if _, err := Render(fig, "gif"); err == nil || !strings.Contains(err.Error(), `"gif"`) {
		t.Errorf("unknown format: err = %v", err)
	}
}
