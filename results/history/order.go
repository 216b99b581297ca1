package history

import (
	"sort"
	"time"
)

// sortCommitOrder orders points by their commit's time where it is known,
// else by when the run started, and runs at one such time by start: a host
// that ran an older commit after a newer one still gets a series in the
// order the code was written.
func sortCommitOrder(ps []Point) {
	sort.SliceStable(ps, func(i, j int) bool { return ps[i].Run.Before(ps[j].Run) })
}

// Order is where r sits in commit order: its commit's time where known,
// else its start.
func (r Run) Order() time.Time {
	if !r.CommitTime.IsZero() {
		return r.CommitTime
	}
	return r.Started
}

// Before reports whether r comes before o in commit order (by Order, then
// by start).
func (r Run) Before(o Run) bool {
	if a, b := r.Order(), o.Order(); !a.Equal(b) {
		return a.Before(b)
	}
	return r.Started.Before(o.Started)
}

// ShortCommit is a commit as the listings print it: its first 12 digits.
func ShortCommit(c string) string {
	if len(c) > 12 {
		return c[:12]
	}
	return c
}
