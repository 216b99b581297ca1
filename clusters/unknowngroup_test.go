package clusters_test

import (
	"context"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
	"github.com/twmb/franz-go/pkg/kversion"

	"github.com/fastpathlab/fplab/clusters"
	"github.com/fastpathlab/fplab/clusters/clusterstest"
)

// TestUnknownGroupOffsetsAsKafka: the embedded cluster answers an
// OffsetFetch of a group nobody committed for as Kafka does, -1 for every
// partition asked for and no error, in the old request layout (v7, one
// group) and the new one (v8+, groups); once the group committed, the
// committed offsets.
func TestUnknownGroupOffsetsAsKafka(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	addrs := clusterstest.StartSelfT(t, 1, 2).Bootstrap()
	cl := clusters.Cluster{Bootstrap: addrs}
	const topic = "unknown-group"
	if err := clusters.CreateTopic(ctx, cl, topic, 2); err != nil {
		t.Fatal(err)
	}
	fetch := func(group string, opts ...kgo.Opt) []int64 {
		t.Helper()
		c, err := kgo.NewClient(append(opts, kgo.SeedBrokers(addrs...))...)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		req := kmsg.NewPtrOffsetFetchRequest()
		req.Group = group
		rt := kmsg.NewOffsetFetchRequestTopic()
		rt.Topic, rt.Partitions = topic, []int32{0, 1}
		req.Topics = append(req.Topics, rt)
		rg := kmsg.NewOffsetFetchRequestGroup()
		rg.Group = group
		gt := kmsg.NewOffsetFetchRequestGroupTopic()
		gt.Topic, gt.Partitions = topic, []int32{0, 1}
		rg.Topics = append(rg.Topics, gt)
		req.Groups = append(req.Groups, rg)
		resp, err := req.RequestWith(ctx, c)
		if err != nil {
			t.Fatalf("offset fetch: %v", err)
		}
		var out []int64
		if resp.Version <= 7 {
			if resp.ErrorCode != 0 || len(resp.Topics) != 1 {
				t.Fatalf("v%d: error %d, topics %+v", resp.Version, resp.ErrorCode, resp.Topics)
			}
			for _, p := range resp.Topics[0].Partitions {
				out = append(out, p.Offset)
			}
			return out
		}
		if len(resp.Groups) != 1 || resp.Groups[0].ErrorCode != 0 || len(resp.Groups[0].Topics) != 1 {
			t.Fatalf("v%d: groups %+v", resp.Version, resp.Groups)
		}
		for _, p := range resp.Groups[0].Topics[0].Partitions {
			out = append(out, p.Offset)
		}
		return out
	}
	v7 := kgo.MaxVersions(kversion.V2_8_0())
	for _, opts := range [][]kgo.Opt{nil, {v7}} {
		if got := fetch("never-committed", opts...); len(got) != 2 || got[0] != -1 || got[1] != -1 {
			t.Errorf("unknown group: %v, want [-1 -1]", got)
		}
	}
	if err := clusters.CommitOffsets(ctx, cl, "committed", topic, []int64{0, 0}); err != nil {
		t.Fatal(err)
	}
	for _, opts := range [][]kgo.Opt{nil, {v7}} {
		if got := fetch("committed", opts...); len(got) != 2 || got[0] != 0 || got[1] != 0 {
			t.Errorf("committed group: %v, want [0 0]", got)
		}
	}
}
