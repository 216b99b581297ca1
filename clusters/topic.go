package clusters

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
)

// topicVisibleTimeout bounds the wait for a new topic to show in metadata.
const topicVisibleTimeout = 15 * time.Second

// ensureTopic creates topic with the given partitions, or accepts an
// existing one that has exactly those partitions and no records.
func ensureTopic(ctx context.Context, c Cluster, cl *kgo.Client, topic string, partitions int, rf int16) error {
	adm := kadm.NewClient(cl)
	resp, err := adm.CreateTopic(ctx, int32(partitions), rf, nil, topic)
	switch {
	case err == nil:
		return waitTopicVisible(ctx, c, adm, topic, partitions)
	case errors.Is(err, kerr.TopicAlreadyExists):
		s, err := readTopicState(ctx, c, adm, topic)
		if err != nil {
			return err
		}
		if s.partitions != partitions || s.records() != 0 {
			return fmt.Errorf("topic %s already exists with %d partitions and %d records, want %d empty partitions; delete it or pick another topic",
				topic, s.partitions, s.records(), partitions)
		}
		return nil
	default:
		msg := err.Error()
		if resp.ErrMessage != "" {
			msg += " (" + resp.ErrMessage + ")"
		}
		return c.requestError("create topic "+topic, errors.New(msg))
	}
}

// waitTopicVisible polls until topic shows all its partitions in
// metadata, each with a leader, and every leader answers for its
// partition: on a multi-broker Kafka the broker that answers metadata can
// name a leader before that leader has taken the partition over, and a
// client that asks it at once (a reader's watermarks, a list of offsets)
// is told "not leader for partition".
func waitTopicVisible(ctx context.Context, c Cluster, adm *kadm.Client, topic string, partitions int) error {
	ctx, cancel := context.WithTimeout(ctx, topicVisibleTimeout)
	defer cancel()
	for {
		td, exists, err := topicDetail(ctx, c, adm, topic)
		if err == nil && exists && len(td.Partitions) == partitions && allLed(td.Partitions) && leadersAnswer(ctx, adm, topic) {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("topic %s created but not visible with %d partitions, each with a leader, within %v", topic, partitions, topicVisibleTimeout)
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// leadersAnswer reports whether each partition's leader lists its end
// offset without an error.
func leadersAnswer(ctx context.Context, adm *kadm.Client, topic string) bool {
	ends, err := adm.ListEndOffsets(ctx, topic)
	if err != nil || ends.Error() != nil {
		return false
	}
	n := 0
	ends.Each(func(kadm.ListedOffset) { n++ })
	return n > 0
}

// allLed reports whether every partition has a leader and no error.
func allLed(ps kadm.PartitionDetails) bool {
	for _, p := range ps {
		if p.Leader < 0 || p.Err != nil {
			return false
		}
	}
	return true
}
