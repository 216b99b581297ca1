package checkpointcost

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/memory"
)

// runInProcess runs RunReader over a fake source from start to stop and
// returns its events; onBatch, if given, is the fake's batch hook.
func runInProcess(t *testing.T, opt ReaderOptions, start, stop []int64, batch int, onBatch func(done bool)) ([]Event, error) {
	t.Helper()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	r := newFakeReader(mem, start, stop, batch)
	r.onBatch = onBatch
	if opt.trigger == nil {
		opt.trigger, opt.awaitSnapshot = &batchTrigger{every: 5}, true
	}
	opt.Restored = Restored{Start: start}
	var buf bytes.Buffer
	err := RunReader(context.Background(), r, opt, &buf)
	r.Close()
	mem.AssertSize(t, 0)
	return parseEvents(t, buf.Bytes()), err
}

func parseEvents(t *testing.T, data []byte) []Event {
	t.Helper()
	var evs []Event
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		var ev Event
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
			t.Fatalf("bad event line %q: %v", sc.Text(), err)
		}
		evs = append(evs, ev)
	}
	return evs
}

func count(evs []Event, kind string) int {
	n := 0
	for _, ev := range evs {
		if ev.Ev == kind {
			n++
		}
	}
	return n
}

func TestRunReaderEvents(t *testing.T) {
	dir := t.TempDir()
	store, out := filepath.Join(dir, "store"), filepath.Join(dir, "out")
	start, stop := []int64{0, 100}, []int64{2000, 1500}
	evs, err := runInProcess(t, ReaderOptions{Store: store, Output: out}, start, stop, 97, nil)
	if err != nil {
		t.Fatal(err)
	}
	if evs[0].Ev != EvStart || evs[1].Ev != EvFirst || evs[len(evs)-1].Ev != EvDone {
		t.Fatalf("stream starts %q %q and ends %q", evs[0].Ev, evs[1].Ev, evs[len(evs)-1].Ev)
	}
	var rows int64
	lastID, periodic, final := 0, 0, 0
	for i, ev := range evs {
		switch ev.Ev {
		case EvBatch:
			rows += ev.Rec
		case EvCkpt:
			if ev.ID != lastID+1 {
				t.Errorf("checkpoint %d follows %d", ev.ID, lastID)
			}
			lastID = ev.ID
			if ev.Final {
				final++
			} else {
				periodic++
			}
			if ev.DurNS != ev.AlignNS+ev.SnapshotNS || ev.Bytes <= 0 {
				t.Errorf("checkpoint %d: dur %d != align %d + snapshot %d, or no bytes (%d)", ev.ID, ev.DurNS, ev.AlignNS, ev.SnapshotNS, ev.Bytes)
			}
			if ev.PauseNS <= 0 || ev.PauseNS > ev.SnapshotNS {
				t.Errorf("checkpoint %d: pause %d ns outside (0, snapshot %d ns]", ev.ID, ev.PauseNS, ev.SnapshotNS)
			}
			if next := evs[i+1]; next.Ev != EvCommit || next.ID != ev.ID {
				t.Errorf("checkpoint %d is followed by %q %d, want its commit", ev.ID, next.Ev, next.ID)
			}
		}
	}
	if want := int64(2000 + 1400); rows != want || evs[len(evs)-1].Rec != want {
		t.Errorf("batches report %d rows, done %d, want %d", rows, evs[len(evs)-1].Rec, want)
	}
	if periodic == 0 || final != 1 {
		t.Errorf("%d periodic and %d final checkpoints, want >0 and 1", periodic, final)
	}
	v, err := Verify(out, start, stop, nil)
	if err != nil || !v.OK() {
		t.Errorf("verdict %+v, %v", v, err)
	}
	if ents, _ := os.ReadDir(filepath.Join(out, stagingDir)); len(ents) != 0 {
		t.Errorf("%d staging files left after the final commit", len(ents))
	}
}

