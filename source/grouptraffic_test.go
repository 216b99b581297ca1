package source_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/fastpathlab/fplab/clusters"
	"github.com/fastpathlab/fplab/clusters/clusterstest"
	"github.com/fastpathlab/fplab/source"
	"github.com/fastpathlab/fplab/source/consume"
	"github.com/fastpathlab/fplab/workloads"
)

// groupKeys are the requests of the group protocol, counted by the
// broker below.
var groupKeys = []kmsg.Key{kmsg.FindCoordinator, kmsg.JoinGroup, kmsg.SyncGroup, kmsg.Heartbeat,
	kmsg.LeaveGroup, kmsg.OffsetCommit, kmsg.OffsetFetch, kmsg.ConsumerGroupHeartbeat}

// TestGroupTrafficOnTheBroker counts, on the broker, the group requests
// each path sends while it reads a topic to its end: without a group (an
// earliest start) and with one (a committed start). No path ever joins a
// group, heartbeats, leaves one or commits; only a committed start fetches
// the group's offsets. franz-go sends no group request at all without a
// group. The librdkafka paths look up a coordinator (FindCoordinator):
// confluent-kafka-go's consumer needs a group.id, so without one they run
// with a synthetic one, and librdkafka queries its coordinator in the
// background (docs/parity.md, "Group identity"); the count is logged.
func TestGroupTrafficOnTheBroker(t *testing.T) {
	const topic, records = "groupless", 300
	c := clusterstest.InProcess(t, kfake.SeedTopics(testParts, topic))
	var mu sync.Mutex
	seen := map[kmsg.Key]int{}
	for _, k := range groupKeys {
		c.ControlKey(k.Int16(), func(kmsg.Request) (kmsg.Response, error, bool) {
			mu.Lock()
			seen[k]++
			mu.Unlock()
			return nil, nil, false // observed, then handled as usual
		})
	}
	cl := clusters.Cluster{Bootstrap: c.ListenAddrs()}
	tp := loadTopic(t, workloads.FormatJSON, on(cl, topic), withSeed(5), withRecords(records))
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := clusters.CommitOffsets(ctx, cl, "committed-start", topic, make([]int64, testParts)); err != nil {
		t.Fatal(err)
	}

	for _, p := range consume.Paths() {
		for _, group := range []string{"", "committed-start"} {
			t.Run(string(p)+"/group="+group, func(t *testing.T) {
				mu.Lock()
				clear(seen)
				mu.Unlock()
				cfg := tp.config(p, 64, memory.NewGoAllocator())
				if group != "" {
					cfg.StartAt, cfg.Group = source.StartCommitted, group
				}
				if st, _ := drain(t, cfg, tp.corpus); st.Records != records {
					t.Fatalf("%d rows, want %d", st.Records, records)
				}
				mu.Lock()
				defer mu.Unlock()
				for _, k := range []kmsg.Key{kmsg.JoinGroup, kmsg.SyncGroup, kmsg.Heartbeat, kmsg.LeaveGroup, kmsg.OffsetCommit, kmsg.ConsumerGroupHeartbeat} {
					if seen[k] != 0 {
						t.Errorf("%d %s requests: a reader never joins a group or commits", seen[k], k.Name())
					}
				}
				if fetched := seen[kmsg.OffsetFetch]; (group != "") != (fetched > 0) {
					t.Errorf("%d OffsetFetch requests with group %q: only a committed start fetches offsets", fetched, group)
				}
				if p == consume.PathFranz && group == "" && seen[kmsg.FindCoordinator] != 0 {
					t.Errorf("franz sent %d FindCoordinator requests without a group", seen[kmsg.FindCoordinator])
				}
				t.Logf("FindCoordinator requests: %d", seen[kmsg.FindCoordinator])
			})
		}
	}
}
