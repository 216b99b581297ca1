package clusters

import (
	"context"
	"fmt"

	"github.com/twmb/franz-go/pkg/kadm"
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
	if !s.exists || s.partitions != partitions || len(s.ends) != partitions {
		return false
	}
	for p := 0; p < partitions; p++ {
		if s.starts[int32(p)] != 0 || s.ends[int32(p)] != expectedCount(n, partitions, p) {
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

// offsets lists one kind of offset for every partition of topic.
func offsets(ctx context.Context, c Cluster, topic string,
	list func(context.Context, ...string) (kadm.ListedOffsets, error)) (map[int32]int64, error) {
	listed, err := list(ctx, topic)
	if err != nil {
		return nil, c.requestError("offsets of topic "+topic, err)
	}
	if err := listed.Error(); err != nil {
		return nil, c.requestError("offsets of topic "+topic, err)
	}
	out := make(map[int32]int64, len(listed[topic]))
	for p, o := range listed[topic] {
		out[p] = o.Offset
	}
	return out, nil
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

// validateCorpus checks the arguments shared by Load and TopicReady.
func validateCorpus(topic string, partitions, n int) error {
	if topic == "" {
		return fmt.Errorf("clusters: empty topic name")
	}
	if n < 0 {
		return fmt.Errorf("clusters: record count must be >= 0, got %d", n)
	}
	return validate(bounded{partitionsLimit, partitions})
}
