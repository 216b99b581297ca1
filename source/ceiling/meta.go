package ceiling

import (
	"context"
	"fmt"
	"time"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// maxLost bounds the metadata refreshes one partition may need without
// progressing in between; refresh backs off between them (lostBackoff).
const maxLost = 8

// lostBackoff is the wait before a partition's n-th refresh (n >= 1): none
// for the first, as a moved leader is usually in the metadata already, then
// 50 ms doubling up to 1 s.
func lostBackoff(n int) time.Duration {
	if n <= 1 {
		return 0
	}
	return min(50*time.Millisecond<<(n-2), time.Second)
}

// leaders is one Metadata answer for the topic.
type leaders struct {
	id     [16]byte
	leader []int32 // by partition; -1: none now
	epoch  []int32
}

// metadata asks any broker for the topic's partitions and their leaders.
func (r *reader) metadata(ctx context.Context) (leaders, error) {
	tctx, cancel := context.WithTimeout(ctx, r.cfg.Timeout)
	defer cancel()
	req := kmsg.NewPtrMetadataRequest()
	rt := kmsg.NewMetadataRequestTopic()
	rt.Topic = kmsg.StringPtr(r.cfg.Topic)
	req.Topics = append(req.Topics, rt)
	req.AllowAutoTopicCreation = false
	resp, err := req.RequestWith(tctx, r.cl)
	if err != nil {
		return leaders{}, requestFailed(ctx, tctx, r.cfg.Timeout, fmt.Sprintf("metadata of topic %q", r.cfg.Topic), err)
	}
	var t *kmsg.MetadataResponseTopic
	for i := range resp.Topics {
		if rt := &resp.Topics[i]; rt.Topic != nil && *rt.Topic == r.cfg.Topic {
			t = rt
		}
	}
	n := r.cfg.Partitions
	l := leaders{leader: make([]int32, n), epoch: make([]int32, n)}
	for p := range l.leader {
		l.leader[p], l.epoch[p] = -1, -1
	}
	switch {
	case t == nil || t.ErrorCode == kerr.UnknownTopicOrPartition.Code:
		return leaders{}, fmt.Errorf("topic %q does not exist", r.cfg.Topic)
	case t.ErrorCode == kerr.LeaderNotAvailable.Code:
		return l, nil // being created or elected: no leaders yet
	case t.ErrorCode != 0:
		return leaders{}, fmt.Errorf("metadata of topic %q: %s", r.cfg.Topic, codeName(t.ErrorCode))
	case len(t.Partitions) != n:
		return leaders{}, fmt.Errorf("topic %q has %d partitions, want %d", r.cfg.Topic, len(t.Partitions), n)
	}
	l.id = t.TopicID
	seen := make([]bool, n)
	for _, mp := range t.Partitions {
		if mp.Partition < 0 || int(mp.Partition) >= n || seen[mp.Partition] {
			return leaders{}, fmt.Errorf("topic %q: metadata names partition %d of %d twice or out of range", r.cfg.Topic, mp.Partition, n)
		}
		seen[mp.Partition] = true
		switch {
		case mp.ErrorCode == 0 || mp.ErrorCode == kerr.ReplicaNotAvailable.Code: // a follower down
		case leaderMoved(mp.ErrorCode):
			continue // no leader now
		default:
			return leaders{}, fmt.Errorf("metadata of partition %d of %q: %s", mp.Partition, r.cfg.Topic, codeName(mp.ErrorCode))
		}
		if mp.Leader >= 0 {
			l.leader[mp.Partition], l.epoch[mp.Partition] = mp.Leader, mp.LeaderEpoch
		}
	}
	return l, nil
}

// lose marks p's leader unknown after code; the next refresh looks it up.
func (p *part) lose(code int16) {
	p.leader, p.epoch = -1, -1
	p.why = codeName(code)
}

// refresh looks up the leaders again when a partition has none, after the
// backoff of its lost count, and fails when one still has none after
// maxLost refreshes since it last progressed.
func (r *reader) refresh(ctx context.Context) error {
	wait, need := time.Duration(0), false
	for i := range r.parts {
		p := &r.parts[i]
		if p.done || p.leader >= 0 {
			continue
		}
		if p.lost >= maxLost {
			why := p.why
			if why == "" {
				why = "no leader"
			}
			return fmt.Errorf("partition %d of %q: %s, still after %d metadata refreshes", p.id, r.cfg.Topic, why, p.lost)
		}
		p.lost++
		need = true
		wait = max(wait, lostBackoff(p.lost))
	}
	if !need {
		return nil
	}
	if wait > 0 {
		t := time.NewTimer(wait)
		defer t.Stop()
		select {
		case <-ctx.Done():
			return fmt.Errorf("metadata refresh of %q: %w", r.cfg.Topic, context.Cause(ctx))
		case <-t.C:
		}
	}
	l, err := r.metadata(ctx)
	if err != nil {
		return err
	}
	r.apply(l)
	return nil
}

// apply takes the leaders of one metadata answer.
func (r *reader) apply(l leaders) {
	if l.id != ([16]byte{}) {
		r.topicID = l.id
	}
	for i := range r.parts {
		p := &r.parts[i]
		p.leader, p.epoch = l.leader[i], l.epoch[i]
		if p.leader < 0 {
			p.why = "no leader"
		}
	}
}
