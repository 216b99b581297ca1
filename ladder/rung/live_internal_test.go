package rung

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/fastpathlab/fplab/cell"
	"github.com/fastpathlab/fplab/ladder/rungargs"
	"github.com/fastpathlab/fplab/results"
	"github.com/fastpathlab/fplab/workloads"
)

// A live read's offsets must follow each other from 0 in every partition:
// a gap names the first missing offset, a repeat the duplicate.
func TestLiveNextNamesMissingAndDuplicate(t *testing.T) {
	l, err := workloads.NewLayout(1, 12, 3, workloads.Shape{})
	if err != nil {
		t.Fatal(err)
	}
	c, f, _ := testHashes(t, 12)
	v := newVerifier(4, l, newWindows(f, c, l))
	v.live = true
	step := func(p int32, off int64) error {
		err := v.liveNext(p, off)
		if err == nil {
			v.last[p] = off
		}
		return err
	}
	for _, pos := range [][2]int64{{0, 0}, {1, 0}, {0, 1}, {2, 0}} {
		if err := step(int32(pos[0]), pos[1]); err != nil {
			t.Fatalf("in-order %v: %v", pos, err)
		}
	}
	if err := step(0, 3); err == nil || !strings.Contains(err.Error(), "offset 2 was never delivered (missing)") {
		t.Errorf("gap: %v", err)
	}
	if err := step(1, 0); err == nil || !strings.Contains(err.Error(), "partition 1 offset 0 delivered again") {
		t.Errorf("repeat: %v", err)
	}
	if err := step(7, 0); err == nil || !strings.Contains(err.Error(), "not one of the topic's 3") {
		t.Errorf("unknown partition: %v", err)
	}
}

// The recorder measures latency from each record's intended send time and
// lag against the schedule, with an injected clock: 1,000 rec/s from t0,
// 10 records, the first 4 the warm-up's.
func TestLiveRecorderAgainstTheSchedule(t *testing.T) {
	t0 := time.Unix(1_700_000_000, 0)
	l := newLiveRecorder(t0, 1000, 10, 4, 2, 4*time.Millisecond)
	// records 0..5 (partition 0 offsets 0..2, partition 1 offsets 0..2),
	// handed over at t0+20ms: record i was due at t0+i ms, so latencies
	// are 20-i ms; 10 records were due by then (the whole run), 0 handed
	l.batch(t0.Add(20*time.Millisecond), []int32{0, 1, 0, 1, 0, 1}, []int64{0, 0, 1, 1, 2, 2})
	// records 6..9 at t0+30ms: latencies 24..21 ms; 6 were handed before
	l.batch(t0.Add(30*time.Millisecond), []int32{0, 1, 0, 1}, []int64{3, 3, 4, 4})
	if err := l.complete(); err != nil {
		t.Fatal(err)
	}
	// measured: records 4..9 with latencies 16, 15, 24, 23, 22, 21 ms
	if got := l.hist.TotalCount(); got != 6 {
		t.Fatalf("histogram holds %d, want the 6 measured records", got)
	}
	if got := results.LatencyMs(l.hist, 100); got < 23.9 || got > 24.1 {
		t.Errorf("max %v ms, want 24", got)
	}
	if got := results.LatencyMs(l.hist, 0); got < 14.9 || got > 15.1 {
		t.Errorf("min %v ms, want 15", got)
	}
	// lag before the first hand-over: 10 due, 0 handed; before the second,
	// 10 due, 6 handed: both in the window (from t0+4ms)
	if l.lagMax != 10 || l.lagMs(l.lagMax) != 10 {
		t.Errorf("lag max %d (%v ms), want 10 (10 ms)", l.lagMax, l.lagMs(l.lagMax))
	}
	var sb strings.Builder
	if err := l.writeLag(&sb); err != nil {
		t.Fatal(err)
	}
	if want := "t_ms,lag_rec,lag_ms\n0,10,10.000\n"; sb.String() != want {
		t.Errorf("lag series %q, want %q", sb.String(), want)
	}
	short := newLiveRecorder(t0, 1000, 10, 4, 2, 4*time.Millisecond)
	short.batch(t0.Add(20*time.Millisecond), []int32{0, 1}, []int64{2, 2})
	if err := short.complete(); err == nil || !strings.Contains(err.Error(), "2 rows of the measured window handed over, the producer wrote 6") {
		t.Errorf("short read: %v", err)
	}
}

