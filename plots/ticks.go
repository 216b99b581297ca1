package plots

import (
	"math"
	"strconv"

	"github.com/fastpathlab/fplab/results/texttab"
	"gonum.org/v1/plot"
)

// batchTicks labels the batch sizes present in the data (256, 1024, 8192,
// 65536, ...) and puts unlabelled minor ticks at the other powers of two in
// range. With more than maxLabels sizes it labels every k-th power of two
// instead.
type batchTicks struct {
	xs []float64
}

const maxLabels = 9

func (t batchTicks) Ticks(lo, hi float64) []plot.Tick {
	var ticks []plot.Tick
	labelled := make(map[float64]bool)
	if len(t.xs) <= maxLabels {
		for _, x := range t.xs {
			if x >= lo && x <= hi {
				ticks = append(ticks, plot.Tick{Value: x, Label: intLabel(x)})
				labelled[x] = true
			}
		}
	}
	if lo <= 0 {
		lo = math.SmallestNonzeroFloat64
	}
	if hi <= lo {
		return ticks
	}
	k0, k1 := int(math.Ceil(math.Log2(lo))), int(math.Floor(math.Log2(hi)))
	step := 1
	if n := k1 - k0 + 1; n > maxLabels {
		step = (n + maxLabels - 1) / maxLabels
	}
	for k := k0; k <= k1 && k-k0 < 4096; k++ {
		v := math.Ldexp(1, k)
		if labelled[v] {
			continue
		}
		tk := plot.Tick{Value: v}
		if len(labelled) == 0 && (k-k0)%step == 0 {
			tk.Label = intLabel(v)
		}
		ticks = append(ticks, tk)
	}
	return ticks
}

func intLabel(v float64) string {
	if v >= 1 && v == math.Trunc(v) && v < 1e15 {
		return strconv.FormatFloat(v, 'f', 0, 64)
	}
	return strconv.FormatFloat(v, 'g', 3, 64)
}

// siTicks is plot.DefaultTicks with labels scaled as the tables scale
// their figures (texttab.Label: 2.5M rather than 2.5e+06).
type siTicks struct{}

func (siTicks) Ticks(lo, hi float64) []plot.Tick {
	ticks := plot.DefaultTicks{}.Ticks(lo, hi)
	for i := range ticks {
		if ticks[i].Label != "" {
			ticks[i].Label = texttab.Label(ticks[i].Value)
		}
	}
	return ticks
}
