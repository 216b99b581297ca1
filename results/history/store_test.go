package history

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fastpathlab/fplab/results"
)

func TestAddThenSeries(t *testing.T) {
	eachEngine(t, func(t *testing.T, url string) {
		ctx := context.Background()
		s := openStore(t, url)
		dir := t.TempDir()
		old := newFixture("20261201T000000Z-vm", 1e6)
		new := newFixture("20261202T000000Z-vm", 1.2e6)
		new.start = old.start.Add(24 * time.Hour)
		a, err := s.Add(ctx, readRun(t, old.write(t, dir)), WithCommitTime(old.start.Add(-time.Hour)))
		if err != nil {
			t.Fatal(err)
		}
		// 7 fast reps (the retried one once), 6 reps of each A/A side.
		if a.Outcome != Stored || a.Reps != 19 || a.Samples != 7*2+12 || a.Dirty {
			t.Fatalf("first add = %+v, want stored, 19 reps, 26 samples", a)
		}
		if _, err := s.Add(ctx, readRun(t, new.write(t, dir))); err != nil {
			t.Fatal(err)
		}
		again, err := s.Add(ctx, readRun(t, filepath.Join(dir, old.id)))
		if err != nil || again.Outcome != Unchanged {
			t.Fatalf("second add of one run = %+v, %v; want unchanged", again, err)
		}
		if n := count(t, s, "samples"); n != 52 {
			t.Errorf("samples after adding two runs (one twice) = %d, want 52", n)
		}
		runs, err := s.Runs(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if len(runs) != 2 || runs[0].ID != old.id || runs[0].Reps != 19 || runs[0].Failed != 0 || runs[0].Samples != 26 ||
			runs[0].Commit != old.commit || !runs[0].CommitTime.Equal(old.start.Add(-time.Hour)) || !runs[1].CommitTime.IsZero() {
			t.Fatalf("runs = %+v", runs)
		}
		host := runs[0].HostKey
		series, err := s.Series(ctx, fastCell, "rec/s", host)
		if err != nil {
			t.Fatal(err)
		}
		if len(series) != 2 || series[0].Run.ID != old.id || series[1].Run.ID != new.id {
			t.Fatalf("series = %+v, want the old run then the new", series)
		}
		want := []float64{1e6, 1.001e6, 1.002e6, 1.003e6, 1.004e6, 1.005e6, 1e6}
		if got := series[0].Values; len(got) != len(want) {
			t.Fatalf("old run's values = %v, want %v", got, want)
		}
		for i, v := range want {
			if math.Abs(series[0].Values[i]-v) > 1e-6 {
				t.Errorf("old run's value %d = %v, want %v (rep order, the retry standing)", i, series[0].Values[i], v)
			}
		}
		aa, err := s.Series(ctx, aaCell+"/aa=a", "rec/s", host)
		if err != nil {
			t.Fatal(err)
		}
		if len(aa) != 2 || !aa[0].Floor.Known() || aa[0].Floor.Pairs != 1 || aa[0].Floor.Detectable <= 0 {
			t.Fatalf("A/A series floor = %+v, want one pair with a detectable difference", aa[0].Floor)
		}
		if f := series[0].Floor; !f.Known() || f.Detectable != aa[0].Floor.Detectable {
			t.Errorf("a cell's point carries its run's rec/s floor: got %+v, want %+v", f, aa[0].Floor)
		}
		if other, err := s.Series(ctx, fastCell, "rec/s", "another host"); err != nil || len(other) != 0 {
			t.Errorf("series on a host with no runs = %v, %v; want none", other, err)
		}
	})
}

func TestAddRefuses(t *testing.T) {
	eachEngine(t, func(t *testing.T, url string) {
		ctx := context.Background()
		s := openStore(t, url)
		dir := t.TempDir()
		kept := newFixture("20261201T000000Z-vm", 1e6)
		keptDir := kept.write(t, dir)
		if _, err := s.Add(ctx, readRun(t, keptDir)); err != nil {
			t.Fatal(err)
		}
		before := count(t, s, "samples")
		unfinished := newFixture("20261203T000000Z-vm", 1e6)
		unfinished.unfinished = true
		torn := newFixture("20261204T000000Z-vm", 1e6)
		torn.torn = true
		newer := newFixture("20261205T000000Z-vm", 1e6)
		newer.format = results.RunFormat + 1
		for _, c := range []struct {
			run  string
			want error
			says string
		}{
			{unfinished.write(t, dir), ErrIncomplete, "fplab ladder --resume"},
			{torn.write(t, dir), ErrIncomplete, "torn"},
			{newer.write(t, dir), ErrNewerRun, fmt.Sprintf("layout %d", results.RunFormat+1)},
		} {
			_, err := s.Add(ctx, readRun(t, c.run))
			if !errors.Is(err, c.want) || !strings.Contains(err.Error(), c.says) || !strings.Contains(err.Error(), filepath.Base(c.run)) {
				t.Errorf("add %s: err = %v, want %v naming the run and saying %q", filepath.Base(c.run), err, c.want, c.says)
			}
		}
		// The stored run's directory changes: one more repetition.
		changed := kept
		changed.reps++
		os.RemoveAll(keptDir)
		_, err := s.Add(ctx, readRun(t, changed.write(t, dir)))
		if !errors.Is(err, ErrConflict) || !strings.Contains(err.Error(), kept.id) {
			t.Errorf("add of a stored run with other rows: err = %v, want ErrConflict naming it", err)
		}
		if n, runs := count(t, s, "samples"), count(t, s, "runs"); n != before || runs != 1 {
			t.Errorf("after refusals: %d samples in %d runs, want %d in 1 (nothing written)", n, runs, before)
		}
	})
}

func TestDirtyRunKeptAndMarked(t *testing.T) {
	eachEngine(t, func(t *testing.T, url string) {
		ctx := context.Background()
		s := openStore(t, url)
		f := newFixture("20261201T000000Z-vm", 1e6)
		f.dirty = true
		a, err := s.Add(ctx, readRun(t, f.write(t, t.TempDir())))
		if err != nil || a.Outcome != Stored || !a.Dirty {
			t.Fatalf("add of a dirty run = %+v, %v; want stored and marked", a, err)
		}
		runs, err := s.Runs(ctx)
		if err != nil || len(runs) != 1 || !runs[0].Dirty {
			t.Fatalf("runs = %+v, %v; want the run, marked dirty", runs, err)
		}
	})
}

func TestNewerSchemaRefused(t *testing.T) {
	eachEngine(t, func(t *testing.T, url string) {
		ctx := context.Background()
		s := openStore(t, url)
		if _, err := s.db.Exec(s.q(`UPDATE fplab_schema SET version = ?`), SchemaVersion+1); err != nil {
			t.Fatal(err)
		}
		if _, err := s.db.Exec(`DROP TABLE floors`); err != nil {
			t.Fatal(err)
		}
		_, err := Open(ctx, url)
		if !errors.Is(err, ErrNewerSchema) || !strings.Contains(err.Error(), "use a newer fplab") {
			t.Fatalf("open of a newer store: err = %v, want ErrNewerSchema", err)
		}
		// Refused, not repaired: the version and the missing table stay.
		var v int
		if err := s.db.QueryRow(`SELECT version FROM fplab_schema`).Scan(&v); err != nil || v != SchemaVersion+1 {
			t.Errorf("schema version after the refusal = %d, %v; want %d", v, err, SchemaVersion+1)
		}
		var n int
		if err := s.db.QueryRow(`SELECT COUNT(*) FROM fplab_schema`).Scan(&n); err != nil || n != 1 {
			t.Errorf("schema rows = %d, %v; want 1", n, err)
		}
	})
}

// Writers in separate handles (separate connections, as two fplab
// processes have) add runs at once: every row lands, and of two writers
// adding one run, one stores it and the other finds it stored.
func TestConcurrentWriters(t *testing.T) {
	eachEngine(t, func(t *testing.T, url string) {
		ctx := context.Background()
		openStore(t, url) // create the schema before the race
		dir := t.TempDir()
		const writers = 6
		var runs []string
		for i := range writers {
			f := newFixture(fmt.Sprintf("2026120%dT000000Z-vm", i+1), 1e6+float64(i))
			runs = append(runs, f.write(t, dir))
		}
		runs = append(runs, runs[0]) // the first run twice
		start := make(chan struct{})
		var wg sync.WaitGroup
		outcomes := make([]Outcome, len(runs))
		errs := make([]error, len(runs))
		for i, rd := range runs {
			s := openStore(t, url)
			run := readRun(t, rd)
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				a, err := s.Add(ctx, run)
				outcomes[i], errs[i] = a.Outcome, err
			}()
		}
		close(start)
		wg.Wait()
		stored := 0
		for i, err := range errs {
			if err != nil {
				t.Fatalf("writer %d: %v", i, err)
			}
			if outcomes[i] == Stored {
				stored++
			}
		}
		if stored != writers {
			t.Errorf("%d adds stored, want %d (the run added twice stored once): %v", stored, writers, outcomes)
		}
		s := openStore(t, url)
		if n := count(t, s, "samples"); n != writers*26 {
			t.Errorf("samples = %d, want %d", n, writers*26)
		}
	})
}

