package source

import (
	"errors"
	"fmt"
	"time"

	"github.com/confluentinc/confluent-kafka-go/v2/kafka"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// The paths' startFetchers: what resolveStart asks the cluster for a start
// mode, the offsets by timestamp or a group's committed offsets, each
// answered for every partition of the topic or failing with one line
// naming the operation.

// rdkStart is the librdkafka paths' startFetcher: the consumer's own
// queries, each bounded by ms. The consumer's group.id is Config.Group
// when set, so Committed asks the group StartCommitted names.
type rdkStart struct {
	c     *kafka.Consumer
	topic string
	parts int
	ms    int
}

func (f rdkStart) forTime(ms int64) ([]int64, error) {
	op := fmt.Sprintf("offsets for time %s", time.UnixMilli(ms).UTC().Format(time.RFC3339Nano))
	// a query's Offset is the timestamp; an answer's Offset is -1
	// (OffsetEnd) where no record is at or after it
	res, err := f.c.OffsetsForTimes(f.query(kafka.Offset(ms)), f.ms)
	if err != nil {
		return nil, fmt.Errorf("%s of %q: librdkafka: %w", op, f.topic, err)
	}
	return f.answers(op, res)
}

func (f rdkStart) committed(group string) ([]int64, error) {
	op := fmt.Sprintf("committed offsets of group %q", group)
	// an answer's Offset is OffsetInvalid where the group has none
	res, err := f.c.Committed(f.query(kafka.OffsetInvalid), f.ms)
	if err != nil {
		if groupUnknown(err) {
			return f.none(), nil
		}
		if why := f.queuedError(); why != nil {
			return nil, fmt.Errorf("%s on %q: librdkafka: %w (%v)", op, f.topic, why, err)
		}
		return nil, fmt.Errorf("%s on %q: librdkafka: %w", op, f.topic, err)
	}
	return f.answers(op, res)
}

// queuedError is the first error other than a transient one the client
// queued while a query waited: Committed waits out its timeout when the
// broker refuses the group's coordinator lookup (a user without rights on
// the group) and says only "Timed out", while the refusal itself arrives
// as an error event on the consumer's queue. Nothing is assigned yet, so
// the queue holds events only; at most 64 are looked at.
func (f rdkStart) queuedError() error {
	for range 64 {
		switch e := f.c.Poll(0).(type) {
		case nil:
			return nil
		case kafka.Error:
			if !transient(e.Code()) {
				return e
			}
		}
	}
	return nil
}

// query is every partition of the topic at offset off.
func (f rdkStart) query(off kafka.Offset) []kafka.TopicPartition {
	tps := make([]kafka.TopicPartition, f.parts)
	for p := range tps {
		tps[p] = kafka.TopicPartition{Topic: &f.topic, Partition: int32(p), Offset: off}
	}
	return tps
}

// none is every partition without an offset.
func (f rdkStart) none() []int64 {
	out := make([]int64, f.parts)
	for p := range out {
		out[p] = noOffset
	}
	return out
}

// answers is the offsets of res by partition, noOffset for a negative
// one; a partition's error or a partition missing fails op.
func (f rdkStart) answers(op string, res []kafka.TopicPartition) ([]int64, error) {
	out := f.none()
	seen := make([]bool, f.parts)
	for _, tp := range res {
		p := int(tp.Partition)
		if p < 0 || p >= f.parts {
			return nil, fmt.Errorf("%s: librdkafka answered for partition %d of %q, which has %d", op, p, f.topic, f.parts)
		}
		if tp.Error != nil {
			return nil, fmt.Errorf("%s at %s/%d: librdkafka: %w", op, f.topic, p, tp.Error)
		}
		if tp.Offset >= 0 {
			out[p] = int64(tp.Offset)
		}
		seen[p] = true
	}
	for p, ok := range seen {
		if !ok {
			return nil, fmt.Errorf("%s: librdkafka did not answer for %s/%d", op, f.topic, p)
		}
	}
	return out, nil
}

// forTime is the franz path's offsets by timestamp: ListOffsets with the
// timestamp, -1 where no record is at or after it.
func (m *franzMeta) forTime(ms int64) ([]int64, error) { return m.list(ms) }

// committed is the franz path's committed offsets: an OffsetFetch request
// to the group's coordinator (franz-go finds it), -1 where the group has
// none.
func (m *franzMeta) committed(group string) ([]int64, error) {
	cfg := m.cfg
	req := kmsg.NewPtrOffsetFetchRequest()
	req.Group = group
	t := kmsg.NewOffsetFetchRequestTopic()
	t.Topic = cfg.Topic
	for p := range cfg.Partitions {
		t.Partitions = append(t.Partitions, int32(p))
	}
	req.Topics = append(req.Topics, t)
	out := make([]int64, cfg.Partitions)
	for p := range out {
		out[p] = noOffset
	}
	resp, err := req.RequestWith(m.ctx, m.cl)
	if err == nil {
		err = kerr.ErrorForCode(resp.ErrorCode)
	}
	if groupUnknown(err) {
		return out, nil
	}
	if err != nil {
		return nil, fmt.Errorf("franz: committed offsets of group %q on %q: %w", group, cfg.Topic, err)
	}
	seen := 0
	for _, rt := range resp.Topics {
		if rt.Topic != cfg.Topic {
			continue
		}
		for _, rp := range rt.Partitions {
			p := int(rp.Partition)
			if p < 0 || p >= cfg.Partitions {
				return nil, fmt.Errorf("franz: committed offsets of group %q: answer for partition %d of %q, which has %d", group, p, cfg.Topic, cfg.Partitions)
			}
			if err := kerr.ErrorForCode(rp.ErrorCode); err != nil {
				return nil, fmt.Errorf("franz: committed offsets of group %q at %s/%d: %w", group, cfg.Topic, p, err)
			}
			if rp.Offset >= 0 {
				out[p] = rp.Offset
			}
			seen++
		}
	}
	if seen != cfg.Partitions {
		return nil, fmt.Errorf("franz: committed offsets of group %q: answers for %d of %d partitions of %q", group, seen, cfg.Partitions, cfg.Topic)
	}
	return out, nil
}

// groupUnknown reports the answer for a group its coordinator does not
// know, which has committed nothing. Kafka answers an OffsetFetch for it
// with offset -1 on every partition and no error; kfake, the lab's
// embedded cluster, answers GROUP_ID_NOT_FOUND instead. Both fetchers take
// that answer as no committed offset anywhere, so Reset decides, as it
// would on Kafka.
func groupUnknown(err error) bool {
	var ke kafka.Error
	return errors.Is(err, kerr.GroupIDNotFound) || errors.As(err, &ke) && ke.Code() == kafka.ErrGroupIDNotFound
}
