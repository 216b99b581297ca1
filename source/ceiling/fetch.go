package ceiling

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/twmb/franz-go/pkg/kmsg"
)

// span is one partition of a Fetch in flight: where it was fetched from
// and where the range stops, a copy of the part's state at sending.
type span struct {
	id         int32
	from, stop int64
}

// fetched is one Fetch's outcome, walked in the goroutine that sent it.
type fetched struct {
	broker int32
	spans  []span // as requested
	at     time.Time
	err    error // no response
	code   int16 // the response's top-level error
	parts  []walked
	stray  string // a topic the response should not hold
}

// walked is one partition of a response.
type walked struct {
	id   int32
	code int16
	t    tally
	err  error
}

// request builds the Fetch for one leader: every unfinished partition it
// leads that is not in a Fetch in flight (one that moved here while
// fetched from its old leader waits for that answer), or nil if there is
// none. The order rotates with turn: a broker returns an oversized first
// batch only for the first partition with data (KIP-74), and FetchMaxBytes
// cuts the last ones, so no partition may always come late.
func (r *reader) request(leader int32, turn int) (*kmsg.FetchRequest, []span) {
	var spans []span
	for i := range r.parts {
		if p := &r.parts[i]; p.leader == leader && !p.done && !p.busy {
			spans = append(spans, span{p.id, p.pos, p.stop})
		}
	}
	if len(spans) == 0 {
		return nil, nil
	}
	k := turn % len(spans)
	spans = slices.Concat(spans[k:], spans[:k])
	req := kmsg.NewPtrFetchRequest()
	req.MaxWaitMillis = int32(r.cfg.MaxWait.Milliseconds())
	req.MinBytes = 1 // fetch.min.bytes' default
	req.MaxBytes = r.cfg.FetchMaxBytes
	req.IsolationLevel = 0 // read_uncommitted: see Read
	// SessionID 0 and SessionEpoch -1 (kmsg's defaults): full fetches,
	// no fetch session.
	rt := kmsg.NewFetchRequestTopic()
	rt.Topic = r.cfg.Topic // up to v12
	rt.TopicID = r.topicID // v13 on
	for _, s := range spans {
		rp := kmsg.NewFetchRequestTopicPartition()
		rp.Partition = s.id
		rp.CurrentLeaderEpoch = r.parts[s.id].epoch
		rp.FetchOffset = s.from
		rp.PartitionMaxBytes = r.cfg.PartitionMaxBytes
		rt.Partitions = append(rt.Partitions, rp)
	}
	req.Topics = append(req.Topics, rt)
	return req, spans
}

// fetch sends req to the broker and walks the response's record batches.
// It runs in its own goroutine and reads only r.cfg and r.cl.
func (r *reader) fetch(ctx context.Context, broker int32, req *kmsg.FetchRequest, spans []span) fetched {
	f := fetched{broker: broker, spans: spans}
	kresp, err := r.cl.Broker(int(broker)).RetriableRequest(ctx, req)
	f.at = time.Now()
	if err != nil {
		f.err = err
		return f
	}
	resp := kresp.(*kmsg.FetchResponse)
	if f.code = resp.ErrorCode; f.code != 0 {
		return f
	}
	index := make(map[int32]span, len(spans))
	for _, s := range spans {
		index[s.id] = s
	}
	for _, t := range resp.Topics {
		if t.Topic != r.cfg.Topic && (t.TopicID == [16]byte{} || t.TopicID != req.Topics[0].TopicID) {
			f.stray = fmt.Sprintf("%q (id %x)", t.Topic, t.TopicID)
			return f
		}
		for _, rp := range t.Partitions {
			s, ok := index[rp.Partition]
			if !ok {
				f.stray = fmt.Sprintf("partition %d, not asked for", rp.Partition)
				return f
			}
			w := walked{id: rp.Partition, code: rp.ErrorCode}
			if w.code == 0 {
				w.t, w.err = walk(rp.RecordBatches, s.from, s.stop)
			}
			f.parts = append(f.parts, w)
		}
	}
	return f
}
