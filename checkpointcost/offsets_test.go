package checkpointcost

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"sync"
	"testing"
)

// fakeCommitter records the commits it gets; fail (when set) says which
// fail, gate (when set) holds every commit until a value is sent.
type fakeCommitter struct {
	mu     sync.Mutex
	splits [][]int64
	fail   func(split []int64) bool
	gate   chan struct{}
	began  chan struct{}
}

func (f *fakeCommitter) CommitOffsets(ctx context.Context, split []int64) error {
	if f.began != nil {
		f.began <- struct{}{}
	}
	if f.gate != nil {
		<-f.gate
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.splits = append(f.splits, slices.Clone(split))
	if f.fail != nil && f.fail(split) {
		return errors.New("coordinator unreachable")
	}
	return nil
}

// TestOffsetCommitterSkipsOlderWaitingCommits: while a commit runs, the
// checkpoints completing after it wait; each newer one replaces the one
// waiting, which is never sent and is counted as skipped. Commits reach
// the committer in checkpoint order, the last one last; finish commits
// what waits.
func TestOffsetCommitterSkipsOlderWaitingCommits(t *testing.T) {
	f := &fakeCommitter{gate: make(chan struct{}), began: make(chan struct{}, 10)}
	oc := newOffsetCommitter(f, 0)
	oc.post(1, []int64{1})
	<-f.began // commit 1 runs, held at the gate
	oc.post(2, []int64{2})
	oc.post(3, []int64{3})
	oc.post(4, []int64{4})
	f.gate <- struct{}{} // commit 1 ends
	<-f.began            // commit 4 runs
	f.gate <- struct{}{}
	oc.finish()
	if want := [][]int64{{1}, {4}}; !slices.EqualFunc(f.splits, want, slices.Equal) {
		t.Fatalf("commits %v, want %v", f.splits, want)
	}
	out := oc.outcomes()
	if len(out) != 2 || out[0].id != 1 || out[1].id != 4 || out[1].skipped != 2 || out[0].err != nil || out[1].err != nil {
		t.Fatalf("outcomes %+v, want checkpoints 1 and 4, 4 having skipped 2", out)
	}
}

// TestRunReaderCommitsOffsetsOfCompletedCheckpoints: with Commit set,
// every completed checkpoint's split is committed, in order, the final
// one's last (so the group ends at the stop); offsets events report each
// commit after its checkpoint completed, before done, and every completed
// checkpoint was committed or skipped for a newer one. Every commit but
// the final one fails here (the coordinator unreachable): each is
// reported with its error and fails nothing, the checkpoints and the
// verdict are as without them.
func TestRunReaderCommitsOffsetsOfCompletedCheckpoints(t *testing.T) {
	dir := t.TempDir()
	start, stop := []int64{0, 100}, []int64{2000, 1500}
	f := &fakeCommitter{fail: func(split []int64) bool { return !slices.Equal(split, stop) }}
	out := filepath.Join(dir, "out")
	evs, err := runInProcess(t, ReaderOptions{Store: filepath.Join(dir, "store"), Output: out, Commit: f}, start, stop, 97, nil)
	if err != nil {
		t.Fatal(err)
	}
	var ckpts, offsets []int
	failed, skipped := 0, 0
	seenCkpt := map[int]bool{}
	for _, ev := range evs {
		switch ev.Ev {
		case EvCkpt:
			ckpts = append(ckpts, ev.ID)
			seenCkpt[ev.ID] = true
		case EvOffsets:
			if !seenCkpt[ev.ID] {
				t.Errorf("offsets of checkpoint %d before the checkpoint completed", ev.ID)
			}
			offsets = append(offsets, ev.ID)
			skipped += ev.Skipped
			if ev.Err != "" {
				failed++
			}
		}
	}
	if last := evs[len(evs)-2]; last.Ev != EvOffsets || last.ID != ckpts[len(ckpts)-1] || last.Err != "" || !slices.Equal(last.Split, stop) {
		t.Errorf("the event before done is %+v, want the final checkpoint %d's offsets at the stop %v", last, ckpts[len(ckpts)-1], stop)
	}
	if !slices.IsSorted(offsets) || len(offsets)+skipped != len(ckpts) || failed != len(offsets)-1 {
		t.Errorf("offsets of checkpoints %v (%d failed, %d skipped), checkpoints %v: want each committed or skipped, in order, all but the last failed", offsets, failed, skipped, ckpts)
	}
	if v, err := Verify(out, start, stop, nil); err != nil || !v.OK() {
		t.Errorf("verdict %+v, %v", v, err)
	}
}
