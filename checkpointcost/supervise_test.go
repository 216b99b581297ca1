package checkpointcost

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// testEvery is the supervised tests' checkpoint spacing, in batches.
const testEvery = 10

// superviseFake supervises test-binary readers over a fake source of
// batches*batch records spread over three partitions.
func superviseFake(t *testing.T, batch, batches, failures int, seed uint64, edit func(i int, c *childConfig)) (Result, error) {
	t.Helper()
	dir := t.TempDir()
	per := int64(batch * batches / 3)
	cfg := childConfig{
		Store: filepath.Join(dir, "store"), Output: filepath.Join(dir, "out"),
		Start: []int64{0, 10, 20}, Stop: []int64{per, 10 + per, 20 + per},
		Batch: batch, EveryBatches: testEvery,
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	return Supervise(ctx, SuperviseOptions{
		Store: cfg.Store, Output: cfg.Output, Start: cfg.Start, Stop: cfg.Stop,
		Failures: failures, Seed: seed,
		ReaderArgv: func(i int) []string {
			c := cfg
			if edit != nil {
				edit(i, &c)
			}
			return childArgv(c)
		},
		StallTimeout: 20 * time.Second,
	})
}

func TestSuperviseNoFailures(t *testing.T) {
	res, err := superviseFake(t, 256, 100, 0, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	v := res.Verdict
	if v.Lost != 0 || v.Dup != 0 || v.Records != 3*(256*100/3) {
		t.Errorf("verdict %+v", v)
	}
	if res.Ckpts == 0 || res.Readers != 1 || len(res.Failures) != 0 || res.Read != v.Records {
		t.Errorf("ckpts %d readers %d failures %d read %d", res.Ckpts, res.Readers, len(res.Failures), res.Read)
	}
	if res.CkptP50 > res.CkptP99 || res.CkptP99 > res.CkptMax || res.StateBytes <= 0 || res.RecPerSec() <= 0 {
		t.Errorf("inconsistent figures: %+v", res)
	}
}

// Seven kills at each of three batch sizes: every run stays exactly once,
// every restore takes the newest completed checkpoint, and replay is whole
// batches.
func TestSuperviseFailures(t *testing.T) {
	const kills = 7
	total := 0
	for i, c := range []struct{ batch, batches int }{{256, 200}, {4096, 160}, {65536, 120}} {
		batch := c.batch
		t.Run(fmt.Sprint("batch=", batch), func(t *testing.T) {
			res, err := superviseFake(t, batch, c.batches, kills, uint64(i+1), func(i int, c *childConfig) { c.Subtasks = i + 1 })
			if err != nil {
				t.Fatal(err)
			}
			if v := res.Verdict; v.Lost != 0 || v.Dup != 0 || v.Extra != 0 {
				t.Fatalf("verdict %+v", v)
			}
			if len(res.Failures) != kills || res.Readers != kills+1 {
				t.Fatalf("%d failures over %d readers, want %d over %d", len(res.Failures), res.Readers, kills, kills+1)
			}
			for k, n := range res.Subtasks {
				if n != k+1 || len(res.Subtasks) != res.Readers {
					t.Fatalf("subtasks per reader %v, want 1, 2, ... as each reported", res.Subtasks)
				}
			}
			var replay int64
			for _, f := range res.Failures {
				// Replay is whole batches: the ones read after the barrier
				// of the checkpoint the next reader restored.
				if f.Replay < 0 || f.Replay%int64(batch) != 0 {
					t.Errorf("failure of reader %d replayed %d records, not a whole number of %d-row batches", f.Reader, f.Replay, batch)
				}
				// That checkpoint is at least the newest one the killed
				// reader reported complete (it may be newer: one can
				// complete between the report and the kill).
				newest := 0
				for _, ck := range res.Checkpoints {
					if ck.Reader == f.Reader {
						newest = max(newest, ck.ID)
					}
				}
				if f.RestoredID == 0 || f.RestoredID < newest {
					t.Errorf("reader after failure of reader %d restored checkpoint %d; the killed reader had completed %d", f.Reader, f.RestoredID, newest)
				}
				if f.Startup < 0 || f.Catchup < 0 || f.Recover != f.Startup+f.Catchup {
					t.Errorf("recovery %v != startup %v + catch-up %v", f.Recover, f.Startup, f.Catchup)
				}
				replay += f.Replay
			}
			if replay == 0 {
				t.Error("no failure replayed anything")
			}
			if res.Read <= res.Verdict.Records {
				t.Errorf("readers read %d rows for %d records despite replays", res.Read, res.Verdict.Records)
			}
			t.Logf("ckpts %d p50 %v p99 %v align-p99 %v snapshot-p99 %v state %dB replay %.0f recover %v (startup %v catch-up %v) read %d in %v",
				res.Ckpts, res.CkptP50, res.CkptP99, res.AlignP99, res.SnapshotP99, res.StateBytes, res.ReplayRec, res.Recover, res.RecoverStartup, res.RecoverCatchup, res.Read, res.Window)
			total += len(res.Failures)
		})
	}
	if total < 20 {
		t.Errorf("%d failures injected in all, want at least 20", total)
	}
}

// Checkpoints 2 and 3 cannot be written (the store is full, then recovers):
// the run reports them and the output is still exactly once.
func TestSuperviseFailedCheckpoints(t *testing.T) {
	res, err := superviseFake(t, 256, 100, 0, 1, func(_ int, c *childConfig) { c.FailStore = []int{2, 3} })
	if err == nil || !strings.Contains(err.Error(), "2 checkpoints failed") {
		t.Fatalf("err = %v, want 2 failed checkpoints", err)
	}
	if res.FailedCheckpoints != 2 || !strings.Contains(res.FailedErr, "no space") {
		t.Errorf("failed %d (%q)", res.FailedCheckpoints, res.FailedErr)
	}
	if v := res.Verdict; !v.OK() || v.Records == 0 {
		t.Errorf("verdict %+v", v)
	}
}

func TestSuperviseBadReaders(t *testing.T) {
	dir := t.TempDir()
	base := SuperviseOptions{
		Store: filepath.Join(dir, "store"), Output: filepath.Join(dir, "out"),
		Start: []int64{0}, Stop: []int64{1000}, Stderr: io.Discard,
		StallTimeout: 10 * time.Second,
	}
	cases := []struct {
		name string
		argv []string
		want string
	}{
		{"not an event", []string{"/bin/echo", "hello"}, "not an event"},
		{"exits without done", []string{"/bin/true"}, "without its done event"},
		{"half a line", []string{"/bin/sh", "-c", `printf '{"ev":"sta'`}, "middle of an event line"},
		{"fails", []string{os.Args[0], childFlag, "{"}, "reader 0 failed"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			opt := base
			opt.ReaderArgv = func(int) []string { return c.argv }
			_, err := Supervise(context.Background(), opt)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("err = %v, want %q", err, c.want)
			}
		})
	}
	opt := base
	opt.ReaderArgv = func(int) []string { return []string{"/bin/sleep", "30"} }
	opt.StallTimeout = 50 * time.Millisecond
	if _, err := Supervise(context.Background(), opt); err == nil || !strings.Contains(err.Error(), "no event") {
		t.Errorf("stalled reader: err = %v", err)
	}
}

func TestSuperviseOptions(t *testing.T) {
	dir := t.TempDir()
	argv := func(int) []string { return []string{"/bin/true"} }
	ok := SuperviseOptions{Store: filepath.Join(dir, "s"), Output: filepath.Join(dir, "o"), Start: []int64{0}, Stop: []int64{100}, ReaderArgv: argv}
	cases := map[string]func(o *SuperviseOptions){
		"no store":          func(o *SuperviseOptions) { o.Store = "" },
		"no argv":           func(o *SuperviseOptions) { o.ReaderArgv = nil },
		"start/stop":        func(o *SuperviseOptions) { o.Start = nil },
		"stop before start": func(o *SuperviseOptions) { o.Stop = []int64{-1} },
		"negative failures": func(o *SuperviseOptions) { o.Failures = -1 },
		"range too short":   func(o *SuperviseOptions) { o.Failures = 95 },
	}
	for name, edit := range cases {
		o := ok
		edit(&o)
		if _, err := Supervise(context.Background(), o); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	writeCommitted(t, ok.Output, 1, run{0, 0, 1})
	if _, err := Supervise(context.Background(), ok); err == nil || !strings.Contains(err.Error(), "already holds") {
		t.Errorf("used output: err = %v", err)
	}
}
