package source

import (
	"context"
	"fmt"

	"github.com/confluentinc/confluent-kafka-go/v2/kafka"
	"github.com/twmb/franz-go/pkg/kadm"

	"github.com/fastpathlab/fplab/source/consume"
)

// Every path's reader is a consume.Committer: it commits a split state as
// the group's offsets (Config.Group; a reader without a group refuses).
// Every partition is committed, finished ones at their stop, so the
// group's offsets are the checkpoint's positions whole.

// commitSplit checks what every path's commit needs.
func commitSplit(cfg *Config, split []int64) error {
	switch {
	case cfg.Group == "":
		return fmt.Errorf("commit offsets: the reader has no group (Config.Group)")
	case len(split) != cfg.Partitions:
		return fmt.Errorf("commit offsets: %d positions for %d partitions", len(split), cfg.Partitions)
	}
	for p, o := range split {
		if o < 0 {
			return fmt.Errorf("commit offsets: partition %d at %d", p, o)
		}
	}
	return nil
}

func (r *fastReader) CommitOffsets(ctx context.Context, split []int64) error {
	return r.rdk.commit(ctx, r.cfg, split)
}

func (r *pollReader) CommitOffsets(ctx context.Context, split []int64) error {
	return r.rdk.commit(ctx, r.cfg, split)
}

// commit commits with librdkafka (rd_kafka_commit, synchronous, in the
// group the consumer was opened with). confluent-kafka-go's call takes no
// timeout, so it runs on a goroutine of its own and commit returns when
// ctx ends: the abandoned call's request was queued before any later
// commit's, and the coordinator answers them in order.
func (r *rdkConsumer) commit(ctx context.Context, cfg *Config, split []int64) error {
	if err := commitSplit(cfg, split); err != nil {
		return err
	}
	tps := make([]kafka.TopicPartition, len(split))
	for p, o := range split {
		tps[p] = kafka.TopicPartition{Topic: &r.topic, Partition: int32(p), Offset: kafka.Offset(o)}
	}
	done := make(chan error, 1)
	go func() {
		got, err := r.c.CommitOffsets(tps)
		if err == nil {
			for _, tp := range got {
				if tp.Error != nil {
					err = fmt.Errorf("partition %d: %w", tp.Partition, tp.Error)
					break
				}
			}
		}
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil {
			return fmt.Errorf("commit offsets of group %s: librdkafka: %w", cfg.Group, err)
		}
		return nil
	case <-ctx.Done():
		return fmt.Errorf("commit offsets of group %s: %w", cfg.Group, ctx.Err())
	}
}

func (r *franzReader) CommitOffsets(ctx context.Context, split []int64) error {
	if err := commitSplit(r.cfg, split); err != nil {
		return err
	}
	os := kadm.Offsets{}
	for p, o := range split {
		os.Add(kadm.Offset{Topic: r.cfg.Topic, Partition: int32(p), At: o, LeaderEpoch: -1})
	}
	resp, err := kadm.NewClient(r.cl).CommitOffsets(ctx, r.cfg.Group, os)
	if err == nil {
		err = resp.Error()
	}
	if err != nil {
		return fmt.Errorf("commit offsets of group %s: franz: %w", r.cfg.Group, err)
	}
	return nil
}

var (
	_ consume.Committer = (*fastReader)(nil)
	_ consume.Committer = (*pollReader)(nil)
	_ consume.Committer = (*franzReader)(nil)
)
