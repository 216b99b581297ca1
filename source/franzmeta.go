package source

import (
	"context"
	"errors"
	"fmt"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// franzBounds resolves start and stop offsets for the franz path with a
// ListOffsets request, the same watermarks the librdkafka paths query.
func franzBounds(ctx context.Context, cl *kgo.Client, cfg *Config) (start, stop []int64, err error) {
	// -2 and -1 are ListOffsets' earliest and latest.
	ctx, cancel := context.WithTimeout(ctx, cfg.Timeout)
	defer cancel()
	list := func(ts int64) ([]int64, error) {
		req := kmsg.NewPtrListOffsetsRequest()
		t := kmsg.NewListOffsetsRequestTopic()
		t.Topic = cfg.Topic
		for p := 0; p < cfg.Partitions; p++ {
			pp := kmsg.NewListOffsetsRequestTopicPartition()
			pp.Partition = int32(p)
			pp.Timestamp = ts
			t.Partitions = append(t.Partitions, pp)
		}
		req.Topics = append(req.Topics, t)
		shards := cl.RequestSharded(ctx, req)
		out := make([]int64, cfg.Partitions)
		seen := 0
		for _, sh := range shards {
			if errors.Is(sh.Err, kerr.UnknownTopicOrPartition) {
				return nil, fmt.Errorf("topic %q does not exist", cfg.Topic)
			}
			if sh.Err != nil {
				return nil, fmt.Errorf("franz: list offsets of %q: %w", cfg.Topic, sh.Err)
			}
			resp := sh.Resp.(*kmsg.ListOffsetsResponse)
			for _, rt := range resp.Topics {
				for _, rp := range rt.Partitions {
					if err := kerr.ErrorForCode(rp.ErrorCode); err != nil {
						if errors.Is(err, kerr.UnknownTopicOrPartition) {
							return nil, fmt.Errorf("topic %q does not exist", cfg.Topic)
						}
						return nil, fmt.Errorf("franz: list offsets %s/%d: %w", cfg.Topic, rp.Partition, err)
					}
					if int(rp.Partition) >= cfg.Partitions {
						return nil, fmt.Errorf("topic %q has more than %d partitions", cfg.Topic, cfg.Partitions)
					}
					out[rp.Partition] = rp.Offset
					seen++
				}
			}
		}
		if seen != cfg.Partitions {
			return nil, fmt.Errorf("topic %q: offsets for %d of %d partitions", cfg.Topic, seen, cfg.Partitions)
		}
		return out, nil
	}
	return bounds(cfg, func() (lo, hi []int64, err error) {
		if lo, err = list(-2); err != nil {
			return nil, nil, err
		}
		hi, err = list(-1)
		return lo, hi, err
	})
}

// kerrRetriable reports fetch errors franz-go retries by itself. The
// failures that must end a read are not among them: kerr marks
// authorization (topic, group, cluster), SASL authentication and
// OFFSET_OUT_OF_RANGE as not retriable.
func kerrRetriable(err error) bool {
	var ke *kerr.Error
	return errors.As(err, &ke) && ke.Retriable
}
