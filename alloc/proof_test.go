package alloc_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/fastpathlab/fplab/alloc"
)

// Each build must prove the allocator its tag claims, with the right series.
func TestProofMatchesBuild(t *testing.T) {
	ev, err := alloc.Proof()
	t.Logf("\n%s", ev)
	if err != nil {
		t.Fatalf("Proof: %v", err)
	}
	if ev.Allocator != alloc.Name() {
		t.Fatalf("evidence for %q in the %q build", ev.Allocator, alloc.Name())
	}
	wantPrefix := map[string]string{"go": "glibc 2.", "mimalloc2": "2.", "mimalloc3": "3."}[alloc.Name()]
	if wantPrefix == "" {
		t.Fatalf("unknown variant %q", alloc.Name())
	}
	if !strings.HasPrefix(alloc.Version(), wantPrefix) || ev.Version != alloc.Version() {
		t.Fatalf("Version() = %q (evidence %q), want prefix %q", alloc.Version(), ev.Version, wantPrefix)
	}
	if len(ev.Checks) < 3 || len(ev.Failed()) != 0 {
		t.Fatalf("want >= 3 passing checks, got %+v", ev.Checks)
	}
}

func TestEvidenceErrNamesFailedChecks(t *testing.T) {
	ev := alloc.Evidence{Allocator: "mimalloc3", Version: "2.3.2", Checks: []alloc.Check{
		{Name: "series", OK: false, Detail: "mi_version 2.3.2, want major 3"},
		{Name: "c-malloc-owned", OK: true, Detail: "fine"},
	}}
	err := ev.Err()
	if err == nil {
		t.Fatal("Err() = nil with a failed check")
	}
	for _, want := range []string{"mimalloc3 (2.3.2) not in force: ", "series: mi_version 2.3.2"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("Err() = %q, missing %q", err, want)
		}
	}
	if strings.Contains(err.Error(), "c-malloc-owned") || strings.Contains(err.Error(), "\n") {
		t.Errorf("Err() = %q: want only the failed check, on one line", err)
	}
	ev.Checks[0].OK = true
	if err := ev.Err(); err != nil {
		t.Fatalf("Err() = %v with every check passing", err)
	}
	var zero alloc.Evidence
	if !errors.Is(zero.Err(), nil) {
		t.Fatal("empty evidence reported an error")
	}
}

func TestCountersSnapshot(t *testing.T) {
	s, err := alloc.Counters()
	t.Logf("%+v", s)
	if err != nil {
		t.Fatal(err)
	}
	if s.Allocator != alloc.Name() || len(s.Detail) == 0 || s.SystemBytes <= 0 {
		t.Fatalf("implausible snapshot %+v", s)
	}
}