func TestOpenRefusesNothingGiven(t *testing.T) {
	if _, err := Open(context.Background(), ""); err == nil {
		t.Fatal("open with no store: want an error")
	}
	if _, err := Open(context.Background(), "postgres://fplab@127.0.0.1:1/x?sslmode=disable&connect_timeout=5"); err == nil {
		t.Fatal("open of a store nothing listens for: want an error")
	}
}

// A store written at schema 1 opens at the current schema: the steps
// after 1 taken in order, its runs kept (with no spec name).
func TestMigratesAnOlderStore(t *testing.T) {
	eachEngine(t, func(t *testing.T, url string) {
		ctx := context.Background()
		old, err := open(url)
		if err != nil {
			t.Fatal(err)
		}
		for _, stmt := range append([]string{`CREATE TABLE fplab_schema (version INTEGER NOT NULL)`, `INSERT INTO fplab_schema (version) VALUES (1)`}, migrations[1]...) {
			if _, err := old.db.Exec(stmt); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := old.db.Exec(old.q(`INSERT INTO runs (run_key, run_id, git_commit, git_dirty, host_key, hostname, arch, cpu_model, cores,
			go_version, librdkafka, build_flags, emulated, run_format, started, ended, digest, added)
			VALUES (?, 'r1', 'c1', 0, 'h', 'h', 'amd64', 'cpu', 2, 'go', '2', '', 0, 1, '2026-12-01T00:00:00Z', '2026-12-01T00:01:00Z', 'd', 'a')`), keyOf("r1")); err != nil {
			t.Fatal(err)
		}
		old.Close()
		s := openStore(t, url)
		var v int
		if err := s.db.QueryRow(`SELECT version FROM fplab_schema`).Scan(&v); err != nil || v != SchemaVersion {
			t.Fatalf("version after open = %d, %v; want %d", v, err, SchemaVersion)
		}
		runs, err := s.Runs(ctx)
		if err != nil || len(runs) != 1 || runs[0].ID != "r1" || runs[0].Spec != "" {
			t.Fatalf("runs after the migration = %+v, %v", runs, err)
		}
		f := newFixture("20261201T000000Z-vm", 1e6)
		if _, err := s.Add(ctx, readRun(t, f.write(t, t.TempDir()))); err != nil {
			t.Fatal(err)
		}
	})
}
