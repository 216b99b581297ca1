package clusters_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/fastpathlab/fplab/clusters"
	"github.com/fastpathlab/fplab/clusters/clusterstest"
)

// TestOffsetsAfterLeaderMove: a listing answered with a retriable error,
// as just after a leader election (OFFSET_NOT_AVAILABLE until the new
// leader's high watermark catches up), is asked again; a non-retriable
// error, or a retriable one that lasts past the context, fails on one
// line naming the topic.
func TestOffsetsAfterLeaderMove(t *testing.T) {
	c := clusterstest.InProcess(t, kfake.SeedTopics(3, "t"))
	cl := clusters.Cluster{Bootstrap: c.ListenAddrs()}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()

	seen := c.Fault(kfake.Fault{Keys: []kmsg.Key{kmsg.ListOffsets}, Topic: "t", Err: kerr.OffsetNotAvailable, Count: 3})
	if ready, err := clusters.TopicReady(ctx, cl, "t", 3, 3); err != nil || ready {
		t.Fatalf("TopicReady after three OFFSET_NOT_AVAILABLE answers = %v, %v; want false (empty topic), nil", ready, err)
	}
	seen.Remove()

	h := c.Fault(kfake.Fault{Keys: []kmsg.Key{kmsg.ListOffsets}, Topic: "t", Err: kerr.UnknownServerError})
	_, err := clusters.TopicReady(ctx, cl, "t", 3, 3)
	if err == nil || !strings.Contains(err.Error(), "offsets of topic t") || !strings.Contains(err.Error(), "UNKNOWN_SERVER_ERROR") {
		t.Fatalf("non-retriable error: %v", err)
	}
	h.Remove()

	h = c.Fault(kfake.Fault{Keys: []kmsg.Key{kmsg.ListOffsets}, Topic: "t", Err: kerr.OffsetNotAvailable, Count: -1})
	defer h.Remove()
	short, cancelShort := context.WithTimeout(ctx, 300*time.Millisecond)
	defer cancelShort()
	_, err = clusters.TopicReady(short, cl, "t", 3, 3)
	if err == nil || !strings.Contains(err.Error(), "OFFSET_NOT_AVAILABLE") || !strings.Contains(err.Error(), "deadline") || strings.Contains(err.Error(), "\n") {
		t.Fatalf("lasting retriable error: %v", err)
	}
}
