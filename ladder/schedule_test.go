package ladder

import (
	"slices"
	"testing"

	"github.com/fastpathlab/fplab/cell"
)

func scheduleSpec(seed uint64) *Spec {
	return &Spec{
		Path: cell.Paths(), Format: []string{"json", "raw"}, Batch: []int{8192}, Brokers: []int{1, 3},
		Alloc: []string{"go"}, CRC: []string{"off"}, Cluster: []string{"embedded"},
		Records: 10, Repetitions: 4, Warmup: 2, Seed: seed,
		Calibrate: map[string]string{"path": "fast", "format": "raw"},
	}
}

func names(es []Entry) []string {
	var out []string
	for _, e := range es {
		out = append(out, e.Cell.Name())
	}
	return out
}

func TestScheduleRounds(t *testing.T) {
	s := scheduleSpec(42)
	sch, err := NewSchedule(s)
	if err != nil {
		t.Fatal(err)
	}
	if len(sch.Rounds) != 6 {
		t.Fatalf("%d rounds, want 2 warm-up + 4", len(sch.Rounds))
	}
	cal := "path=fast/format=raw/batch=8192/brokers=1/alloc=go/crc=off"
	if sch.Calibration.Name() != cal {
		t.Errorf("calibration %s, want %s", sch.Calibration.Name(), cal)
	}
	var want []string
	for _, c := range sch.Cells {
		want = append(want, c.Name())
	}
	want = append(want, cal+"/aa=a", cal+"/aa=b")
	slices.Sort(want)
	for r, round := range sch.Rounds {
		got := names(round)
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Errorf("round %d runs %v, want every cell once: %v", r, got, want)
		}
		for _, e := range round {
			if e.Round != r || e.Warmup != (r < 2) || (e.Warmup && e.Rep != -1) || (!e.Warmup && e.Rep != r-2) {
				t.Errorf("round %d entry %+v", r, e)
			}
		}
	}
	for r := 1; r < len(sch.Rounds); r++ {
		if slices.Equal(names(sch.Rounds[r]), names(sch.Rounds[r-1])) {
			t.Errorf("rounds %d and %d have the same order", r-1, r)
		}
	}
	if sch.Len() != 6*(len(sch.Cells)+2) {
		t.Errorf("Len %d", sch.Len())
	}
	if sh := sch.Shapes(); len(sh) != 2 || sh[0].Brokers != 1 || sh[1].Brokers != 3 {
		t.Errorf("shapes %v", sh)
	}
}

func TestScheduleDeterministicBySeed(t *testing.T) {
	a, _ := NewSchedule(scheduleSpec(42))
	b, _ := NewSchedule(scheduleSpec(42))
	c, _ := NewSchedule(scheduleSpec(43))
	same, differ := true, false
	for r := range a.Rounds {
		same = same && slices.Equal(names(a.Rounds[r]), names(b.Rounds[r]))
		differ = differ || !slices.Equal(names(a.Rounds[r]), names(c.Rounds[r]))
	}
	if !same {
		t.Error("same seed, different schedule")
	}
	if !differ {
		t.Error("seeds 42 and 43 give the same schedule")
	}
}

func TestScheduleDefaultCalibrationIsFirstCell(t *testing.T) {
	s := scheduleSpec(1)
	s.Calibrate = nil
	sch, _ := NewSchedule(s)
	if sch.Calibration != sch.Cells[0] {
		t.Errorf("calibration %s, want first cell %s", sch.Calibration.Name(), sch.Cells[0].Name())
	}
}
