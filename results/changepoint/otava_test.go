package changepoint

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"slices"
	"testing"
	"time"
)

// otavaPython is the Python with Apache Otava (PyPI: apache-otava 0.8.0)
// the oracle test runs: $FPLAB_OTAVA, which make test sets after `make
// otava` made the virtualenv. Without it the oracle test is skipped; with
// it set to a Python that cannot run Otava, it fails.
func otavaPython(t *testing.T) string {
	py := os.Getenv("FPLAB_OTAVA")
	if py == "" {
		t.Skip("FPLAB_OTAVA is not set (make otava; make test sets it)")
	}
	return py
}

type oracleCase struct {
	Name   string    `json:"name"`
	Series []float64 `json:"series"`
	Window int       `json:"window"`
	MaxP   float64   `json:"max_pvalue"`
}

type oracleAnswer struct {
	Name      string    `json:"name"`
	Index     []int     `json:"index"`
	P         []float64 `json:"p"`
	Magnitude []float64 `json:"magnitude"`
	FreshP    []float64 `json:"fresh_p"`
}

// runOtava asks Otava for the change points of every case.
func runOtava(t *testing.T, cases []oracleCase) []oracleAnswer {
	t.Helper()
	in, err := json.Marshal(cases)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, otavaPython(t), "testdata/otava_oracle.py")
	cmd.Stdin = bytes.NewReader(in)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("otava: %v\n%s", err, stderr.String())
	}
	var answers []oracleAnswer
	if err := json.Unmarshal(out, &answers); err != nil {
		t.Fatalf("otava's answer: %v", err)
	}
	if len(answers) != len(cases) {
		t.Fatalf("otava answered %d cases of %d", len(answers), len(cases))
	}
	return answers
}

// TestAgreesWithOtava runs Detect and Otava on the same seeded series, at
// Otava's defaults and at a looser p-value with a window shorter than the
// long series (checkOtava says what must agree).
func TestAgreesWithOtava(t *testing.T) {
	var cases []oracleCase
	for _, s := range seededSeries() {
		cases = append(cases,
			oracleCase{s.name + "/window=50/p=0.001", s.series, 50, 0.001},
			oracleCase{s.name + "/window=30/p=0.01", s.series, 30, 0.01})
	}
	found := checkOtava(t, cases)
	// The comparison means something only if the series hold changes both
	// find: every seeded step is one.
	if found < 100 {
		t.Errorf("only %d change points over %d cases: the series are too easy to agree on", found, len(cases))
	}
}

// TestAgreesWithOtavaOnLabHistory runs both on this repository's own
// history (testdata/lab-series.json, written by testdata/lab_series.py from
// a store of the runs of 2026-12-06/07): each (cell, unit) measured by five
// runs or more, as run medians and as every repetition.
func TestAgreesWithOtavaOnLabHistory(t *testing.T) {
	data, err := os.ReadFile("testdata/lab-series.json")
	if err != nil {
		t.Fatal(err)
	}
	var series []struct {
		Name   string    `json:"name"`
		Series []float64 `json:"series"`
	}
	if err := json.Unmarshal(data, &series); err != nil {
		t.Fatal(err)
	}
	var cases []oracleCase
	for _, s := range series {
		cases = append(cases, oracleCase{s.Name, s.Series, 50, 0.001})
	}
	if found := checkOtava(t, cases); found < 50 {
		t.Errorf("only %d change points in the lab's history: too few to say the two agree", found)
	}
}

// checkOtava runs Otava and Detect on every case and returns how many
// change points Otava found:
//
//   - Detect's first pass is Otava's algorithm: the same change points,
//     with the same p-values and magnitudes, on every series.
//   - Detect's answer keeps those points, less the ones that Otava's own
//     t-test, run again over the final intervals, does not find
//     significant (Otava's merge tests a point once more when the point
//     right of it is removed, not when the one left of it is): where
//     there are none it is Otava's answer, where there are some it drops
//     at least one, and it never adds a point.
func checkOtava(t *testing.T, cases []oracleCase) (found int) {
	t.Helper()
	answers := runOtava(t, cases)
	stale, dropped := 0, 0
	for i, c := range cases {
		want := answers[i]
		opt := Options{Window: c.Window, MaxP: c.MaxP}.withDefaults()
		first := merge(c.Series, split(c.Series, opt.Window, firstPassP(opt.MaxP)), opt, false)
		if idx := indices(first); !slices.Equal(idx, want.Index) {
			t.Errorf("%s: first pass %v, Otava %v", c.Name, idx, want.Index)
			continue
		}
		found += len(first)
		for j, g := range first {
			if !near(g.P, want.P[j], 1e-6) && !(g.P < 1e-12 && want.P[j] < 1e-12) {
				t.Errorf("%s: point %d p = %g, Otava %g", c.Name, g.Index, g.P, want.P[j])
			}
			if !near(g.Magnitude(), want.Magnitude[j], 1e-9) {
				t.Errorf("%s: point %d magnitude = %g, Otava %g", c.Name, g.Index, g.Magnitude(), want.Magnitude[j])
			}
		}
		got, err := Detect(c.Series, Options{Window: c.Window, MaxP: c.MaxP})
		if err != nil {
			t.Fatal(err)
		}
		var weak []int
		for j, p := range want.FreshP {
			if !(p < c.MaxP) {
				weak = append(weak, want.Index[j])
			}
		}
		stale += len(weak)
		kept := indices(got)
		switch {
		case len(weak) == 0 && !slices.Equal(kept, want.Index):
			t.Errorf("%s: Detect %v, Otava %v, every one significant when tested again", c.Name, kept, want.Index)
		case len(weak) > 0 && len(kept) == len(want.Index):
			t.Errorf("%s: Detect kept all of Otava's %v, though %v are not significant when tested again", c.Name, want.Index, weak)
		}
		for _, p := range kept {
			if !slices.Contains(want.Index, p) {
				t.Errorf("%s: Detect found %d, which Otava did not (%v)", c.Name, p, want.Index)
			}
		}
		dropped += len(want.Index) - len(kept)
	}
	t.Logf("%d series: Otava's %d change points found by the first pass; %d of them not significant when Otava tests them again; Detect dropped %d",
		len(cases), found, stale, dropped)
	return found
}

func indices(cs []Change) []int {
	out := make([]int, len(cs))
	for i, c := range cs {
		out[i] = c.Index
	}
	return out
}
