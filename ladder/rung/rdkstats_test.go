package rung_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fastpathlab/fplab/cell"
	"github.com/fastpathlab/fplab/clusters"
	"github.com/fastpathlab/fplab/ladder/rung/rungtest"
	"github.com/fastpathlab/fplab/ladder/rungargs"
	"github.com/fastpathlab/fplab/results"
	"github.com/fastpathlab/fplab/workloads"
)

// TestBoundedRdkStatsCell: a bounded cell of each librdkafka path runs
// with its tuning (read back from the client) and, with rdkstats, samples
// librdkafka's statistics, keeps them beside the live cells' files and
// reports what they say; franz refuses both.
func TestBoundedRdkStatsCell(t *testing.T) {
	for _, p := range []string{cell.PathRowwise, cell.PathShallow, cell.PathFast} {
		t.Run(p, func(t *testing.T) {
			c := testCell(t)
			// a read long enough for several 10 ms statistics intervals on
			// any path: the fast path reads the shared 6000 records within
			// one, before librdkafka's first document
			c.Topic, c.Records = longTopic(t)
			c.Path, c.PartFetch, c.QueueMin, c.FetchWait, c.RdkStats = p, 1024, 100, 10*time.Millisecond, 10*time.Millisecond
			c.LiveDir, c.Rep = t.TempDir(), 1
			r := rungtest.MustRun(t, c)
			if !strings.HasSuffix(r.Name, "/partfetch=1024/queuemin=100/fetchwait=10ms/rdkstats=10ms") {
				t.Errorf("name %q", r.Name)
			}
			for _, w := range []string{"max.partition.fetch.bytes=1024", "queued.min.messages=100", "fetch.wait.max.ms=10"} {
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
			// once a document counts a Fetch request, the fetches' figures
			// are reported (a fast read of this small topic may end before
			// the first document that does; a fetch's bytes are not held to
			// partfetch: a broker returns at least one whole batch)
			path := results.StatsPath(c.LiveDir, r.Name, 1)
			checkRdkStats(t, path, r.Out)
			rf, hasRF := u[results.UnitRdkRecPerFetch]
			kb, hasKB := u[results.UnitRdkKBPerFetch]
			if fetched := statsFetched(t, path); fetched != (hasRF && hasKB) || fetched && !(rf > 0 && kb > 0) {
				t.Errorf("documents count fetches: %v; %v rec/fetch, %v KB/fetch\n%s", fetched, rf, kb, r.Out)
			}
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

var (
	longOnce sync.Once
	longErr  error
)

// longTopic loads, once, the test corpus at longRecords records into a
// topic of its own on the shared cluster.
func longTopic(t *testing.T) (string, int) {
	t.Helper()
	const topic, longRecords = "bid-json-s3-n200000", 200_000
	bs, _ := cluster(t)
	longOnce.Do(func() {
		s, _ := workloads.SchemaByName("bid")
		codec, _ := workloads.NewCodec(workloads.FormatJSON, s)
		c := workloads.NewCorpus(s, codec, 3, longRecords)
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		_, longErr = clusters.Load(ctx, clusters.Cluster{Bootstrap: bs}, topic, parts, longRecords, c.Message)
	})
	if longErr != nil {
		t.Fatal(longErr)
	}
	return topic, longRecords
}

// statsFetched reports whether any statistics document in path counts a
// Fetch request sent to a broker.
func statsFetched(t *testing.T, path string) bool {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var doc struct {
			Brokers map[string]struct {
				NodeID int              `json:"nodeid"`
				Req    map[string]int64 `json:"req"`
			} `json:"brokers"`
		}
		if err := json.Unmarshal([]byte(l), &doc); err != nil {
			t.Fatal(err)
		}
		for _, br := range doc.Brokers {
			if br.NodeID >= 0 && br.Req["Fetch"] > 0 {
				return true
			}
		}
	}
	return false
}

// TestBatchQueueDrainCell: drain=batchqueue reads the whole corpus through
// rd_kafka_consume_batch_queue, every record verified, and says so; the
// paths that poll refuse it.
func TestBatchQueueDrainCell(t *testing.T) {
	c := testCell(t)
	c.Drain = cell.DrainBatchQueue
	if !drainCellReads(t, c, "/drain=batchqueue", "client-drain: rd_kafka_consume_batch_queue") {
		t.FailNow()
	}
	c.Path = cell.PathShallow
	if _, err := rungtest.Run(t, c); err == nil || !strings.Contains(err.Error(), "fast path's crossing") {
		t.Errorf("shallow with drain=batchqueue: %v", err)
	}
}

// TestAheadDrainCell: drain=ahead reads the whole corpus with its next
// crossing under way while one is decoded, every record verified, and
// says so; a live cell refuses it.
func TestAheadDrainCell(t *testing.T) {
	c := testCell(t)
	c.Drain = cell.DrainAhead
	if !drainCellReads(t, c, "/drain=ahead", "client-drain: rd_kafka_consume_callback_queue, one crossing ahead") {
		t.FailNow()
	}
	c.Mode, c.Rate, c.Linger = cell.ModeLive, 1000, 10*time.Millisecond
	if _, err := rungtest.Run(t, c); err == nil || !strings.Contains(err.Error(), "drain=ahead runs on bounded reads") {
		t.Errorf("live with drain=ahead: %v", err)
	}
}

// TestDefaultDrainCell runs the fast path's default drain: a decoded cell
// naming none crosses ahead, raw and drain=callback with the callback
// drain, and no default is written into the name.
func TestDefaultDrainCell(t *testing.T) {
	for _, tc := range []struct {
		format, drain, suffix, crossed string
	}{
		{cell.FormatJSON, "", "/crc=off", "client-drain: rd_kafka_consume_callback_queue, one crossing ahead\n"},
		{cell.FormatRaw, "", "/crc=off", "client-drain: rd_kafka_consume_callback_queue\n"},
		{cell.FormatJSON, cell.DrainCallback, "/drain=callback", "client-drain: rd_kafka_consume_callback_queue\n"},
	} {
		c := testCell(t)
		c.Format, c.Drain = tc.format, tc.drain
		drainCellReads(t, c, tc.suffix, tc.crossed)
	}
}

// drainCellReads runs a fast cell and reports whether it read the whole
// corpus under a name ending in suffix with the client-drain line crossed;
// it marks the test failed, with the cell's output, when not.
func drainCellReads(t *testing.T, c rungargs.Cell, suffix, crossed string) bool {
	t.Helper()
	r := rungtest.MustRun(t, c)
	if r.Iters != records || !strings.HasSuffix(r.Name, suffix) || !strings.Contains(r.Out, crossed) {
		t.Errorf("drain=%q: %q, %d records\n%s", c.Drain, r.Name, r.Iters, r.Out)
		return false
	}
	return true
}
