package plots

import "sort"

// Stat summarises one metric of one cell across its successful
// repetitions: the median with the smallest and largest sample. N is the
// number of samples; N == 0 means "no data" and the other fields are zero.
type Stat struct {
	Median, Min, Max float64
	N                int
}

// summarize returns the median, min and max of vs (N == 0 for none). The
// median of an even count is the mean of the two middle samples.
func summarize(vs []float64) Stat {
	if len(vs) == 0 {
		return Stat{}
	}
	s := append([]float64(nil), vs...)
	sort.Float64s(s)
	n := len(s)
	med := s[n/2]
	if n%2 == 0 {
		med = (s[n/2-1] + s[n/2]) / 2
	}
	return Stat{Median: med, Min: s[0], Max: s[n-1], N: n}
}

func sortPoints(ps []Point) { sort.Slice(ps, func(i, j int) bool { return ps[i].X < ps[j].X }) }

func sortFloats(xs []float64) { sort.Float64s(xs) }
