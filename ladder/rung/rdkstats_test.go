package rung_test

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fastpathlab/fplab/cell"
	"github.com/fastpathlab/fplab/ladder/rung/rungtest"
	"github.com/fastpathlab/fplab/results"
)

// TestBoundedRdkStatsCell: a bounded cell of each librdkafka path runs
// with its tuning (read back from the client) and, with rdkstats, samples
// librdkafka's statistics, keeps them beside the live cells' files and
// reports what they say; franz refuses both.
func TestBoundedRdkStatsCell(t *testing.T) {
	for _, p := range []string{cell.PathRowwise, cell.PathShallow, cell.PathFast} {
		t.Run(p, func(t *testing.T) {
			c := testCell(t)
			c.Path, c.PartFetch, c.QueueMin, c.FetchWait, c.RdkStats = p, 65536, 2000, 10*time.Millisecond, 10*time.Millisecond
			c.LiveDir, c.Rep = t.TempDir(), 1
			r := rungtest.MustRun(t, c)
			if !strings.HasSuffix(r.Name, "/partfetch=65536/queuemin=2000/fetchwait=10ms/rdkstats=10ms") {
				t.Errorf("name %q", r.Name)
			}
			for _, w := range []string{"max.partition.fetch.bytes=65536", "queued.min.messages=2000", "fetch.wait.max.ms=10"} {
				if !strings.Contains(r.Out, w) {
					t.Errorf("result lacks %q\n%s", w, r.Out)
				}
			}
			u := r.Units()
			if u[results.UnitRdkStatsSamples] < 1 {
				t.Errorf("%s %v\n%s", results.UnitRdkStatsSamples, u[results.UnitRdkStatsSamples], r.Out)
			}
			if _, ok := u[results.UnitRdkFetchqMsgs]; !ok {
				t.Errorf("no %s\n%s", results.UnitRdkFetchqMsgs, r.Out)
			}
			// the fetches brought the records (a fetch's bytes are not held
			// to partfetch: a broker returns at least one whole batch)
			if rf, kb := u[results.UnitRdkRecPerFetch], u[results.UnitRdkKBPerFetch]; !(rf > 0) || !(kb > 0) {
				t.Errorf("%v rec/fetch, %v KB/fetch\n%s", rf, kb, r.Out)
			}
			checkRdkStats(t, results.StatsPath(c.LiveDir, r.Name, 1), r.Out)
			if !strings.Contains(r.Out, filepath.Base(results.StatsPath(c.LiveDir, r.Name, 1))) {
				t.Errorf("result does not name its statistics file\n%s", r.Out)
			}
		})
	}
	c := testCell(t)
	c.Path, c.RdkStats = cell.PathFranz, 10*time.Millisecond
	if _, err := rungtest.Run(t, c); err == nil || !strings.Contains(err.Error(), "does not read with it") {
		t.Errorf("franz with rdkstats: %v", err)
	}
}

// TestBatchQueueDrainCell: drain=batchqueue reads the whole corpus through
// rd_kafka_consume_batch_queue, every record verified, and says so; the
// paths that poll refuse it.
func TestBatchQueueDrainCell(t *testing.T) {
	c := testCell(t)
	c.Drain = cell.DrainBatchQueue
	r := rungtest.MustRun(t, c)
	if r.Iters != records || !strings.HasSuffix(r.Name, "/drain=batchqueue") || !strings.Contains(r.Out, "client-drain: rd_kafka_consume_batch_queue") {
		t.Fatalf("%q, %d records\n%s", r.Name, r.Iters, r.Out)
	}
	c.Path = cell.PathShallow
	if _, err := rungtest.Run(t, c); err == nil || !strings.Contains(err.Error(), "fast path's crossing") {
		t.Errorf("shallow with drain=batchqueue: %v", err)
	}
}
