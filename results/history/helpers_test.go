package history

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/fastpathlab/fplab/internal/pgtest"
	"github.com/fastpathlab/fplab/results"
)

// engines are the two kinds of store every store test runs on.
var engines = []struct {
	name string
	url  func(t *testing.T) string
}{
	{"sqlite", func(t *testing.T) string { return filepath.Join(t.TempDir(), "h", "history.sqlite") }},
	{"postgres", func(t *testing.T) string { return pgtest.Database(t) }},
}

// eachEngine runs f once per engine, each with a store of its own that is
// closed when the subtest ends.
func eachEngine(t *testing.T, f func(t *testing.T, url string)) {
	for _, e := range engines {
		t.Run("engine="+e.name, func(t *testing.T) { f(t, e.url(t)) })
	}
}

func openStore(t *testing.T, url string) *Store {
	t.Helper()
	s, err := Open(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// fixture is a run directory's content before it is written.
type fixture struct {
	id     string
	commit string
	dirty  bool
	host   string
	start  time.Time
	// rate is the fast cell's rec/s, each rep a little apart.
	rate float64
	reps int
	// unfinished leaves the manifest without an end; torn appends half a row.
	unfinished, torn bool
	format           int
}

const (
	fastCell = "path=fast/format=json/batch=8192/brokers=1/alloc=go/crc=off"
	aaCell   = "path=fast/format=raw/batch=8192/brokers=1/alloc=go/crc=off"
)

func newFixture(id string, rate float64) fixture {
	return fixture{id: id, commit: "c-" + id, host: "vm", start: time.Date(2026, 12, 7, 6, 0, 0, 0, time.UTC), rate: rate, reps: 6}
}

// write makes the run directory under dir and returns its path.
func (f fixture) write(t *testing.T, dir string) string {
	t.Helper()
	rd := filepath.Join(dir, f.id)
	if err := os.MkdirAll(rd, 0o755); err != nil {
		t.Fatal(err)
	}
	m := results.Manifest{
		Host:      results.Fingerprint{Hostname: f.host, CPUModel: "test cpu", Cores: 2, Arch: "amd64", Kernel: "6.1", Governor: "unknown", SMT: "on", THP: "madvise"},
		GoVersion: "go1.26.8", Librdkafka: "2.11.1", GitCommit: f.commit, GitDirty: f.dirty,
		Start: f.start, BuildFlags: "-trimpath=true CGO_ENABLED=1", Format: f.format,
		Spec: []byte(`{"spec":{"name":"fixture"}}`),
	}
	if !f.unfinished {
		m.End = f.start.Add(time.Minute)
	}
	if err := results.WriteManifest(rd, m); err != nil {
		t.Fatal(err)
	}
	j, err := results.OpenJournal(filepath.Join(rd, results.JournalFile))
	if err != nil {
		t.Fatal(err)
	}
	at := f.start
	row := func(cellName string, rep int, ok bool, ms ...results.Metric) {
		at = at.Add(time.Second)
		r := results.Row{Cell: cellName, Rep: rep, OK: ok, Metrics: ms, Iters: 1000, Start: at, End: at.Add(time.Second)}
		if !ok {
			r.Reason = "verify: batch 3 differs"
		}
		if err := j.Append(r); err != nil {
			t.Fatal(err)
		}
	}
	for rep := 0; rep < f.reps; rep++ {
		v := f.rate * (1 + 0.001*float64(rep))
		row(fastCell, rep, true, results.Metric{Unit: "rec/s", Value: v}, results.Metric{Unit: "ns/rec", Value: 1e9 / v})
		for _, side := range []string{"a", "b"} {
			w := 2e6 * (1 + 0.002*float64(rep))
			if side == "b" {
				w *= 1.001
			}
			row(aaCell+"/aa="+side, rep, true, results.Metric{Unit: "rec/s", Value: w})
		}
	}
	// A failed repetition, retried: the retry is the row that stands.
	row(fastCell, f.reps, false)
	row(fastCell, f.reps, true, results.Metric{Unit: "rec/s", Value: f.rate}, results.Metric{Unit: "ns/rec", Value: 1e9 / f.rate})
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	if f.torn {
		fh, err := os.OpenFile(filepath.Join(rd, results.JournalFile), os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprint(fh, `{"cell":"path=fast`)
		fh.Close()
	}
	return rd
}

func readRun(t *testing.T, dir string) results.Run {
	t.Helper()
	r, err := results.ReadRun(dir)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// count is the store's row count in table.
func count(t *testing.T, s *Store, table string) int {
	t.Helper()
	var n int
	if err := s.db.QueryRow("SELECT COUNT(*) FROM " + table).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}
