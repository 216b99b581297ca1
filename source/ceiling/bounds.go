package ceiling

import (
	"context"
	"fmt"
	"slices"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// ListOffsets' timestamps for the earliest offset (the log start) and the
// latest (the high watermark under read_uncommitted).
const (
	earliest int64 = -2
	latest   int64 = -1
)

// open checks the topic and captures every partition's range: start, the
// log start, and stop, the high watermark, each asked of the partition's
// leader. A partition whose start is at or past its stop is done at once.
func (r *reader) open(ctx context.Context) error {
	l, err := r.metadata(ctx)
	if err != nil {
		return err
	}
	n := r.cfg.Partitions
	r.parts = make([]part, n)
	for i := range r.parts {
		r.parts[i].id = int32(i)
	}
	r.apply(l)
	start, err := r.offsets(ctx, earliest)
	if err != nil {
		return err
	}
	stop, err := r.offsets(ctx, latest)
	if err != nil {
		return err
	}
	r.res = Result{
		Codecs: map[string]int64{},
		Start:  make(map[int32]int64, n),
		Stop:   make(map[int32]int64, n),
	}
	for i := range r.parts {
		p := &r.parts[i]
		p.start, p.stop, p.pos = start[i], stop[i], start[i]
		p.done = p.pos >= p.stop
		p.lost = 0
		r.res.Start[p.id], r.res.Stop[p.id] = p.start, p.stop
	}
	return nil
}

// offsets asks each partition's leader for its offset at ts, refreshing
// leaders that moved.
func (r *reader) offsets(ctx context.Context, ts int64) ([]int64, error) {
	out := make([]int64, len(r.parts))
	got := make([]bool, len(r.parts))
	for slices.Contains(got, false) {
		if err := r.refresh(ctx); err != nil {
			return nil, err
		}
		byLeader := map[int32][]*part{}
		for i := range r.parts {
			if p := &r.parts[i]; !got[i] && p.leader >= 0 {
				byLeader[p.leader] = append(byLeader[p.leader], p)
			}
		}
		for leader, ps := range byLeader {
			if err := r.listOffsets(ctx, leader, ps, ts, out, got); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

// listOffsets asks one leader for the offsets of its partitions ps at ts
// and records the answers in out and got; a partition whose leader moved
// loses it (part.lose) and is asked again after the next refresh.
func (r *reader) listOffsets(ctx context.Context, leader int32, ps []*part, ts int64, out []int64, got []bool) error {
	tctx, cancel := context.WithTimeout(ctx, r.cfg.Timeout)
	defer cancel()
	req := kmsg.NewPtrListOffsetsRequest()
	req.IsolationLevel = 0 // read_uncommitted: latest is the high watermark
	req.TimeoutMillis = int32(min(r.cfg.Timeout.Milliseconds(), 1<<31-1))
	rt := kmsg.NewListOffsetsRequestTopic()
	rt.Topic = r.cfg.Topic
	for _, p := range ps {
		rp := kmsg.NewListOffsetsRequestTopicPartition()
		rp.Partition = p.id
		rp.CurrentLeaderEpoch = p.epoch
		rp.Timestamp = ts
		rt.Partitions = append(rt.Partitions, rp)
	}
	req.Topics = append(req.Topics, rt)
	what := fmt.Sprintf("list offsets of %q on broker %d", r.cfg.Topic, leader)
	resp, err := req.RequestWith(tctx, r.cl.Broker(int(leader)))
	if err != nil {
		return requestFailed(ctx, tctx, r.cfg.Timeout, what, err)
	}
	for _, t := range resp.Topics {
		if t.Topic != r.cfg.Topic {
			return fmt.Errorf("%s: answered for topic %q", what, t.Topic)
		}
		for _, rp := range t.Partitions {
			if rp.Partition < 0 || int(rp.Partition) >= len(r.parts) {
				return fmt.Errorf("%s: answered for partition %d of %d", what, rp.Partition, len(r.parts))
			}
			p := &r.parts[rp.Partition]
			switch {
			case rp.ErrorCode == 0:
				out[p.id], got[p.id] = rp.Offset, true
			case leaderMoved(rp.ErrorCode):
				p.lose(rp.ErrorCode)
			case rp.ErrorCode == kerr.UnknownTopicOrPartition.Code:
				return fmt.Errorf("topic %q does not exist (%s from broker %d)", r.cfg.Topic, codeName(rp.ErrorCode), leader)
			default:
				return fmt.Errorf("%s: partition %d: %s", what, p.id, codeName(rp.ErrorCode))
			}
		}
	}
	for _, p := range ps {
		if !got[p.id] && p.leader >= 0 {
			return fmt.Errorf("%s: no answer for partition %d", what, p.id)
		}
	}
	return nil
}
