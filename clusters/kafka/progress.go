package kafka

import (
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"
)

// A start on a loaded host is slow, not stuck: under four busy loops on two
// cores a KRaft controller logged "Exceptionally slow controller event ...
// took 3160 ms" and three brokers were not all listed within a fixed 90 s.
// So readiness waits on progress: while a node's log grows or metadata
// lists more brokers, the start goes on (up to Options.StartTimeout, the
// outer bound); after Options.StallTimeout with neither, it fails on one
// line naming the nodes not listed and the telling line of each one's log.

// startProgress tracks the last time a start made progress.
type startProgress struct {
	stall time.Duration
	last  time.Time
	seen  progressMark
}

// progressMark is what counts as progress: more log output from any node,
// or more brokers listed.
type progressMark struct {
	logBytes int64
	listed   int
}

func newStartProgress(now time.Time, stall time.Duration) *startProgress {
	return &startProgress{stall: stall, last: now, seen: progressMark{logBytes: -1, listed: -1}}
}

// observe records m at now and reports whether the start has gone stall
// without progress.
func (p *startProgress) observe(now time.Time, m progressMark) bool {
	if m.logBytes > p.seen.logBytes || m.listed > p.seen.listed {
		p.seen, p.last = progressMark{max(m.logBytes, p.seen.logBytes), max(m.listed, p.seen.listed)}, now
		return false
	}
	return now.Sub(p.last) >= p.stall
}

// logBytes is the total size of the nodes' logs.
func (c *Cluster) logBytes() int64 {
	var n int64
	for _, nd := range c.nodes {
		if st, err := os.Stat(nd.logPath); err == nil {
			n += st.Size()
		}
	}
	return n
}

// stuckNodes names the nodes metadata does not list (all of them when
// nothing answered), each with the telling line of its log.
func (c *Cluster) stuckNodes(listed []int32) string {
	var parts []string
	for _, n := range c.nodes {
		if !slices.Contains(listed, int32(n.id)) {
			parts = append(parts, "node "+strconv.Itoa(n.id)+": "+logProblem(n.logPath))
		}
	}
	if len(parts) == 0 {
		return "every node listed"
	}
	return strings.Join(parts, "; ")
}

func stalledError(what string, stall time.Duration, last, stuck string) error {
	return fmt.Errorf("%s: no progress for %v (no node's log grew, no more brokers listed; last answer: %s); %s", what, stall, last, stuck)
}
