package plots

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/fastpathlab/fplab/results"
)

const lagTitle = "Lag behind the producer's schedule — live cells"

// lagFigure draws every live cell's lag series over time: x the seconds
// since the producer's T0, y the most records the reader was behind the
// schedule in each 100 ms bucket, one line per cell from the first of its
// successful repetitions that left a series (the series of several
// repetitions would hide each other's spikes).
func lagFigure(fig Figure, lay *liveLayout) Figure {
	var used []int
	warm := math.NaN()
	sameWarm := true
	for _, pn := range lay.panels {
		var curves []Curve
		for _, c := range pn.cells {
			r := firstLag(c.live)
			if r == nil {
				continue
			}
			pts := make([]XY, 0, len(r.Lag))
			for _, p := range r.Lag {
				pts = append(pts, XY{X: float64(p.TMs) / 1e3, Y: float64(p.Rec)})
			}
			curves = append(curves, Curve{Label: c.label, Style: lay.style[c.label], Points: pts})
			used = append(used, r.Rep)
			if r.Rate > 0 {
				w := float64(r.Warmup) / float64(r.Rate)
				if math.IsNaN(warm) {
					warm = w
				}
				sameWarm = sameWarm && math.Abs(w-warm) < 1e-3
			}
		}
		if len(curves) == 0 {
			continue
		}
		t := ""
		if lay.facet {
			t = pn.title
		}
		fig.Panels = append(fig.Panels, Panel{Kind: CurvePanel, Title: t,
			XLabel: "seconds since T0", YLabel: "lag (records)", Curves: curves})
	}
	if len(fig.Panels) == 0 {
		fig.Skip = "no live cell left a lag series in " + results.LiveDir + "/"
		return fig
	}
	fig.Legend = lay.legend(fig.Panels)
	start := sameWarm && warm > 0
	if start {
		for i := range fig.Panels {
			fig.Panels[i].StartX = warm
		}
		fig.Legend = append(fig.Legend, LegendEntry{Label: "measured window starts", Kind: LegendStart})
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Each line is one live cell's lag: the most records its reader was behind the producer's schedule in each 100 ms since T0 (its first intended send), from %s. ", lagReps(used))
	b.WriteString("The warm-up is included")
	if start {
		fmt.Fprintf(&b, "; the measured window starts at %s s (dashed)", strconv.FormatFloat(warm, 'g', 4, 64))
	}
	b.WriteString(". 100 ms without a hand-over have no point; the line joins their neighbours.")
	b.WriteString(lay.layoutCaption())
	fig.Caption = b.String()
	return fig
}

// firstLag is the first repetition of c with a lag series, nil for none.
func firstLag(c *results.LiveCell) *results.LiveRep {
	for i := range c.Reps {
		if len(c.Reps[i].Lag) > 0 {
			return &c.Reps[i]
		}
	}
	return nil
}

// lagReps names the repetitions the lines come from: "repetition 0 of
// each cell" when they agree, else "the first successful repetition of
// each cell with a series (0–2)".
func lagReps(reps []int) string {
	lo, hi := reps[0], reps[0]
	for _, r := range reps {
		lo, hi = min(lo, r), max(hi, r)
	}
	if lo == hi {
		return fmt.Sprintf("repetition %d of each cell (the first successful one)", lo)
	}
	return fmt.Sprintf("the first successful repetition of each cell that left a series (repetitions %d–%d)", lo, hi)
}
