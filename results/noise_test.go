package results

import (
	"math"
	"strings"
	"testing"
)

// bruteU counts, over every way to interleave m x's and n y's, how many
// (x, y) pairs have the y before the x: the Mann-Whitney U.
func bruteU(m, n int) []float64 {
	counts := make([]float64, m*n+1)
	var rec func(xs, ys, u int)
	rec = func(xs, ys, u int) {
		if xs == m && ys == n {
			counts[u]++
			return
		}
		if xs < m {
			rec(xs+1, ys, u+ys) // an x placed after ys y's
		}
		if ys < n {
			rec(xs, ys+1, u)
		}
	}
	rec(0, 0, 0)
	return counts
}

func TestUCounts(t *testing.T) {
	for m := 1; m <= 6; m++ {
		for n := 1; n <= 7; n++ {
			got, want := uCounts(m, n), bruteU(m, n)
			if len(got) != len(want) {
				t.Fatalf("m=%d n=%d: len %d, want %d", m, n, len(got), len(want))
			}
			for u := range want {
				if got[u] != want[u] {
					t.Fatalf("m=%d n=%d U=%d: %v, want %v", m, n, u, got[u], want[u])
				}
			}
		}
	}
}

func TestMosesRank(t *testing.T) {
	// Tabulated two-sided 5% critical value of U for 6+6 is 5:
	// P(U <= 5) = 0.0206, so k = 6 and the confidence is 1 - 2*0.0206.
	k, conf := mosesRank(6, 6, 0.05)
	if k != 6 || math.Abs(conf-0.9589) > 0.0005 {
		t.Errorf("6+6: k=%d conf=%.4f, want 6 and 0.9589", k, conf)
	}
	// 3+3: P(U = 0) = 0.05 > 0.025, no interval.
	if k, _ := mosesRank(3, 3, 0.05); k != 0 {
		t.Errorf("3+3: k=%d, want 0", k)
	}
	// 10+10: critical value 23.
	if k, _ := mosesRank(10, 10, 0.05); k != 24 {
		t.Errorf("10+10: k=%d, want 24", k)
	}
}

func aaRows(cellA, cellB string, a, b []float64) []Row {
	var rows []Row
	for i, v := range a {
		rows = append(rows, Row{Cell: cellA, Rep: i, OK: true, Metrics: []Metric{{"ns/rec", 2 * v}, {"rec/s", v}}})
	}
	for i, v := range b {
		rows = append(rows, Row{Cell: cellB, Rep: i, OK: true, Metrics: []Metric{{"rec/s", v}}})
	}
	rows = append(rows, Row{Cell: cellB, Rep: len(b), OK: false, Reason: "crash"})
	return rows
}

func TestNoiseFloor(t *testing.T) {
	a := []float64{100, 101, 99, 102, 98, 100.5, 99.5, 101.5, 98.5, 100.2}
	b := []float64{100.1, 99.2, 101.2, 98.9, 100.8, 99.8, 101.9, 98.2, 100.4, 99.6}
	const ca, cb = "path=fast/aa=a", "path=fast/aa=b"
	n, err := NoiseFloor(aaRows(ca, cb, a, b), ca, cb, "rec/s")
	if err != nil {
		t.Fatal(err)
	}
	if n.NA != 10 || n.NB != 10 {
		t.Errorf("n = %d+%d, want 10+10 (failed rows excluded)", n.NA, n.NB)
	}
	if n.Biased || n.Lo >= 1 || n.Hi <= 1 {
		t.Errorf("A/A interval [%.4f, %.4f] should contain 1", n.Lo, n.Hi)
	}
	if n.Detectable <= 0 || n.Detectable > 0.03 {
		t.Errorf("detectable = %.4f, want within (0, 3%%] for ±2%% noise", n.Detectable)
	}
	if math.Abs(n.Detectable-math.Max(n.Hi-1, 1-n.Lo)) > 1e-12 {
		t.Errorf("detectable %.5f is not max(hi-1, 1-lo)", n.Detectable)
	}
	if n.Confidence < Confidence || math.Abs(n.Ratio-1) > 0.01 || math.Abs(n.Shift-1) > 0.01 {
		t.Errorf("conf %.3f ratio %.4f shift %.4f", n.Confidence, n.Ratio, n.Shift)
	}

	// The b name runs 5% faster: the harness is biased.
	shifted := make([]float64, len(b))
	for i, v := range b {
		shifted[i] = v * 1.05
	}
	n, err = NoiseFloor(aaRows(ca, cb, a, shifted), ca, cb, "rec/s")
	if err != nil {
		t.Fatal(err)
	}
	if !n.Biased || n.Lo <= 1 || n.Detectable < 0.05 {
		t.Errorf("5%% shift: biased=%v interval [%.4f, %.4f] detectable %.4f", n.Biased, n.Lo, n.Hi, n.Detectable)
	}

	// Too few reps: no interval, a warning, nothing detectable.
	n, err = NoiseFloor(aaRows(ca, cb, a[:3], b[:3]), ca, cb, "rec/s")
	if err != nil {
		t.Fatal(err)
	}
	if !math.IsInf(n.Detectable, 1) || len(n.Warnings) == 0 || n.Biased {
		t.Errorf("3+3: detectable %v warnings %v", n.Detectable, n.Warnings)
	}

	for _, tc := range []struct {
		rows       []Row
		unit, want string
	}{
		{aaRows(ca, cb, a, b), "ns/rec", "no OK rep"},
		{aaRows(ca, cb, []float64{1, 0, 2}, b), "rec/s", "positive"},
	} {
		if _, err := NoiseFloor(tc.rows, ca, cb, tc.unit); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("err = %v, want %q", err, tc.want)
		}
	}
}
