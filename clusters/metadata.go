package clusters

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
)

// BrokerCount returns the number of brokers in the cluster's metadata.
func BrokerCount(ctx context.Context, c Cluster) (int, error) {
	var n int
	err := c.withAdmin(ctx, func(ctx context.Context, adm *kadm.Client) error {
		m, err := adm.BrokerMetadata(ctx)
		if err != nil {
			return c.requestError("broker metadata", err)
		}
		n = len(m.Brokers)
		return nil
	})
	return n, err
}

// PartitionCount returns the number of partitions of topic; a missing topic
// is an error.
func PartitionCount(ctx context.Context, c Cluster, topic string) (int, error) {
	var n int
	err := c.withAdmin(ctx, func(ctx context.Context, adm *kadm.Client) error {
		td, exists, err := topicDetail(ctx, c, adm, topic)
		if err != nil {
			return err
		}
		if !exists {
			return fmt.Errorf("topic %q does not exist on %s", topic, strings.Join(c.seeds(), ","))
		}
		n = len(td.Partitions)
		return nil
	})
	return n, err
}

// topicDetail reads one topic's metadata; exists is false when the cluster
// does not know the topic.
func topicDetail(ctx context.Context, c Cluster, adm *kadm.Client, topic string) (kadm.TopicDetail, bool, error) {
	if topic == "" {
		return kadm.TopicDetail{}, false, errors.New("empty topic name")
	}
	// WithAuthorizedOps makes kadm ask the cluster instead of the client's
	// metadata cache, which may still hold the topic as unknown.
	m, err := adm.Metadata(kadm.WithAuthorizedOps(ctx), topic)
	if err != nil {
		return kadm.TopicDetail{}, false, c.requestError("metadata of topic "+topic, err)
	}
	td, ok := m.Topics[topic]
	switch {
	case !ok, errors.Is(td.Err, kerr.UnknownTopicOrPartition):
		return kadm.TopicDetail{}, false, nil
	case td.Err != nil:
		return kadm.TopicDetail{}, false, c.requestError("metadata of topic "+topic, td.Err)
	}
	return td, true, nil
}
