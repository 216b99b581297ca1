package ceiling

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"sync"
	"time"
)

// drain fetches until every partition is done: one Fetch in flight per
// leader at a time, each carrying all the unfinished partitions that
// leader leads. Responses are walked by the goroutines that sent them and
// applied here, so reader state has one owner. It returns with no fetch
// left running.
func (r *reader) drain(ctx context.Context) error {
	fctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	defer func() {
		cancel()
		wg.Wait()
	}()
	results := make(chan fetched)
	busy := map[int32]bool{} // leaders with a Fetch in flight
	turns := map[int32]int{}
	progress := time.Now()
	stall := time.NewTimer(r.cfg.Timeout)
	defer stall.Stop()
	for r.unfinished() > 0 {
		if time.Since(progress) >= r.cfg.Timeout {
			return r.stalled()
		}
		if err := r.refresh(ctx); err != nil {
			return err
		}
		for _, leader := range r.idleLeaders(busy) {
			req, spans := r.request(leader, turns[leader])
			if req == nil {
				continue
			}
			turns[leader]++
			for _, s := range spans {
				r.parts[s.id].busy = true
			}
			busy[leader] = true
			if r.res.Fetches == 0 {
				r.res.Sent = time.Now()
			}
			r.res.Fetches++
			wg.Go(func() {
				f := r.fetch(fctx, leader, req, spans)
				select {
				case results <- f:
				case <-fctx.Done():
				}
			})
		}
		if len(busy) == 0 {
			continue // all leaderless: the next refresh waits and looks
		}
		select {
		case f := <-results:
			delete(busy, f.broker)
			moved, err := r.take(ctx, f)
			if err != nil {
				return err
			}
			if moved {
				progress = time.Now()
				stall.Reset(r.cfg.Timeout)
			}
		case <-stall.C:
			return r.stalled()
		case <-ctx.Done():
			return fmt.Errorf("read of %q: %w", r.cfg.Topic, context.Cause(ctx))
		}
	}
	return nil
}

// idleLeaders lists, in order, the leaders of unfinished partitions with
// no Fetch in flight.
func (r *reader) idleLeaders(busy map[int32]bool) []int32 {
	set := map[int32]bool{}
	for i := range r.parts {
		if p := &r.parts[i]; !p.done && p.leader >= 0 && !busy[p.leader] {
			set[p.leader] = true
		}
	}
	return slices.Sorted(maps.Keys(set))
}

// take applies one Fetch's outcome and reports whether any partition moved
// forward.
func (r *reader) take(ctx context.Context, f fetched) (moved bool, err error) {
	for _, s := range f.spans {
		r.parts[s.id].busy = false
	}
	what := fmt.Sprintf("fetch %q from broker %d", r.cfg.Topic, f.broker)
	switch {
	case f.err != nil:
		return false, requestFailed(ctx, ctx, r.cfg.Timeout, what, f.err)
	case f.code != 0:
		return false, fmt.Errorf("%s: %s", what, codeName(f.code))
	case f.stray != "":
		return false, fmt.Errorf("%s: the response holds %s", what, f.stray)
	}
	for _, w := range f.parts {
		p := &r.parts[w.id]
		switch {
		case w.code != 0 && leaderMoved(w.code):
			p.lose(w.code)
			continue
		case w.code != 0:
			return false, fmt.Errorf("%s: partition %d: %s", what, w.id, codeName(w.code))
		case w.err != nil:
			return false, fmt.Errorf("%s: partition %d: %w", what, w.id, w.err)
		}
		r.res.add(w.t, f.at)
		if w.t.next > p.pos {
			p.pos, p.lost, moved = w.t.next, 0, true
		}
		if !p.done && (p.pos >= p.stop || w.t.past) {
			p.done, moved = true, true
		}
	}
	return moved, nil
}

// unfinished counts the partitions not done.
func (r *reader) unfinished() int {
	n := 0
	for i := range r.parts {
		if !r.parts[i].done {
			n++
		}
	}
	return n
}

// stalled is the error for no progress within Timeout, naming the first
// unfinished partition.
func (r *reader) stalled() error {
	for i := range r.parts {
		if p := &r.parts[i]; !p.done {
			return fmt.Errorf("no progress for %v: %d of %d partitions unfinished, partition %d at offset %d of [%d, %d) on leader %d",
				r.cfg.Timeout, r.unfinished(), len(r.parts), p.id, p.pos, p.start, p.stop, p.leader)
		}
	}
	return fmt.Errorf("no progress for %v", r.cfg.Timeout)
}
