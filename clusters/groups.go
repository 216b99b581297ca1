package clusters

import (
	"context"
	"errors"
	"fmt"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
)

// CommitOffsets commits offsets[p] for partition p of topic as group's
// committed offsets (Kafka's OffsetCommit for a group with no members, as
// an admin tool commits them); a negative offset leaves its partition
// without a commit. Any offset is accepted, one outside the partition's log
// included: that is how a start-up case sets up an out-of-range commit.
// ctx bounds the call (30 s when it has no deadline).
func CommitOffsets(ctx context.Context, c Cluster, group, topic string, offsets []int64) error {
	if group == "" {
		return fmt.Errorf("commit offsets of topic %s: no group", topic)
	}
	return c.withAdmin(ctx, func(ctx context.Context, adm *kadm.Client) error {
		os := kadm.Offsets{}
		for p, o := range offsets {
			if o >= 0 {
				os.Add(kadm.Offset{Topic: topic, Partition: int32(p), At: o, LeaderEpoch: -1})
			}
		}
		if len(os) == 0 {
			return nil
		}
		resp, err := adm.CommitOffsets(ctx, group, os)
		if err != nil {
			return c.requestError(fmt.Sprintf("commit offsets of group %s", group), err)
		}
		if err := resp.Error(); err != nil {
			return fmt.Errorf("commit offsets of group %s on topic %s: %w", group, topic, err)
		}
		return nil
	})
}

// CommittedOffsets returns group's committed offset of every partition of
// topic (OffsetFetch), -1 where it has none (a group that does not exist
// has none). ctx bounds the call (30 s
// when it has no deadline).
func CommittedOffsets(ctx context.Context, c Cluster, group, topic string, partitions int) ([]int64, error) {
	out := make([]int64, partitions)
	for p := range out {
		out[p] = -1
	}
	err := c.withAdmin(ctx, func(ctx context.Context, adm *kadm.Client) error {
		resp, err := adm.FetchOffsets(ctx, group)
		if errors.Is(err, kerr.GroupIDNotFound) {
			return nil // kfake's answer for a group nobody committed for
		}
		if err != nil {
			return c.requestError(fmt.Sprintf("fetch the offsets of group %s", group), err)
		}
		if err := resp.Error(); err != nil {
			return fmt.Errorf("fetch the offsets of group %s: %w", group, err)
		}
		resp.Each(func(o kadm.OffsetResponse) {
			if o.Topic == topic && int(o.Partition) < partitions && o.Partition >= 0 {
				out[o.Partition] = o.At
			}
		})
		return nil
	})
	return out, err
}

// OffsetsAfter returns, per partition of topic, the offset of the first
// record whose timestamp is at or after ms (milliseconds since the epoch),
// as the broker answers ListOffsets by timestamp: the high watermark where
// no record is that late (kadm asks again for those). ctx bounds the call (30 s when it has no
// deadline).
func OffsetsAfter(ctx context.Context, c Cluster, topic string, partitions int, ms int64) ([]int64, error) {
	if err := validateCorpus(topic, partitions, 0); err != nil {
		return nil, err
	}
	out := make([]int64, partitions)
	err := c.withAdmin(ctx, func(ctx context.Context, adm *kadm.Client) error {
		after, err := adm.ListOffsetsAfterMilli(ctx, ms, topic)
		if err != nil {
			return c.requestError("offsets after a timestamp of topic "+topic, err)
		}
		for p := range out {
			o, ok := after.Lookup(topic, int32(p))
			switch {
			case !ok:
				return fmt.Errorf("offsets after a timestamp of topic %s: no answer for partition %d", topic, p)
			case o.Err != nil:
				return fmt.Errorf("offsets after a timestamp of topic %s, partition %d: %w", topic, p, o.Err)
			case o.Offset < 0:
				return fmt.Errorf("offsets after a timestamp of topic %s: partition %d answered %d", topic, p, o.Offset)
			default:
				out[p] = o.Offset
			}
		}
		return nil
	})
	return out, err
}

// Groups lists the groups the cluster knows (ListGroups), sorted: a
// reader that never joins a group nor commits leaves none behind. ctx
// bounds the call (30 s when it has no deadline).
func Groups(ctx context.Context, c Cluster) ([]string, error) {
	var out []string
	err := c.withAdmin(ctx, func(ctx context.Context, adm *kadm.Client) error {
		groups, err := adm.ListGroups(ctx)
		if err != nil {
			return c.requestError("list groups", err)
		}
		out = groups.Groups()
		return nil
	})
	return out, err
}

// TimestampAt returns the timestamp (milliseconds since the epoch) of the
// record at offset of topic's partition, read with a client of its own.
// ctx bounds the call (30 s when it has no deadline).
func TimestampAt(ctx context.Context, c Cluster, topic string, partition int32, offset int64) (int64, error) {
	ctx, cancel := withDefaultTimeout(ctx)
	defer cancel()
	cl, err := c.newClient(ctx,
		kgo.ConsumePartitions(map[string]map[int32]kgo.Offset{topic: {partition: kgo.NewOffset().At(offset)}}),
		kgo.ConsumeResetOffset(kgo.NoResetOffset()),
	)
	if err != nil {
		return 0, err
	}
	defer cl.Close()
	for {
		fs := cl.PollFetches(ctx)
		if err := ctx.Err(); err != nil {
			return 0, c.requestError(fmt.Sprintf("the record at %s/%d@%d", topic, partition, offset), err)
		}
		var fetchErr error
		fs.EachError(func(_ string, _ int32, err error) { fetchErr = err })
		if fetchErr != nil {
			return 0, fmt.Errorf("the record at %s/%d@%d: %w", topic, partition, offset, fetchErr)
		}
		for _, r := range fs.Records() {
			if r.Offset >= offset {
				return r.Timestamp.UnixMilli(), nil
			}
		}
	}
}

// DeleteGroup deletes group (DeleteGroups); a group that does not exist is
// no error. ctx bounds the call (30 s when it has no deadline).
func DeleteGroup(ctx context.Context, c Cluster, group string) error {
	return c.withAdmin(ctx, func(ctx context.Context, adm *kadm.Client) error {
		resp, err := adm.DeleteGroup(ctx, group)
		if errors.Is(err, kerr.GroupIDNotFound) {
			return nil
		}
		if err != nil {
			return c.requestError(fmt.Sprintf("delete group %s", group), err)
		}
		if resp.Err != nil && !errors.Is(resp.Err, kerr.GroupIDNotFound) {
			return fmt.Errorf("delete group %s: %w", group, resp.Err)
		}
		return nil
	})
}
