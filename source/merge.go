package source

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"sync"

	"github.com/fastpathlab/fplab/source/consume"
)

// merged is the one consume.Reader OpenSubtasks returns: each subtask's
// reader runs on its own goroutine, a batch ahead at most (its batch's
// slices are its reader's until its next Next, so it reads on only once
// the caller asked for the batch after it), and Next hands over whichever
// subtask's batch is ready first. Its Split is every partition's position
// as of the batches handed over: a subtask's batch moves its own
// partitions only.
type merged struct {
	subs   []consume.Reader
	owner  []int // partition -> subtask
	split  []int64
	items  chan mergedItem
	resume []chan struct{}
	held   int // the subtask whose batch the caller has, -1 for none
	open   int // subtasks that have not ended
	err    error
	as     consume.Assertions
	out    consume.Batch

	cancel context.CancelFunc
	wg     sync.WaitGroup
	closed bool

	mu    sync.Mutex
	stats []consume.Stats // each subtask's, as of its last Next
}

type mergedItem struct {
	sub int
	b   *consume.Batch
	err error
}

// merge starts the subtasks' goroutines. Every subtask must assert the
// same client, CRC setting and decoder: they are one cell's readers.
func merge(subs []consume.Reader, owner []int, start []int64) (*merged, error) {
	m := &merged{
		subs: subs, owner: owner, split: slices.Clone(start),
		items: make(chan mergedItem), resume: make([]chan struct{}, len(subs)),
		held: -1, open: len(subs), stats: make([]consume.Stats, len(subs)),
	}
	for i, r := range subs {
		as, err := r.Assertions()
		if err != nil {
			return nil, fmt.Errorf("source: subtask %d: %w", i, err)
		}
		if i == 0 {
			m.as = as
		} else if as != m.as {
			return nil, fmt.Errorf("source: subtask %d asserts %+v, subtask 0 %+v", i, as, m.as)
		}
		m.resume[i] = make(chan struct{}, 1)
	}
	ctx, cancel := context.WithCancel(context.Background())
	m.cancel = cancel
	for i := range subs {
		m.wg.Add(1)
		go m.run(ctx, i)
	}
	return m, nil
}

// run reads subtask i until its reader ends or the merge closes.
func (m *merged) run(ctx context.Context, i int) {
	defer m.wg.Done()
	r := m.subs[i]
	for {
		b, err := r.Next(ctx)
		st := r.Stats()
		m.mu.Lock()
		m.stats[i] = st
		m.mu.Unlock()
		select {
		case m.items <- mergedItem{sub: i, b: b, err: err}:
		case <-ctx.Done():
			if b != nil && b.Rec != nil {
				b.Rec.Release()
			}
			return
		}
		if err != nil {
			return
		}
		select {
		case <-m.resume[i]:
		case <-ctx.Done():
			return
		}
	}
}

// Next returns the next batch of any subtask, io.EOF once every subtask
// has read its partitions to their stop. A subtask's error ends the read.
func (m *merged) Next(ctx context.Context) (*consume.Batch, error) {
	if m.err != nil {
		return nil, m.err
	}
	if m.held >= 0 {
		m.resume[m.held] <- struct{}{}
		m.held = -1
	}
	for m.open > 0 {
		select {
		case it := <-m.items:
			if errors.Is(it.err, io.EOF) {
				m.open--
				continue
			}
			if it.err != nil {
				m.err = fmt.Errorf("source: subtask %d: %w", it.sub, it.err)
				return nil, m.err
			}
			if err := m.take(it); err != nil {
				if it.b.Rec != nil {
					it.b.Rec.Release()
				}
				m.err = err
				return nil, err
			}
			m.held = it.sub
			return &m.out, nil
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	return nil, io.EOF
}

// take checks that a subtask's batch holds only its own partitions and
// moves their positions.
func (m *merged) take(it mergedItem) error {
	b := it.b
	for _, p := range b.Partitions {
		if int(p) >= len(m.owner) || m.owner[p] != it.sub {
			return fmt.Errorf("source: subtask %d delivered a record of partition %d, which is not its own", it.sub, p)
		}
	}
	if len(b.Split) != len(m.split) {
		return fmt.Errorf("source: subtask %d's split has %d partitions, the read %d", it.sub, len(b.Split), len(m.split))
	}
	for p, o := range m.owner {
		if o == it.sub {
			m.split[p] = b.Split[p]
		}
	}
	m.out = *b
	m.out.Split = m.split
	return nil
}

// Stats sums the subtasks' counters, each as of its latest batch; First
// is the earliest first record.
func (m *merged) Stats() consume.Stats {
	m.mu.Lock()
	defer m.mu.Unlock()
	var sum consume.Stats
	for _, s := range m.stats {
		sum.Records += s.Records
		sum.Nulls += s.Nulls
		sum.Bytes += s.Bytes
		sum.Batches += s.Batches
		sum.ParseFailures += s.ParseFailures
		if sum.FirstParseFailure == nil {
			sum.FirstParseFailure = s.FirstParseFailure
		}
		sum.Crossings += s.Crossings
		sum.NonEmpty += s.NonEmpty
		sum.Polls += s.Polls
		sum.ConsumerErrors += s.ConsumerErrors
		sum.StatsSamples += s.StatsSamples
		sum.StatsDropped += s.StatsDropped
		if !s.First.IsZero() && (sum.First.IsZero() || s.First.Before(sum.First)) {
			sum.First = s.First
		}
	}
	return sum
}

// Subtasks is how many subtasks' readers the merge reads from.
func (m *merged) Subtasks() int { return len(m.subs) }

// Assertions are the subtasks' (merge checked they agree).
func (m *merged) Assertions() (consume.Assertions, error) { return m.as, nil }

// Close stops the subtasks' goroutines and closes their readers.
func (m *merged) Close() error {
	if m.closed {
		return nil
	}
	m.closed = true
	m.cancel()
	m.wg.Wait()
	var errs []error
	for i, r := range m.subs {
		if err := r.Close(); err != nil {
			errs = append(errs, fmt.Errorf("source: subtask %d: %w", i, err))
		}
	}
	return errors.Join(errs...)
}
