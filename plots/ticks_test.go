package plots

import (
	"strings"
	"testing"
)

func labels(tb batchTicks, lo, hi float64) (labelled []string, minor int) {
	for _, tk := range tb.Ticks(lo, hi) {
		if tk.Label != "" {
			labelled = append(labelled, tk.Label)
		} else {
			minor++
		}
	}
	return labelled, minor
}

func TestBatchTicks(t *testing.T) {
	got, minor := labels(batchTicks{xs: []float64{256, 1024, 8192, 65536}}, 200, 80000)
	if s := strings.Join(got, ","); s != "256,1024,8192,65536" {
		t.Errorf("labels %s, want the batch sizes", s)
	}
	if minor != 5 { // 512 2048 4096 16384 32768
		t.Errorf("minor ticks %d, want the 5 other powers of two", minor)
	}
	xs := make([]float64, 0, 17)
	for k := 0; k <= 16; k++ {
		xs = append(xs, float64(int(1)<<k))
	}
	got, _ = labels(batchTicks{xs: xs}, 1, 65536)
	if len(got) == 0 || len(got) > maxLabels || got[0] != "1" {
		t.Errorf("17 sizes: labels %v, want at most %d powers of two from 1", got, maxLabels)
	}
}

// TestSITicks: tick labels are scaled as the tables scale their figures
// (texttab.Label), without the trailing zeros a round tick does not need.
func TestSITicks(t *testing.T) {
	var got []string
	for _, tk := range (siTicks{}).Ticks(0, 3e6) {
		if tk.Label != "" {
			got = append(got, tk.Label)
		}
	}
	if s := strings.Join(got, ","); s != "0,1M,2M,3M" {
		t.Errorf("labels %s, want 0,1M,2M,3M", s)
	}
}
