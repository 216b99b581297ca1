package clusters

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
)

// LogStart returns the log start offset of each of topic's partitions, the
// offset below which DeleteRecords (or retention) removed every record. The
// topic must exist with exactly partitions partitions. ctx bounds the read
// (30 s when it has no deadline).
func LogStart(ctx context.Context, c Cluster, topic string, partitions int) ([]int64, error) {
	if err := validateCorpus(topic, partitions, 0); err != nil {
		return nil, err
	}
	var out []int64
	err := c.withAdmin(ctx, func(ctx context.Context, adm *kadm.Client) error {
		s, err := readTopicState(ctx, c, adm, topic)
		if err != nil {
			return err
		}
		if err := s.shaped(topic, partitions); err != nil {
			return err
		}
		out = s.startSlice(partitions)
		return nil
	})
	return out, err
}

// DeleteRecords deletes the records below offset before[p] of every
// partition p of topic (Kafka's DeleteRecords: the partition's log start
// moves to before[p]); before must have one entry per partition of the
// topic, and -1 or 0 leave a partition alone. A partition whose log start
// is already at or past before[p] is left alone too (Apache Kafka answers
// such a delete with the current log start, kfake with
// OFFSET_OUT_OF_RANGE). An offset past a partition's high watermark is an
// error, and so is a log start other than before[p] afterwards. ctx bounds
// the call (30 s when it has no deadline).
func DeleteRecords(ctx context.Context, c Cluster, topic string, before []int64) error {
	if err := validateCorpus(topic, len(before), 0); err != nil {
		return err
	}
	for p, o := range before {
		if o < -1 {
			return fmt.Errorf("delete records of topic %s: partition %d: offset must be >= -1, got %d", topic, p, o)
		}
	}
	return c.withAdmin(ctx, func(ctx context.Context, adm *kadm.Client) error {
		s, err := readTopicState(ctx, c, adm, topic)
		if err != nil {
			return err
		}
		if err := s.shaped(topic, len(before)); err != nil {
			return err
		}
		req := kadm.Offsets{}
		var parts []int32
		for i, o := range before {
			p := int32(i)
			switch {
			case o <= 0 || s.starts[p] >= o:
				continue
			case o > s.ends[p]:
				return fmt.Errorf("delete records of topic %s: partition %d: offset %d is past its high watermark %d", topic, p, o, s.ends[p])
			}
			req.Add(kadm.Offset{Topic: topic, Partition: p, At: o, LeaderEpoch: -1})
			parts = append(parts, p)
		}
		if len(parts) == 0 {
			return nil
		}
		resp, err := adm.DeleteRecords(ctx, req)
		if err != nil {
			return c.requestError("delete records of topic "+topic, err)
		}
		for _, p := range parts {
			r, ok := resp.Lookup(topic, p)
			switch {
			case !ok:
				return fmt.Errorf("delete records of topic %s: no answer for partition %d", topic, p)
			case r.Err != nil:
				return fmt.Errorf("delete records of topic %s below offset %d of partition %d: %w", topic, before[p], p, r.Err)
			}
		}
		starts, err := offsets(ctx, c, topic, adm.ListStartOffsets)
		if err != nil {
			return err
		}
		var wrong []string
		for _, p := range parts {
			if starts[p] != before[p] {
				wrong = append(wrong, fmt.Sprintf("partition %d starts at %d, want %d", p, starts[p], before[p]))
			}
		}
		if len(wrong) > 0 {
			return fmt.Errorf("delete records of topic %s did not take: %s", topic, strings.Join(wrong, "; "))
		}
		return nil
	})
}

// Append produces values[p], in order, to partition p of topic for every p
// in values: plain records (no transaction; no key or headers unless opts
// say WithRecordMeta or WithKeys, called with the record's index in
// values[p]; uncompressed unless opts say WithCompression; no other option
// is read), a nil value as a Kafka null, acknowledged by all in-sync
// replicas before Append returns.
// The topic must exist and have every partition named. ctx bounds the call
// (30 s when it has no deadline).
func Append(ctx context.Context, c Cluster, topic string, values map[int32][][]byte, opts ...LoadOpt) error {
	if topic == "" {
		return errors.New("empty topic name")
	}
	ctx, cancel := withDefaultTimeout(ctx)
	defer cancel()
	parts := make([]int32, 0, len(values))
	var n int
	for p, vs := range values {
		parts = append(parts, p)
		n += len(vs)
	}
	slices.Sort(parts)
	var lc loadConfig
	for _, o := range opts {
		o(&lc)
	}
	codec, err := compressionCodec(lc.compression)
	if err != nil {
		return err
	}
	cl, err := c.newClient(ctx,
		kgo.RecordPartitioner(kgo.ManualPartitioner()),
		kgo.RequiredAcks(kgo.AllISRAcks()),
		kgo.ProducerBatchCompression(codec),
	)
	if err != nil {
		return err
	}
	defer cl.Close()
	td, exists, err := topicDetail(ctx, c, kadm.NewClient(cl), topic)
	switch {
	case err != nil:
		return err
	case !exists:
		return fmt.Errorf("append to topic %q: it does not exist on %s", topic, strings.Join(c.seeds(), ","))
	}
	for _, p := range parts {
		if p < 0 || int(p) >= len(td.Partitions) {
			return fmt.Errorf("append to topic %s: no partition %d (it has %d)", topic, p, len(td.Partitions))
		}
	}
	if n == 0 {
		return nil
	}
	rs := make([]*kgo.Record, 0, n)
	for _, p := range parts {
		for j, v := range values[p] {
			r := &kgo.Record{Topic: topic, Partition: p}
			if lc.meta != nil {
				lc.meta(j, r)
			}
			r.Value = v
			rs = append(rs, r)
		}
	}
	if err := cl.ProduceSync(ctx, rs...).FirstErr(); err != nil {
		return fmt.Errorf("append %d records to topic %s on %s: %w", n, topic, strings.Join(c.seeds(), ","), err)
	}
	return nil
}

// shaped checks that the topic exists with partitions partitions and that
// the offsets of all of them were listed.
func (s topicState) shaped(topic string, partitions int) error {
	switch {
	case !s.exists:
		return fmt.Errorf("topic %q does not exist", topic)
	case s.partitions != partitions:
		return fmt.Errorf("topic %s has %d partitions, want %d", topic, s.partitions, partitions)
	}
	for p := range int32(partitions) {
		if _, ok := s.starts[p]; !ok {
			return fmt.Errorf("topic %s: no log start offset listed for partition %d", topic, p)
		}
		if _, ok := s.ends[p]; !ok {
			return fmt.Errorf("topic %s: no high watermark listed for partition %d", topic, p)
		}
	}
	return nil
}

// startSlice is the log start offsets of partitions 0..partitions-1.
func (s topicState) startSlice(partitions int) []int64 {
	out := make([]int64, partitions)
	for p := range out {
		out[p] = s.starts[int32(p)]
	}
	return out
}
