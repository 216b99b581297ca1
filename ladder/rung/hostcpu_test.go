package rung

import (
	"strings"
	"testing"
	"time"

	"github.com/fastpathlab/fplab/results"
)

// TestParseProcStat: busy is every tick but idle and iowait, guest times
// (already in user and nice) are not counted again, the CPUs are the cpuN
// lines; a file without the aggregate line or with a bad count is an
// error, not a zero.
func TestParseProcStat(t *testing.T) {
	const stat = "cpu  100 20 30 400 50 6 4 10 7 3\ncpu0 50 10 15 200 25 3 2 5 0 0\ncpu1 50 10 15 200 25 3 2 5 0 0\nintr 12345\nctxt 99\n"
	s, err := parseProcStat([]byte(stat))
	if err != nil {
		t.Fatal(err)
	}
	// busy: 100+20+30+6+4+10 = 170 ticks; all: 170+400+50 = 620 ticks
	if s.busy != 1700*time.Millisecond || s.total != 6200*time.Millisecond || s.cpus != 2 {
		t.Errorf("got busy %v total %v cpus %d, want 1.7s 6.2s 2", s.busy, s.total, s.cpus)
	}
	for _, bad := range []string{
		"cpu0 1 2 3 4 5\n",                 // no aggregate line
		"cpu  1 2 x 4 5\ncpu0 1 2 3 4 5\n", // not a count
		"cpu  1 2 3\ncpu0 1 2 3 4 5\n",     // too few fields
		"cpu  1 2 3 4 5\n",                 // no CPUs
	} {
		if _, err := parseProcStat([]byte(bad)); err == nil || !strings.HasPrefix(err.Error(), "host cpu: ") {
			t.Errorf("%q: err %v, want a host cpu error", bad, err)
		}
	}
}

// TestHostFigures: per record, busy cores over the span, and the bound
// rate at which every CPU would be busy; nothing when the ticks did not
// move or no record was read.
func TestHostFigures(t *testing.T) {
	t0 := time.Unix(100, 0)
	a := hostSample{at: t0, busy: 10 * time.Second, total: 40 * time.Second, cpus: 2}
	b := hostSample{at: t0.Add(time.Second), busy: 11500 * time.Millisecond, total: 42 * time.Second, cpus: 2}
	got := map[string]float64{}
	for _, m := range hostFigures(a, b, 3_000_000) {
		got[m.Unit] = m.Value
	}
	want := map[string]float64{
		results.UnitHostCPUNsPerRec:    500, // 1.5 s of CPU over 3M records
		results.UnitHostBusyCores:      1.5, // over one second
		results.UnitHostBoundRecPerSec: 4e6, // 2 CPUs at 500 ns/rec
	}
	for u, v := range want {
		if g, ok := got[u]; !ok || g < v*(1-1e-9) || g > v*(1+1e-9) {
			t.Errorf("%s = %v (present %v), want %v", u, g, ok, v)
		}
	}
	if len(got) != len(want) {
		t.Errorf("figures %v, want exactly %v", got, want)
	}
	if m := hostFigures(a, a, 3_000_000); m != nil {
		t.Errorf("no ticks between the samples: got %v, want none", m)
	}
	if m := hostFigures(a, b, 0); m != nil {
		t.Errorf("no records: got %v, want none", m)
	}
}

// TestReadHost: this machine's /proc/stat reads as at least one CPU with
// busy time inside its total.
func TestReadHost(t *testing.T) {
	s, err := readHost()
	if err != nil {
		t.Fatal(err)
	}
	if s.cpus < 1 || s.busy <= 0 || s.busy > s.total {
		t.Errorf("got %+v, want cpus >= 1 and 0 < busy <= total", s)
	}
}