// With a Progress interval longer than the run, the only batch events are
// the first batch's and the ones before each checkpoint (the final one
// included); together they still cover
// every row, each checkpoint's split was reported by a batch event before it, and the last one
// carries the last batch's time.
func TestRunReaderCoalescedProgress(t *testing.T) {
	dir := t.TempDir()
	store, out := filepath.Join(dir, "store"), filepath.Join(dir, "out")
	start, stop := []int64{0, 100}, []int64{2000, 1500}
	evs, err := runInProcess(t, ReaderOptions{Store: store, Output: out, Progress: time.Hour}, start, stop, 97, nil)
	if err != nil {
		t.Fatal(err)
	}
	batches := (3400 + 96) / 97
	var rows int64
	var seen [][]int64 // the split of every batch event so far
	for i := range evs {
		ev := &evs[i]
		switch ev.Ev {
		case EvBatch:
			rows += ev.Rec
			seen = append(seen, ev.Split)
		case EvCkpt:
			if !slices.ContainsFunc(seen, func(s []int64) bool { return slices.Equal(s, ev.Split) }) {
				t.Errorf("checkpoint %d at %v: no batch event before it reported that position", ev.ID, ev.Split)
			}
		case EvDone:
			if evs[i-2].Ev != EvCkpt || !evs[i-2].Final {
				t.Errorf("done follows %q, want the final checkpoint and its commit", evs[i-2].Ev)
			}
		}
	}
	n, ckpts := count(evs, EvBatch), count(evs, EvCkpt)
	if n > ckpts+1 || n >= batches {
		t.Errorf("%d batch events for %d checkpoints and %d batches; want at most one per checkpoint and the first", n, ckpts, batches)
	}
	if done := evs[len(evs)-1]; rows != 3400 || done.Rec != 3400 {
		t.Errorf("batch events cover %d rows, done says %d, want 3400", rows, done.Rec)
	}
	if v, err := Verify(out, start, stop, nil); err != nil || !v.OK() {
		t.Errorf("verdict %+v, %v", v, err)
	}
}

// gatedFS holds every directory sync until the reader has handed out
// three more batches (or reached its end), as a disk slower than reading
// would: what the test asserts follows from the order of events, not from
// how long anything took.
type gatedFS struct {
	osFS
	mu      sync.Mutex
	cond    *sync.Cond
	batches int
	end     bool
}

func newGatedFS() *gatedFS {
	g := &gatedFS{}
	g.cond = sync.NewCond(&g.mu)
	return g
}

func (g *gatedFS) onBatch(done bool) {
	g.mu.Lock()
	if done {
		g.end = true
	} else {
		g.batches++
	}
	g.mu.Unlock()
	g.cond.Broadcast()
}

func (g *gatedFS) SyncDir(dir string) error {
	g.mu.Lock()
	for want := g.batches + 3; g.batches < want && !g.end; {
		g.cond.Wait()
	}
	g.mu.Unlock()
	return g.osFS.SyncDir(dir)
}

// The durable part of a checkpoint runs off the read path: while a
// checkpoint's directory syncs wait for the reader to read on, batches are
// reported between its barrier and its completion, and its pause (the
// synchronous part) ends before its snapshot does.
func TestRunReaderSnapshotIsAsync(t *testing.T) {
	dir := t.TempDir()
	store, out := filepath.Join(dir, "store"), filepath.Join(dir, "out")
	start, stop := []int64{0, 0}, []int64{10000, 10000}
	g := newGatedFS()
	opt := ReaderOptions{Store: store, Output: out, fs: g, trigger: &batchTrigger{every: 20}}
	evs, err := runInProcess(t, opt, start, stop, 50, g.onBatch)
	if err != nil {
		t.Fatal(err)
	}
	// The gate opens after three more batches or at the end of the read: a
	// checkpoint whose barrier has fewer than three batches after it may
	// have been released by the end, so only the others must overlap.
	batchesAfter := func(t int64) int {
		n := 0
		for _, e := range evs {
			if e.Ev == EvBatch && e.T > t {
				n++
			}
		}
		return n
	}
	var periodic, overlapped int
	for i, ck := range evs {
		if ck.Ev != EvCkpt || ck.Final {
			continue
		}
		if ck.PauseNS <= 0 || ck.PauseNS >= ck.SnapshotNS {
			t.Errorf("checkpoint %d: pause %v not inside its snapshot %v", ck.ID, time.Duration(ck.PauseNS), time.Duration(ck.SnapshotNS))
		}
		if batchesAfter(ck.Trigger+ck.AlignNS) < 3 {
			continue
		}
		periodic++
		// Batch events between the one that preceded the barrier and the
		// checkpoint's own event were read during its snapshot.
		boundary := ck.Trigger + ck.AlignNS
		for _, b := range evs[:i] {
			if b.Ev == EvBatch && b.T > boundary {
				overlapped++
				break
			}
		}
	}
	if periodic == 0 || overlapped != periodic {
		t.Errorf("%d of %d periodic checkpoints had batches read during their snapshot", overlapped, periodic)
	}
	if v, err := Verify(out, start, stop, nil); err != nil || !v.OK() {
		t.Errorf("verdict %+v, %v", v, err)
	}
}

