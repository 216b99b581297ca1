package source_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fastpathlab/fplab/source"
	"github.com/fastpathlab/fplab/source/consume"
	"github.com/fastpathlab/fplab/workloads"
)

// pausedRead reads a bounded topic through Pause and Resume, checking
// every batch: each row a record of the corpus, delivered once, its
// checksum the records'; no row of a paused partition.
type pausedRead struct {
	t      *testing.T
	r      consume.Reader
	tp     *topic
	seen   map[int64]bool
	paused map[int32]bool
}

// next reads one batch (false at the end of the read).
func (pr *pausedRead) next(ctx context.Context) bool {
	t := pr.t
	t.Helper()
	b, err := pr.r.Next(ctx)
	if errors.Is(err, io.EOF) {
		return false
	}
	if err != nil {
		t.Fatal(err)
	}
	defer b.Rec.Release()
	var want uint64
	for i, p := range b.Partitions {
		if pr.paused[p] {
			t.Fatalf("row of partition %d (offset %d) after its Pause returned", p, b.Offsets[i])
		}
		id := b.Offsets[i]*testParts + int64(p)
		if pr.seen[id] {
			t.Fatalf("record %d (partition %d offset %d) handed over twice", id, p, b.Offsets[i])
		}
		pr.seen[id] = true
		want += pr.tp.corpus.Hash(int(id))
	}
	if got := workloads.BatchChecksum(b.Rec); got != want {
		t.Fatalf("checksum %x, corpus %x", got, want)
	}
	return true
}

func (pr *pausedRead) pause(ps ...int32) {
	pr.t.Helper()
	if err := pr.r.(consume.Pauser).Pause(ps...); err != nil {
		pr.t.Fatal(err)
	}
	for _, p := range ps {
		pr.paused[p] = true
	}
}

func (pr *pausedRead) resume(ps ...int32) {
	pr.t.Helper()
	if err := pr.r.(consume.Pauser).Resume(ps...); err != nil {
		pr.t.Fatal(err)
	}
	for _, p := range ps {
		pr.paused[p] = false
	}
}

// TestPauseHoldsAndResumeGoesOn: on every path, a paused partition
// appears in no batch after Pause returns while the others keep coming;
// after Resume it goes on where it stood: at the end every record of the
// topic was handed over exactly once. The read pauses partition 0, then
// partitions 1 and 2 in turn (each while the others still have records),
// pauses one twice and resumes one that is not paused, both no-ops. A
// partition that is not the topic's, or one listed twice, is refused.
func TestPauseHoldsAndResumeGoesOn(t *testing.T) {
	type variant struct {
		p     consume.Path
		ahead bool
	}
	var vs []variant
	for _, p := range consume.Paths() {
		vs = append(vs, variant{p: p})
	}
	// the fast path crossing ahead: Pause and Resume wait for the
	// crossing under way, and none starts ahead after a Pause
	vs = append(vs, variant{p: consume.PathFast, ahead: true})
	for _, v := range vs {
		p := v.p
		name := fmt.Sprintf("path=%s", p)
		if v.ahead {
			name += "/drain=ahead"
		}
		t.Run(name, func(t *testing.T) {
			tp := loadTopic(t, workloads.FormatJSON)
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			cfg := tp.config(p, 64, mem)
			cfg.Tuning.Ahead = v.ahead
			r, err := source.Open(ctx, cfg)
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			pz, ok := r.(consume.Pauser)
			if !ok {
				t.Fatalf("path %s's reader is not a consume.Pauser", p)
			}
			for _, bad := range []struct {
				ps   []int32
				want string
			}{
				{[]int32{3}, "pause partition 3: the topic has partitions 0..2"},
				{[]int32{-1}, "pause partition -1: the topic has partitions 0..2"},
				{[]int32{1, 1}, "pause partition 1: listed twice"},
			} {
				if err := pz.Pause(bad.ps...); err == nil || err.Error() != bad.want {
					t.Errorf("Pause(%v) = %v, want %q", bad.ps, err, bad.want)
				}
			}
			if err := pz.Resume(5); err == nil || err.Error() != "resume partition 5: the topic has partitions 0..2" {
				t.Errorf("Resume(5) = %v", err)
			}

			pr := &pausedRead{t: t, r: r, tp: tp, seen: map[int64]bool{}, paused: map[int32]bool{}}
			pr.next(ctx)
			for _, q := range []int32{0, 1, 2} {
				pr.pause(q)
				pr.pause(q) // twice: still paused
				// the others keep coming: 10 batches of them, while
				// they have 2 x 1,666 records less at most 1,344 read
				for range 10 {
					if !pr.next(ctx) {
						t.Fatalf("partition %d paused: the read ended", q)
					}
				}
				pr.resume(q)
				pr.resume(q) // not paused: nothing
			}
			for pr.next(ctx) {
			}
			if len(pr.seen) != testRecords {
				t.Fatalf("%d records handed over, want %d", len(pr.seen), testRecords)
			}
		})
	}
}
