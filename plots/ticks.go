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

// fixedTicks labels exactly the given ticks, those in range.
type fixedTicks []AxisTick

func (t fixedTicks) Ticks(lo, hi float64) []plot.Tick {
	var ticks []plot.Tick
	for _, tk := range t {
		if tk.Value >= lo && tk.Value <= hi {
			ticks = append(ticks, plot.Tick{Value: tk.Value, Label: tk.Label})
		}
	}
	return ticks
}

// log10 is the ticks placed on an axis that holds the log10 of its values.
func (t fixedTicks) log10() fixedTicks {
	out := make(fixedTicks, 0, len(t))
	for _, tk := range t {
		if tk.Value > 0 {
			out = append(out, AxisTick{Value: math.Log10(tk.Value), Label: tk.Label})
		}
	}
	return out
}

// log10Ticks labels an axis that holds the log10 of its values (a curve
// panel's log axis) at the powers of ten of the values (0.01, 0.1, 1, 10,
// ...), with minor ticks at their multiples 2 to 9; a range within one
// decade also labels its bounds, so no axis is left without a number.
type log10Ticks struct{}

func (log10Ticks) Ticks(lo, hi float64) []plot.Tick {
	ticks := decadeTicks(math.Pow(10, lo), math.Pow(10, hi))
	for i := range ticks {
		ticks[i].Value = math.Log10(ticks[i].Value)
	}
	return ticks
}

// decadeTicks are log10Ticks in the values' own terms, lo to hi.
func decadeTicks(lo, hi float64) []plot.Tick {
	if !(lo > 0) || !(hi > lo) {
		return nil
	}
	var ticks []plot.Tick
	labelled := 0
	for k := int(math.Floor(math.Log10(lo))); k <= int(math.Ceil(math.Log10(hi))) && len(ticks) < 1000; k++ {
		d := math.Pow(10, float64(k))
		for m := 1; m < 10; m++ {
			v := float64(m) * d
			if v < lo || v > hi {
				continue
			}
			tk := plot.Tick{Value: v}
			if m == 1 {
				tk.Label = numLabel(v)
				labelled++
			}
			ticks = append(ticks, tk)
		}
	}
	if labelled == 0 {
		ticks = append(ticks, plot.Tick{Value: lo, Label: numLabel(lo)}, plot.Tick{Value: hi, Label: numLabel(hi)})
	}
	return ticks
}

// plainTicks is plot.DefaultTicks labelled as numbers, scaled with SI
// prefixes only from ten thousand up (40k records), so that a fraction of
// a millisecond reads 0.5, never 500m, and a second 1000 ms, never 1k.
type plainTicks struct{}

func (plainTicks) Ticks(lo, hi float64) []plot.Tick {
	ticks := plot.DefaultTicks{}.Ticks(lo, hi)
	for i := range ticks {
		if ticks[i].Label != "" {
			ticks[i].Label = numLabel(ticks[i].Value)
		}
	}
	return ticks
}

// numLabel is v as plainTicks labels it.
func numLabel(v float64) string {
	if math.Abs(v) >= 1e4 {
		return texttab.Label(v)
	}
	return strconv.FormatFloat(v, 'g', 4, 64)
}
