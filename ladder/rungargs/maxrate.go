package rungargs

import (
	"math"
	"time"
)

// A maxrate cell's search (ladder/rung's maxrate.go runs it; the ladder
// bounds its time before it starts): live trials at rising rates, doubling
// from MaxRateFrom until a trial fails or MaxRateTo passes, then bisecting
// between the highest rate that passed and the lowest that failed until
// they are within MaxRateResolution of each other.
const (
	// MaxRateResolution is the search's resolution: it ends once the
	// lowest failed rate is within 5% of the highest passed one, so the
	// rate it reports is at most 5% below the true limit it brackets.
	MaxRateResolution = 0.05
	// TrialSlack is how long after its producer's last intended send time
	// a trial's reader may take to hand over the last record, at least:
	// a reader that needs more is not keeping up (the rate failed by lag).
	TrialSlack = 2 * time.Second
)

// MaxRateTrials is the most trials a search over [from, to] runs: the
// doublings from from to to, the trial at to, and the bisections from a
// factor of 2 down to MaxRateResolution.
func MaxRateTrials(from, to int) int {
	if from < 1 || to <= from {
		return 1
	}
	doublings := int(math.Ceil(math.Log2(float64(to) / float64(from))))
	bisections := int(math.Ceil(math.Log2(1 / MaxRateResolution)))
	return doublings + 1 + bisections
}

// TrialReadBy is how long after T0 a trial of warmup + duration may take
// to hand over its last record: the producer's span plus TrialSlack or
// the duration, whichever is longer.
func TrialReadBy(warmup, duration time.Duration) time.Duration {
	return warmup + duration + max(TrialSlack, duration)
}
