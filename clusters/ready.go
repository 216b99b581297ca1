package clusters

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"

	"github.com/fastpathlab/fplab/workloads"
)

// expectedCount is how many of n records land in partition p of partitions
// when record i goes to partition i % partitions.
func expectedCount(n, partitions, p int) int64 {
	c := n / partitions
	if p < n%partitions {
		c++
	}
	return int64(c)
}

// topicState is what the cluster holds for a topic.
type topicState struct {
	exists     bool
	partitions int
	starts     map[int32]int64
	ends       map[int32]int64
}

// records sums end minus start offsets.
func (s topicState) records() int64 {
	var n int64
	for p, e := range s.ends {
		n += e - s.starts[p]
	}
	return n
}

// holds reports whether the topic holds exactly the corpus of n records in
// the expected split, starting at offset 0.
func (s topicState) holds(partitions, n int) bool {
	return s.holdsEnds(partitions, nil, func(p int) int64 { return expectedCount(n, partitions, p) })
}

// holdsEnds reports whether the topic has partitions partitions, each
// starting at offset from[p] (0 for a nil from) and ending at end(p).
func (s topicState) holdsEnds(partitions int, from []int64, end func(p int) int64) bool {
	if !s.exists || s.partitions != partitions || len(s.ends) != partitions || (from != nil && len(from) != partitions) {
		return false
	}
	for p := 0; p < partitions; p++ {
		start := int64(0)
		if from != nil {
			start = from[p]
		}
		if s.starts[int32(p)] != start || s.ends[int32(p)] != end(p) {
			return false
		}
	}
	return true
}

// readTopicState reads a topic's partition count and offsets.
func readTopicState(ctx context.Context, c Cluster, adm *kadm.Client, topic string) (topicState, error) {
	td, exists, err := topicDetail(ctx, c, adm, topic)
	if err != nil || !exists {
		return topicState{}, err
	}
	s := topicState{exists: true, partitions: len(td.Partitions)}
	if s.starts, err = offsets(ctx, c, topic, adm.ListStartOffsets); err != nil {
		return topicState{}, err
	}
	if s.ends, err = offsets(ctx, c, topic, adm.ListEndOffsets); err != nil {
		return topicState{}, err
	}
	return s, nil
}