// A store whose parent is a regular file cannot be written, even by root:
// every checkpoint fails visibly and nothing is committed.
func TestRunReaderStoreUnderFile(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "file"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	store, out := filepath.Join(dir, "file", "store"), filepath.Join(dir, "out")
	evs, err := runInProcess(t, ReaderOptions{Store: store, Output: out}, []int64{0}, []int64{3000}, 100, nil)
	if err == nil || !strings.Contains(err.Error(), "final checkpoint failed") {
		t.Fatalf("err = %v, want a failed final checkpoint", err)
	}
	if n := count(evs, EvCkptFailed); n < 2 {
		t.Errorf("%d ckpt-failed events, want the periodic ones and the final one", n)
	}
	if n := count(evs, EvCkpt) + count(evs, EvCommit); n != 0 {
		t.Errorf("%d checkpoints or commits reported with an unwritable store", n)
	}
	if count(evs, EvError) != 1 {
		t.Error("no error event")
	}
	v, err := Verify(out, []int64{0}, []int64{0}, nil)
	if err != nil || !v.OK() || v.Files != 0 {
		t.Errorf("committed output %+v, %v; want nothing", v, err)
	}
}

// A store that fails from checkpoint 3 on (a disk that fills up): the
// checkpoints before stay committed, exactly once, and nothing else is.
func TestRunReaderStoreFailsLater(t *testing.T) {
	dir := t.TempDir()
	store, out := filepath.Join(dir, "store"), filepath.Join(dir, "out")
	opt := ReaderOptions{Store: store, Output: out}
	opt.fs = &failingFS{store: store, fail: func(id int) bool { return id >= 3 }}
	evs, err := runInProcess(t, opt, []int64{0, 0}, []int64{3000, 3000}, 50, nil)
	if err == nil {
		t.Fatal("a failed final checkpoint did not fail the reader")
	}
	var split2 []int64
	for _, ev := range evs {
		if ev.Ev == EvCkpt && ev.ID == 2 {
			split2 = ev.Split
		}
	}
	if split2 == nil || count(evs, EvCkpt) != 2 || count(evs, EvCkptFailed) == 0 {
		t.Fatalf("want checkpoints 1 and 2 then failures; got %d ckpt, %d failed", count(evs, EvCkpt), count(evs, EvCkptFailed))
	}
	v, err := Verify(out, []int64{0, 0}, split2, nil)
	if err != nil || !v.OK() || v.Files == 0 {
		t.Errorf("committed output against checkpoint 2's split %v: %+v, %v", split2, v, err)
	}
}

func TestRunReaderBadOptions(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	dir := t.TempDir()
	ok := ReaderOptions{Store: filepath.Join(dir, "s"), Output: filepath.Join(dir, "o"), Restored: Restored{Start: []int64{0}}}
	for name, edit := range map[string]func(o *ReaderOptions){
		"no store":    func(o *ReaderOptions) { o.Store = "" },
		"no start":    func(o *ReaderOptions) { o.Restored.Start = nil },
		"negative iv": func(o *ReaderOptions) { o.Interval = -time.Second },
		"negative pg": func(o *ReaderOptions) { o.Progress = -time.Second },
	} {
		o := ok
		edit(&o)
		r := newFakeReader(mem, []int64{0}, []int64{10}, 5)
		if err := RunReader(context.Background(), r, o, io.Discard); err == nil {
			t.Errorf("%s: accepted", name)
		}
		r.Close()
	}
	// A source whose split state has another partition count than the start.
	o := ok
	o.Restored.Start = []int64{0, 0}
	r := newFakeReader(mem, []int64{0}, []int64{10}, 5)
	if err := RunReader(context.Background(), r, o, io.Discard); err == nil || !strings.Contains(err.Error(), "split state for 1 partitions") {
		t.Errorf("partition mismatch: err = %v", err)
	}
	r.Close()
	mem.AssertSize(t, 0)
}
