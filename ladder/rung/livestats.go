package rung

import (
	"bufio"
	"fmt"
	"io"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"

	"github.com/fastpathlab/fplab/clusters"
	"github.com/fastpathlab/fplab/results"
)

// lagBucket is the width of a lag series' samples: the most a live read
// fell behind within each bucket is kept.
const lagBucket = 100 * time.Millisecond

// liveRecorder measures a live read as its batches are handed over: each
// row's end-to-end latency, from its record's intended send time to the
// hand-over of the batch that holds it, and the lag, how many records the
// producer's schedule had written that were not handed over yet.
//
// Both are measured against the schedule, not against when the producer
// actually sent (coordinated omission, as wrk2 and HdrHistogram describe
// it): a producer that stalls cannot hide the latency its stall causes,
// because the records it should have sent meanwhile keep their intended
// times. Records of the warm-up (index below warm) are in the lag series
// but not in the histogram or the maxima.
type liveRecorder struct {
	sched      clusters.Paced // T0 and Rate: the intended send times
	n          int            // records the producer writes
	warm       int            // of which the warm-up's
	partitions int
	window     time.Time // the measured window's start: T0 + warm-up

	hist     *hdrhistogram.Histogram
	handed   int64 // rows handed over so far
	batches  int64
	measured int64     // measured rows handed over
	last     time.Time // the last measured row's hand-over
	lagMax   int64     // in the measured window
	lag      []int64   // by lagBucket since T0: the most behind, -1 none
}

func newLiveRecorder(t0 time.Time, rate, n, warm, partitions int, warmup time.Duration) *liveRecorder {
	return &liveRecorder{
		sched: clusters.Paced{T0: t0, Rate: float64(rate)}, n: n, warm: warm,
		partitions: partitions, window: t0.Add(warmup), hist: results.NewLatencyHistogram(),
	}
}

// due is how many records the schedule has the producer write by now.
func (l *liveRecorder) due(now time.Time) int64 {
	if now.Before(l.sched.T0) {
		return 0
	}
	k := int64(now.Sub(l.sched.T0).Seconds()*l.sched.Rate) + 1
	return min(k, int64(l.n))
}

// batch takes a batch handed over at now, whose rows are at parts and
// offs of a fresh topic the producer wrote round-robin (partition p,
// offset o holds record o*partitions+p). It reads the positions only, so
// it runs before the batch is checked and released.
func (l *liveRecorder) batch(now time.Time, parts []int32, offs []int64) {
	l.handOver(now)
	for k, p := range parts {
		if int(p) >= l.partitions {
			continue // a partition added mid-read (discoverer): not the producer's
		}
		l.row(now, offs[k], p)
		l.handed++
	}
	l.batches++
}

// ranges takes one hand-over at now of whole offset ranges, as a reader
// outside this process reports them (LiveRange: a JVM reference's poll,
// or a Flink source's run of one partition): the same measurement as
// batch for a batch holding those rows.
func (l *liveRecorder) ranges(now time.Time, rs []LiveRange) {
	l.handOver(now)
	for _, r := range rs {
		for o := r.First; o <= r.Last; o++ {
			l.row(now, o, r.Partition)
		}
		l.handed += r.Last - r.First + 1
	}
	l.batches++
}

// handOver measures the lag just before a hand-over at now, where it
// peaks: the records the schedule has written that are not handed over.
func (l *liveRecorder) handOver(now time.Time) {
	lag := max(0, l.due(now)-l.handed)
	if b := int(now.Sub(l.sched.T0) / lagBucket); now.After(l.sched.T0) {
		for len(l.lag) <= b {
			l.lag = append(l.lag, -1)
		}
		l.lag[b] = max(l.lag[b], lag)
	}
	if !now.Before(l.window) {
		l.lagMax = max(l.lagMax, lag)
	}
}

// row measures the row at partition p, offset off, handed over at now.
func (l *liveRecorder) row(now time.Time, off int64, p int32) {
	i := int(off)*l.partitions + int(p)
	if i < l.warm {
		return
	}
	results.RecordLatency(l.hist, now.Sub(l.sched.Intended(i)))
	l.measured++
	l.last = now
}

// lagMs is a lag in records as the time the producer takes to write that
// many at its rate.
func (l *liveRecorder) lagMs(rec int64) float64 { return float64(rec) / l.sched.Rate * 1e3 }

// writeLag writes the lag series as CSV: each bucket's start since T0 in
// ms, the most records behind in it and that as ms at the rate; buckets
// without a hand-over are left out.
func (l *liveRecorder) writeLag(w io.Writer) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintln(bw, "t_ms,lag_rec,lag_ms")
	for b, lag := range l.lag {
		if lag >= 0 {
			fmt.Fprintf(bw, "%d,%d,%.3f\n", int64(b)*lagBucket.Milliseconds(), lag, l.lagMs(lag))
		}
	}
	return bw.Flush()
}

// metrics are the live figures: the latency percentiles of the measured
// rows, the most the read fell behind, the consume rate over the measured
// window and the rows per batch the linger rule handed over.
func (l *liveRecorder) metrics() []results.Metric {
	win := l.last.Sub(l.window)
	return []results.Metric{
		{Value: float64(l.measured) / win.Seconds(), Unit: results.UnitRecPerSec},
		{Value: results.LatencyMs(l.hist, 50), Unit: results.UnitE2EP50Ms},
		{Value: results.LatencyMs(l.hist, 90), Unit: results.UnitE2EP90Ms},
		{Value: results.LatencyMs(l.hist, 99), Unit: results.UnitE2EP99Ms},
		{Value: results.LatencyMs(l.hist, 99.9), Unit: results.UnitE2EP999Ms},
		{Value: results.LatencyMs(l.hist, 100), Unit: results.UnitE2EMaxMs},
		{Value: float64(l.lagMax), Unit: results.UnitLagMaxRec},
		{Value: l.lagMs(l.lagMax), Unit: results.UnitLagMaxMs},
		{Value: float64(l.handed) / float64(max(1, l.batches)), Unit: results.UnitRecPerBatch},
		{Value: ms(win), Unit: results.UnitWindowMs},
	}
}

// complete fails a read whose measured rows are not the measured window's
// records, or whose window is empty.
func (l *liveRecorder) complete() error {
	if want := int64(l.n - l.warm); l.measured != want {
		return fmt.Errorf("live: %d rows of the measured window handed over, the producer wrote %d", l.measured, want)
	}
	if !l.last.After(l.window) {
		return fmt.Errorf("live: the measured window is empty (its last row was handed over at or before its start)")
	}
	return nil
}
