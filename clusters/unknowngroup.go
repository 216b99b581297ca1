package clusters

import (
	"sync"

	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// answerUnknownGroupsAsKafka makes the embedded cluster answer an
// OffsetFetch for a group it has never seen as Apache Kafka does: every
// partition asked for at offset -1, no error. kfake answers
// GROUP_ID_NOT_FOUND instead, which Kafka's Java consumer takes as a fatal
// "Unexpected error in fetch offset response", so stock Flink's
// KafkaSource failed every committed-offset start from a group with no
// commits on kfake while it reads from the reset strategy on Kafka
// (docs/parity.md). A group is seen once a request that creates it
// (OffsetCommit, TxnOffsetCommit, JoinGroup, ConsumerGroupHeartbeat)
// names it; kfake answers the fetches of seen groups itself.
func answerUnknownGroupsAsKafka(c *kfake.Cluster) {
	g := &seenGroups{names: map[string]bool{}}
	for _, key := range []kmsg.Key{kmsg.OffsetCommit, kmsg.TxnOffsetCommit, kmsg.JoinGroup, kmsg.ConsumerGroupHeartbeat} {
		c.ControlKey(int16(key), func(req kmsg.Request) (kmsg.Response, error, bool) {
			g.see(req)
			return nil, nil, false // observed only: kfake handles it
		})
	}
	c.ControlKey(int16(kmsg.OffsetFetch), func(req kmsg.Request) (kmsg.Response, error, bool) {
		resp, ok := g.unknownOffsets(req.(*kmsg.OffsetFetchRequest))
		if ok {
			c.KeepControl()
		}
		return resp, nil, ok
	})
}

// seenGroups are the group names the cluster was asked to create.
type seenGroups struct {
	mu    sync.Mutex
	names map[string]bool
}

func (g *seenGroups) see(req kmsg.Request) {
	var name string
	switch r := req.(type) {
	case *kmsg.OffsetCommitRequest:
		name = r.Group
	case *kmsg.TxnOffsetCommitRequest:
		name = r.Group
	case *kmsg.JoinGroupRequest:
		name = r.Group
	case *kmsg.ConsumerGroupHeartbeatRequest:
		name = r.Group
	}
	g.mu.Lock()
	g.names[name] = true
	g.mu.Unlock()
}

// unknownOffsets is Kafka's answer to req when no group it names was ever
// seen: every partition asked for at -1 (none for a request of all
// topics); false when one was, for kfake to answer.
func (g *seenGroups) unknownOffsets(req *kmsg.OffsetFetchRequest) (*kmsg.OffsetFetchResponse, bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	resp := req.ResponseKind().(*kmsg.OffsetFetchResponse)
	if req.Version <= 7 {
		if g.names[req.Group] {
			return nil, false
		}
		for _, t := range req.Topics {
			rt := kmsg.NewOffsetFetchResponseTopic()
			rt.Topic = t.Topic
			for _, p := range t.Partitions {
				rp := kmsg.NewOffsetFetchResponseTopicPartition()
				rp.Partition, rp.Offset, rp.LeaderEpoch = p, -1, -1
				rt.Partitions = append(rt.Partitions, rp)
			}
			resp.Topics = append(resp.Topics, rt)
		}
		return resp, true
	}
	for _, rg := range req.Groups {
		if g.names[rg.Group] {
			return nil, false
		}
	}
	for _, rg := range req.Groups {
		sg := kmsg.NewOffsetFetchResponseGroup()
		sg.Group = rg.Group
		for _, t := range rg.Topics {
			st := kmsg.NewOffsetFetchResponseGroupTopic()
			st.Topic, st.TopicID = t.Topic, t.TopicID
			for _, p := range t.Partitions {
				sp := kmsg.NewOffsetFetchResponseGroupTopicPartition()
				sp.Partition, sp.Offset, sp.LeaderEpoch = p, -1, -1
				st.Partitions = append(st.Partitions, sp)
			}
			sg.Topics = append(sg.Topics, st)
		}
		resp.Groups = append(resp.Groups, sg)
	}
	return resp, true
}
