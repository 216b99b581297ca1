package checkpointcost

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"path/filepath"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/memory"
)

// A reader whose interval never fires reaches its planned failure with no
// checkpoint of its own: it takes one there, waits for it, reports the
// halt at the first boundary past the target and reads nothing more.
func TestRunReaderHaltsAtPlan(t *testing.T) {
	dir := t.TempDir()
	start, stop := []int64{0, 0}, []int64{1000, 1000}
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	r := newFakeReader(mem, start, stop, 64)
	defer r.Close()
	opt := ReaderOptions{
		Store: filepath.Join(dir, "store"), Output: filepath.Join(dir, "out"),
		Interval: time.Hour, Restored: Restored{Start: start},
		Plan: Plan{Halt: true, HaltAt: 700, RangeStart: start},
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pr, pw := io.Pipe()
	errc := make(chan error, 1)
	go func() {
		errc <- RunReader(ctx, r, opt, pw)
		pw.Close()
	}()
	var evs []Event
	sc := bufio.NewScanner(pr)
	for sc.Scan() {
		var ev Event
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
			t.Fatal(err)
		}
		evs = append(evs, ev)
		if ev.Ev == EvHalt {
			cancel() // stands in for the supervisor's SIGKILL
		}
	}
	if err := <-errc; !errors.Is(err, ErrHalted) {
		t.Fatalf("RunReader = %v, want ErrHalted", err)
	}
	last := evs[len(evs)-1]
	if last.Ev != EvHalt {
		t.Fatalf("last event %q, want halt", last.Ev)
	}
	var rows int64
	var forced *Event
	for i := range evs {
		switch evs[i].Ev {
		case EvBatch:
			rows += evs[i].Rec
		case EvCkpt:
			forced = &evs[i]
		case EvDone:
			t.Error("a halted reader reported done")
		}
	}
	// 64-row batches: the first boundary at or past 700 is 704.
	if rows != 704 || last.Split[0]+last.Split[1] != 704 {
		t.Errorf("halted after %d rows at %v, want the boundary at 704", rows, last.Split)
	}
	if forced == nil || !forced.Forced || forced.Final || forced.Split[0]+forced.Split[1] != 704 {
		t.Errorf("checkpoint at the failure point: %+v, want a forced one at 704", forced)
	}
	if last.WaitNS <= 0 {
		t.Errorf("halt waited %d ns for a forced checkpoint, want > 0", last.WaitNS)
	}
	mem.AssertSize(t, 0)
}

// Without a checkpoint due in the whole range (interval an hour) every
// planned failure still lands: the readers take their checkpoints at the
// failure points, and the output stays exactly once. Before plans, a kill
// waited for a periodic checkpoint and a fast or slow host left kills
// unplaced.
func TestSuperviseFailuresWithoutPeriodicCheckpoints(t *testing.T) {
	const kills = 5
	res, err := superviseFake(t, 128, 60, kills, 3, func(_ int, c *childConfig) {
		c.EveryBatches, c.Interval = 0, time.Hour
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Failures) != kills || res.Forced != kills || res.Ckpts != 0 {
		t.Errorf("%d failures, %d forced and %d periodic checkpoints; want %d, %d, 0", len(res.Failures), res.Forced, res.Ckpts, kills, kills)
	}
	for _, f := range res.Failures {
		if f.Replay != 0 || f.Wait <= 0 {
			t.Errorf("reader %d: replay %d after a checkpoint taken at the failure point (want 0), waited %v", f.Reader, f.Replay, f.Wait)
		}
	}
	if v := res.Verdict; !v.OK() || v.Records != 3*(128*60/3) {
		t.Errorf("verdict %+v", v)
	}
}

// A batch larger than the whole range puts every failure point at the end
// of the range: each reader halts there (before its final checkpoint),
// the readers after it restore at the end and have nothing to read, and
// the last one finishes.
func TestSuperviseFailuresAtTheEnd(t *testing.T) {
	const kills = 3
	res, err := superviseFake(t, 4096, 1, kills, 5, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Failures) != kills || res.Readers != kills+1 {
		t.Fatalf("%d failures over %d readers, want %d over %d", len(res.Failures), res.Readers, kills, kills+1)
	}
	if v := res.Verdict; !v.OK() || v.Records == 0 {
		t.Errorf("verdict %+v", v)
	}
}
