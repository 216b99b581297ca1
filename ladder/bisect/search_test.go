package bisect

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// fakeCommits are n commit names.
func fakeCommits(n int) []string {
	cs := make([]string, n)
	for i := range cs {
		cs[i] = fmt.Sprintf("c%02d", i)
	}
	return cs
}

// levels measures commit i at level(i) with 1% seeded noise, 8 values a
// run, and counts the runs.
func levels(level func(i int) float64, runs *int) Measure {
	r := rand.New(rand.NewPCG(7, 28))
	return func(_ context.Context, c string) (Sample, error) {
		*runs++
		var i int
		fmt.Sscanf(c, "c%d", &i)
		vs := make([]float64, 8)
		for k := range vs {
			vs[k] = level(i) * (1 + 0.01*r.NormFloat64())
		}
		return Sample{Values: vs, Floor: 0.02, Runs: []string{c}}, nil
	}
}

func TestSearchFindsTheStep(t *testing.T) {
	for _, at := range []int{1, 5, 11, 16} {
		commits := fakeCommits(17)
		runs := 0
		res, err := Search(context.Background(), commits, levels(func(i int) float64 {
			if i >= at {
				return 80
			}
			return 100
		}, &runs), Options{})
		if err != nil {
			t.Fatalf("step at %d: %v", at, err)
		}
		if !res.Resolved || res.First != commits[at] || res.Good != commits[at-1] || res.Change > -0.15 || res.Change < -0.25 {
			t.Errorf("step at %d: %+v", at, res)
		}
		// Two ends and one run per halving of 16 commits.
		if runs != 2+4 {
			t.Errorf("step at %d: %d runs, want 6", at, runs)
		}
	}
}

func TestSearchStopsUnresolved(t *testing.T) {
	commits := fakeCommits(9)
	// The ends within their 2% floor of each other.
	runs := 0
	res, err := Search(context.Background(), commits, levels(func(i int) float64 { return 100 + 0.1*float64(i) }, &runs), Options{MaxRuns: 2})
	if !errors.Is(err, ErrNotResolved) || res.Resolved || !strings.Contains(err.Error(), "do not differ beyond their floor after 2 runs") || runs != 4 {
		t.Errorf("ends alike: %+v, %v after %d runs", res, err, runs)
	}
	// Commit 4 half-way between the ends: like neither, measured MaxRuns
	// times, and the range it narrowed to stands.
	runs = 0
	res, err = Search(context.Background(), commits, levels(func(i int) float64 {
		switch {
		case i < 4:
			return 100
		case i == 4:
			return 90
		}
		return 80
	}, &runs), Options{MaxRuns: 3})
	if !errors.Is(err, ErrNotResolved) || res.Good != "c00" || res.First != "c08" || !strings.Contains(err.Error(), "commit c04 is like neither c00 nor c08 after 3 runs") || runs != 2+3 {
		t.Errorf("half-way commit: %+v, %v after %d runs", res, err, runs)
	}
}

func TestSearchReportsAFailedRun(t *testing.T) {
	boom := errors.New("ladder: exit status 1")
	_, err := Search(context.Background(), fakeCommits(3), func(_ context.Context, c string) (Sample, error) {
		return Sample{}, boom
	}, Options{})
	if !errors.Is(err, boom) || !strings.Contains(err.Error(), "commit c00") {
		t.Errorf("err = %v, want the run's error naming the commit", err)
	}
	if _, err := Search(context.Background(), fakeCommits(1), nil, Options{}); err == nil {
		t.Error("one commit: want an error")
	}
}
