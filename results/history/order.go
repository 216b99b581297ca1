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
	key := func(r Run) time.Time {
		if !r.CommitTime.IsZero() {
			return r.CommitTime
		}
		return r.Started
	}
	sort.SliceStable(ps, func(i, j int) bool {
		a, b := ps[i].Run, ps[j].Run
		if ka, kb := key(a), key(b); !ka.Equal(kb) {
			return ka.Before(kb)
		}
		return a.Started.Before(b.Started)
	})
}
