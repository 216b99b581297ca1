package source

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/fastpathlab/fplab/source/consume"
)

// scripted is a subtask's reader that hands over its batches in turn, then
// its end (io.EOF unless err). handedOver is set while the caller may
// still hold the last batch: a Next before the merge gave it back is a
// misuse it records.
type scripted struct {
	batches    []consume.Batch
	err        error
	next       int
	handedOver *atomic.Bool
	misused    atomic.Bool
	closed     bool
	gate       chan struct{} // nil, or each Next waits for it
}

func (s *scripted) Next(ctx context.Context) (*consume.Batch, error) {
	if s.handedOver.Load() {
		s.misused.Store(true)
	}
	if s.gate != nil {
		select {
		case <-s.gate:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	if s.next == len(s.batches) {
		if s.err != nil {
			return nil, s.err
		}
		return nil, io.EOF
	}
	b := &s.batches[s.next]
	s.next++
	s.handedOver.Store(true)
	return b, nil
}

func (s *scripted) Stats() consume.Stats { return consume.Stats{Records: int64(s.next)} }
func (s *scripted) Assertions() (consume.Assertions, error) {
	return consume.Assertions{Client: "fake"}, nil
}
func (s *scripted) Close() error { s.closed = true; return nil }

func batchOf(p int32, offs []int64, split []int64) consume.Batch {
	parts := make([]int32, len(offs))
	for i := range parts {
		parts[i] = p
	}
	return consume.Batch{Partitions: parts, Offsets: offs, Split: split}
}

// TestMergeHandsOverEachSubtasksBatchesInTurn: one subtask reads on only
// after the caller asked past its batch (its slices are reused), the split
// moves only the batch's subtask's partitions, and the end comes once
// every subtask ended.
func TestMergeHandsOverEachSubtasksBatchesInTurn(t *testing.T) {
	var held atomic.Bool
	a := &scripted{handedOver: &held, batches: []consume.Batch{
		batchOf(0, []int64{0, 1}, []int64{2, 99, 99}),
		batchOf(0, []int64{2}, []int64{3, 99, 99}),
	}}
	done := &scripted{handedOver: new(atomic.Bool)}
	m, err := merge([]consume.Reader{a, done}, []int{0, 1, 1}, []int64{0, 5, 7})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	ctx := context.Background()
	var splits []string
	for {
		held.Store(false)
		b, err := m.Next(ctx)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		splits = append(splits, fmt.Sprint(b.Split))
	}
	if got := strings.Join(splits, " "); got != "[2 5 7] [3 5 7]" {
		t.Errorf("splits %s, want [2 5 7] [3 5 7] (the subtask of partition 0 moves partition 0 only)", got)
	}
	if a.misused.Load() {
		t.Errorf("the subtask read on while the caller still held its batch")
	}
	if st := m.Stats(); st.Records != 2 {
		t.Errorf("stats: %d, want the subtask's 2", st.Records)
	}
}

// TestMergeFailsOnAForeignPartitionOrASubtaskError: a row of a partition
// the subtask does not own, or a subtask's error, ends the read naming the
// subtask; Close then returns with the other subtask still waiting.
func TestMergeFailsOnAForeignPartitionOrASubtaskError(t *testing.T) {
	for name, tc := range map[string]struct {
		a    *scripted
		want string
	}{
		"foreign": {&scripted{batches: []consume.Batch{batchOf(1, []int64{0}, []int64{1, 1})}}, "subtask 0 delivered a record of partition 1"},
		"error":   {&scripted{err: errors.New("broker gone")}, "subtask 0: broker gone"},
	} {
		t.Run(name, func(t *testing.T) {
			tc.a.handedOver = new(atomic.Bool)
			idle := &scripted{handedOver: new(atomic.Bool), gate: make(chan struct{})}
			m, err := merge([]consume.Reader{tc.a, idle}, []int{0, 1}, []int64{0, 0})
			if err != nil {
				t.Fatal(err)
			}
			_, err = m.Next(context.Background())
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Next: %v, want %q", err, tc.want)
			}
			if _, again := m.Next(context.Background()); again == nil || again.Error() != err.Error() {
				t.Errorf("Next after the failure: %v, want the same error", again)
			}
			if err := m.Close(); err != nil {
				t.Fatal(err)
			}
			if !tc.a.closed || !idle.closed {
				t.Errorf("Close left a subtask's reader open")
			}
		})
	}
}

// TestMergeNextEndsWithItsContext: a Next with nothing ready returns when
// its context ends; the merge stays usable.
func TestMergeNextEndsWithItsContext(t *testing.T) {
	gate := make(chan struct{})
	a := &scripted{handedOver: new(atomic.Bool), gate: gate, batches: []consume.Batch{batchOf(0, []int64{0}, []int64{1})}}
	m, err := merge([]consume.Reader{a}, []int{0}, []int64{0})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := m.Next(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("Next with an ended context: %v", err)
	}
	close(gate)
	b, err := m.Next(context.Background())
	if err != nil || len(b.Offsets) != 1 {
		t.Fatalf("Next after: %v, %v", b, err)
	}
}
