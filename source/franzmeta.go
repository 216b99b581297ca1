package source

import (
	"context"
	"errors"
	"fmt"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// franzBounds resolves start and stop offsets for the franz path with
// ListOffsets requests, the same watermarks the librdkafka paths query,
// and what cfg's start mode needs besides (start_fetch.go).
func franzBounds(ctx context.Context, cl *kgo.Client, cfg *Config) (start, stop []int64, err error) {
	ctx, cancel := context.WithTimeout(ctx, cfg.Timeout)
	defer cancel()
	m := &franzMeta{ctx: ctx, cl: cl, cfg: cfg}
	// -2 and -1 are ListOffsets' earliest and latest.
	return bounds(cfg, func() (lo, hi []int64, err error) {
		if lo, err = m.list(-2); err != nil {
			return nil, nil, err
		}
		hi, err = m.list(-1)
		return lo, hi, err
	}, m)
}

// franzMeta asks the cluster about cfg's topic for the franz path, within
// ctx (the open's Timeout).
type franzMeta struct {
	ctx context.Context
	cl  *kgo.Client
	cfg *Config
}

// list is every partition's answer to ListOffsets with timestamp ts: -2
// the log start, -1 the high watermark, a time in milliseconds the first
// offset whose timestamp is at or after it (-1 where no record is).
func (m *franzMeta) list(ts int64) ([]int64, error) {
	cfg := m.cfg
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
	shards := m.cl.RequestSharded(m.ctx, req)
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

// kerrRetriable reports fetch errors franz-go retries by itself. The
// failures that must end a read are not among them: kerr marks
// authorization (topic, group, cluster), SASL authentication and
// OFFSET_OUT_OF_RANGE as not retriable.
func kerrRetriable(err error) bool {
	var ke *kerr.Error
	return errors.As(err, &ke) && ke.Retriable
}
