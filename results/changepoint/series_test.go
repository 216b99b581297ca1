package changepoint

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// seeded is a named test series from a seeded generator.
type seeded struct {
	name   string
	series []float64
	// want is the change points the series was made with (nil for none);
	// the oracle test does not use it, the others do.
	want []int
}

func noise(r *rand.Rand, sd float64) float64 { return r.NormFloat64() * sd }

// seededSeries are the shapes the oracle test runs Otava and Detect on:
// steps up and down of several sizes against their noise, a ramp, a change
// of variance alone, no change at all, and several steps in a series
// longer than a window.
func seededSeries() []seeded {
	var out []seeded
	for seed := uint64(1); seed <= 6; seed++ {
		r := rand.New(rand.NewPCG(seed, 27))
		for _, step := range []float64{0.02, 0.05, 0.2, -0.1} {
			xs := make([]float64, 40)
			for i := range xs {
				level := 100.0
				if i >= 22 {
					level *= 1 + step
				}
				xs[i] = level + noise(r, 1)
			}
			out = append(out, seeded{fmt.Sprintf("step%+.0f%%/seed=%d", 100*step, seed), xs, []int{22}})
		}
		ramp := make([]float64, 40)
		for i := range ramp {
			ramp[i] = 100 + 0.5*float64(i) + noise(r, 1)
		}
		out = append(out, seeded{fmt.Sprintf("ramp/seed=%d", seed), ramp, nil})
		variance := make([]float64, 40)
		for i := range variance {
			sd := 1.0
			if i >= 20 {
				sd = 8
			}
			variance[i] = 100 + noise(r, sd)
		}
		out = append(out, seeded{fmt.Sprintf("variance/seed=%d", seed), variance, nil})
		flat := make([]float64, 40)
		for i := range flat {
			flat[i] = 100 + noise(r, 1)
		}
		out = append(out, seeded{fmt.Sprintf("none/seed=%d", seed), flat, nil})
		steps := make([]float64, 130)
		for i := range steps {
			level := 100.0
			switch {
			case i >= 95:
				level = 93
			case i >= 60:
				level = 108
			case i >= 30:
				level = 104
			}
			steps[i] = level + noise(r, 1.5)
		}
		out = append(out, seeded{fmt.Sprintf("steps/seed=%d", seed), steps, []int{30, 60, 95}})
	}
	return out
}

func near(a, b, rel float64) bool {
	return a == b || math.Abs(a-b) <= rel*math.Max(math.Abs(a), math.Abs(b))
}