// A producer below 95% of its rate fails the cell, naming the rate it
// achieved; one that wrote another count fails too.
func TestCheckProducer(t *testing.T) {
	c := &rungargs.Cell{Cell: cell.Cell{Rate: 10_000}, Records: 30_000}
	if err := checkProducer(c, producerReport{Records: 30_000, Achieved: 9_600}); err != nil {
		t.Errorf("96%%: %v", err)
	}
	err := checkProducer(c, producerReport{Records: 30_000, Achieved: 9_400, MaxBehind: int64(300 * time.Millisecond)})
	if !errors.Is(err, errBehind) || !strings.Contains(err.Error(), "9400 rec/s achieved, below 95% of rate=10000 (it fell up to 300ms behind") {
		t.Errorf("94%%: %v", err)
	}
	if err := checkProducer(c, producerReport{Records: 29_999, Achieved: 10_000}); err == nil || !strings.Contains(err.Error(), "reports 29999 records") {
		t.Errorf("count: %v", err)
	}
}

// The search doubles to the first failure, then bisects to 5%: with every
// rate up to 123,456 sustained, it reports a rate within 5% below that,
// never one above, in at most rungargs.MaxRateTrials trials.
func TestMaxRateSearch(t *testing.T) {
	const limit = 123_456
	for _, tc := range []struct {
		from, to  int
		wantLimit string
	}{
		{10_000, 2_000_000, "lag at "},
		{10_000, 100_000, "the search's upper bound"},
		{7_000, 150_000, "lag at "},
	} {
		c := &rungargs.Cell{MaxRateFrom: tc.from, MaxRateTo: tc.to}
		s := search{c: c, trial: func(rate int) (trialOutcome, error) {
			if rate <= limit {
				return trialOutcome{rate: rate, tr: &liveTrial{}}, nil
			}
			return trialOutcome{rate: rate, failed: "lag"}, nil
		}}
		best, why, err := s.run(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		want := min(limit, tc.to)
		if best.rate > want || float64(best.rate) < (1-rungargs.MaxRateResolution)*float64(want) {
			t.Errorf("%d..%d: best %d, want within 5%% below %d (tried %v)", tc.from, tc.to, best.rate, want, s.tried)
		}
		if !strings.HasPrefix(why, tc.wantLimit) || len(s.tried) > rungargs.MaxRateTrials(tc.from, tc.to) {
			t.Errorf("%d..%d: limit %q after %d trials %v (at most %d)", tc.from, tc.to, why, len(s.tried), s.tried, rungargs.MaxRateTrials(tc.from, tc.to))
		}
	}
	// the lowest rate failing is the cell's error, naming why
	s := search{c: &rungargs.Cell{MaxRateFrom: 200_000, MaxRateTo: 400_000}, trial: func(rate int) (trialOutcome, error) {
		return trialOutcome{rate: rate, failed: "producer"}, nil
	}}
	if _, _, err := s.run(context.Background()); err == nil || !strings.Contains(err.Error(), "lowest rate, 200000 rec/s, is not sustained (producer)") {
		t.Errorf("lowest rate failing: %v", err)
	}
}

// TestProducerStopAfterWait: once wait has seen the producer end, stop
// finds it ended at once (a trial stops its producer on every return; it
// once waited out stop's 10 s bound after every successful read).
func TestProducerStopAfterWait(t *testing.T) {
	p, err := startProc(context.Background(), []string{"sh", "-c", `echo '{"records":1}'`}, nil)
	if err != nil {
		t.Fatal(err)
	}
	r, err := p.wait(context.Background())
	if err != nil || r.Records != 1 {
		t.Fatalf("wait = %+v, %v", r, err)
	}
	for i := range 2 {
		if !p.stop() {
			t.Errorf("stop %d after wait did not see the ended process", i+1)
		}
	}
}
