package clusters

import (
	"context"
	"fmt"

	"github.com/twmb/franz-go/pkg/kadm"
)

// AddPartitions grows topic to total partitions (Kafka's CreatePartitions)
// and waits until metadata shows every one of them with a leader, as a
// team adds partitions to a topic its consumers are reading. A total at or
// below the topic's count is an error. ctx bounds the call (30 s when it
// has no deadline).
func AddPartitions(ctx context.Context, c Cluster, topic string, total int) error {
	if err := validateCorpus(topic, total, 0); err != nil {
		return err
	}
	return c.withAdmin(ctx, func(ctx context.Context, adm *kadm.Client) error {
		resp, err := adm.UpdatePartitions(ctx, total, topic)
		if err == nil {
			var r kadm.CreatePartitionsResponse
			if r, err = resp.On(topic, nil); err == nil {
				err = r.Err
				if err != nil && r.ErrMessage != "" {
					err = fmt.Errorf("%w (%s)", err, r.ErrMessage)
				}
			}
		}
		if err != nil {
			return c.requestError(fmt.Sprintf("grow topic %s to %d partitions", topic, total), err)
		}
		return waitTopicVisible(ctx, c, adm, topic, total)
	})
}
