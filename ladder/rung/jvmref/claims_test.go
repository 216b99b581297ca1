package jvmref

import (
	"runtime"
	"strings"
	"testing"
)

// TestClaims: a result is refused when the program did not run as asked:
// Flink at another parallelism (the partition count when none is asked),
// a warm Flink job with fewer whole warm-up reads, or a steady consumer
// that warmed up on less than its warm-up count.
func TestClaims(t *testing.T) {
	flink := func(par string, warm int64) Result {
		return Result{Program: Flink, WarmupRecords: warm, Conf: []string{"format:json", "parallelism:" + par}}
	}
	for _, tc := range []struct {
		name string
		r    Result
		o    Opts
		want string // "" for accepted
	}{
		{"cold at the asked par", flink("2", 0), Opts{Program: Flink, Partitions: 6, Records: 10, Parallelism: 2}, ""},
		{"cold at the partitions", flink("6", 0), Opts{Program: Flink, Partitions: 6, Records: 10}, ""},
		{"cold at another par", flink("6", 0), Opts{Program: Flink, Partitions: 6, Records: 10, Parallelism: 2}, "ran at parallelism 6, want 2"},
		{"no par in conf", Result{Program: Flink}, Opts{Program: Flink, Partitions: 6, Records: 10}, "ran at parallelism none, want 6"},
		{"warm, every run", flink("2", 30), Opts{Program: Flink, Partitions: 6, Records: 10, Parallelism: 2, WarmupRuns: 3}, ""},
		{"warm, a run short", flink("2", 20), Opts{Program: Flink, Partitions: 6, Records: 10, Parallelism: 2, WarmupRuns: 3}, "warmed up on 20 records in 3 runs of 10, want 30"},
		{"cold that warmed up", flink("2", 10), Opts{Program: Flink, Partitions: 6, Records: 10, Parallelism: 2}, "warmed up on 10 records"},
		{"steady, one pass", Result{Program: Steady, WarmupRecords: 10}, Opts{Program: Steady, Records: 10, WarmupRecords: 10}, ""},
		{"steady, past a partial count", Result{Program: Steady, WarmupRecords: 7}, Opts{Program: Steady, Records: 10, WarmupRecords: 5}, ""},
		{"steady, short", Result{Program: Steady, WarmupRecords: 4}, Opts{Program: Steady, Records: 10, WarmupRecords: 10}, "want at least 10"},
	} {
		err := tc.r.claims(tc.o)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
}

// TestPar: a named parallelism is kept; auto is the partition count at
// most this process's usable cores, and at least 1.
func TestPar(t *testing.T) {
	if got := Par(2, 6); got != 2 {
		t.Errorf("Par(2, 6) = %d", got)
	}
	if got, want := Par(0, 6), min(6, runtime.NumCPU()); got != want {
		t.Errorf("Par(auto, 6) = %d, want %d", got, want)
	}
	if got := Par(0, 1); got != 1 {
		t.Errorf("Par(auto, 1) = %d", got)
	}
	if got, want := Par(0, 1024), runtime.NumCPU(); got != want {
		t.Errorf("Par(auto, 1024) = %d, want %d", got, want)
	}
}