// offsets lists one kind of offset for every partition of topic. A
// partition whose leadership just moved (a broker killed and restarted)
// answers for a moment with a retriable error: OFFSET_NOT_AVAILABLE until
// the new leader's high watermark catches up, NOT_LEADER_OR_FOLLOWER or
// LEADER_NOT_AVAILABLE until metadata settles. Such a listing is asked
// again until it answers or ctx ends; any other error ends it at once.
func offsets(ctx context.Context, c Cluster, topic string,
	list func(context.Context, ...string) (kadm.ListedOffsets, error)) (map[int32]int64, error) {
	for {
		listed, err := list(ctx, topic)
		if err == nil {
			err = listed.Error()
		}
		if err == nil {
			out := make(map[int32]int64, len(listed[topic]))
			for p, o := range listed[topic] {
				out[p] = o.Offset
			}
			return out, nil
		}
		if !kerr.IsRetriable(err) {
			return nil, c.requestError("offsets of topic "+topic, err)
		}
		select {
		case <-ctx.Done():
			return nil, c.requestError("offsets of topic "+topic, fmt.Errorf("%w (still when %w)", err, ctx.Err()))
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// TopicReady reports whether topic already holds the corpus Load would
// write: exactly partitions partitions whose offsets start at 0 and whose
// end offsets sum to n in the i % partitions split. A missing topic is not
// ready (and not an error); callers skip Load when it is ready.
func TopicReady(ctx context.Context, c Cluster, topic string, partitions, n int) (bool, error) {
	if err := validateCorpus(topic, partitions, n); err != nil {
		return false, err
	}
	var ready bool
	err := c.withAdmin(ctx, func(ctx context.Context, adm *kadm.Client) error {
		s, err := readTopicState(ctx, c, adm, topic)
		ready = s.holds(partitions, n)
		return err
	})
	return ready, err
}

// TopicHolds is TopicReady for a corpus loaded WithLayout(l): it reports
// whether topic has exactly l.Partitions() partitions, each starting at
// offset 0 and ending at l.End(p) (its high watermark, control records
// included), and, when l has transactions, no transaction open on it (last
// stable offset = high watermark). A missing topic does not hold it (and is
// not an error). Like TopicReady it compares offsets, not records.
func TopicHolds(ctx context.Context, c Cluster, topic string, l *workloads.Layout) (bool, error) {
	return TopicHoldsFrom(ctx, c, topic, l, nil)
}

// TopicHoldsFrom is TopicHolds for a topic whose records below from[p]
// were deleted (DeleteRecords): its log starts must be exactly from.
func TopicHoldsFrom(ctx context.Context, c Cluster, topic string, l *workloads.Layout, from []int64) (bool, error) {
	if l == nil {
		return false, errors.New("nil layout")
	}
	if err := validateCorpus(topic, l.Partitions(), l.Count()); err != nil {
		return false, err
	}
	var holds bool
	err := c.withAdmin(ctx, func(ctx context.Context, adm *kadm.Client) error {
		s, err := readTopicState(ctx, c, adm, topic)
		if err != nil || !s.holdsEnds(l.Partitions(), from, l.End) {
			return err
		}
		if l.Txns() > 0 {
			stable, err := offsets(ctx, c, topic, adm.ListCommittedOffsets)
			if err != nil {
				return err
			}
			if msg, _ := layoutEndsDiffer(l, s.ends, stable); msg != "" {
				return nil
			}
		}
		holds = true
		return nil
	})
	return holds, err
}

// markerWait bounds how long a load with a layout waits for its high
// watermarks to reach the layout's ends. Apache Kafka's coordinator
// writes a transaction's markers after EndTxn has answered, so the last
// marker of a load may still be on its way when Load checks; kfake writes
// them before it answers.
const markerWait = 30 * time.Second

// awaitLayoutEnds waits until every partition p of topic has high
// watermark l.End(p) and, with transactions, the same last stable offset.
// A high watermark past the layout's end fails at once: the topic holds
// more than the layout.
func awaitLayoutEnds(ctx context.Context, c Cluster, adm *kadm.Client, topic string, l *workloads.Layout) error {
	wctx, cancel := context.WithTimeout(ctx, markerWait)
	defer cancel()
	for {
		var (
			msg    string
			stable map[int32]int64
		)
		ends, err := offsets(wctx, c, topic, adm.ListEndOffsets)
		if err == nil && l.Txns() > 0 {
			stable, err = offsets(wctx, c, topic, adm.ListCommittedOffsets)
		}
		if err == nil {
			var over bool
			if msg, over = layoutEndsDiffer(l, ends, stable); msg == "" {
				return nil
			} else if over {
				return fmt.Errorf("topic %s after the load: %s", topic, msg)
			}
		}
		select {
		case <-wctx.Done():
			if ctx.Err() != nil {
				return fmt.Errorf("topic %s: wait for the layout's end offsets: %w", topic, ctx.Err())
			}
			if err != nil {
				return err
			}
			return fmt.Errorf("topic %s after the load: %s (waited %v)", topic, msg, markerWait)
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// layoutEndsDiffer describes the first partition whose high watermark
// (ends) or, when stable is non-nil, last stable offset differs from
// l.End(p), or returns "" when none does. over says that a high watermark
// is past the layout's end.
func layoutEndsDiffer(l *workloads.Layout, ends, stable map[int32]int64) (msg string, over bool) {
	for p := range l.Partitions() {
		want := l.End(p)
		end, ok := ends[int32(p)]
		switch {
		case !ok:
			return fmt.Sprintf("partition %d has no high watermark, want %d", p, want), false
		case end != want:
			return fmt.Sprintf("partition %d has high watermark %d, want %d (%d records, %d control records)",
				p, end, want, l.Records(p), want-int64(l.Records(p))), end > want
		case stable != nil && stable[int32(p)] != want:
			return fmt.Sprintf("partition %d has last stable offset %d, want %d: a transaction is still open",
				p, stable[int32(p)], want), false
		}
	}
	return "", false
}

// validateCorpus checks the arguments shared by Load and TopicReady.
func validateCorpus(topic string, partitions, n int) error {
	if topic == "" {
		return fmt.Errorf("empty topic name")
	}
	if n < 0 {
		return fmt.Errorf("record count must be >= 0, got %d", n)
	}
	return validate(bounded{partitionsLimit, partitions})
}
