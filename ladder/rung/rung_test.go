package rung_test

import (
	"context"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fastpathlab/fplab/cell"
	"github.com/fastpathlab/fplab/clusters"
	"github.com/fastpathlab/fplab/clusters/clusterstest"
	"github.com/fastpathlab/fplab/ladder/rung"
	"github.com/fastpathlab/fplab/ladder/rung/rungtest"
	"github.com/fastpathlab/fplab/ladder/rungargs"
	"github.com/fastpathlab/fplab/results"
	"github.com/fastpathlab/fplab/source/consume"
	"github.com/fastpathlab/fplab/workloads"
)

const (
	parts   = 3
	records = 6000
)

var (
	stops []func()
	once  sync.Once
	bs    []string
)

func TestMain(m *testing.M) {
	clusterstest.BrokerMain()
	// A checkpointing cell starts its readers as `<this binary> rung ...`.
	if len(os.Args) > 1 && os.Args[1] == "rung" {
		os.Exit(rungMain(os.Args[2:]))
	}
	code := m.Run()
	for _, f := range stops {
		f()
	}
	os.Exit(code)
}

// cluster starts one 3-broker embedded cluster for the package and loads
// a json corpus into it.
func cluster(t *testing.T) ([]string, string) {
	t.Helper()
	once.Do(func() {
		e, err := clusters.StartEmbedded(context.Background(), clusterstest.SelfArgv(3, parts), clusterstest.StartTimeout)
		if err != nil {
			t.Fatal(err)
		}
		stops = append(stops, func() { _ = e.Stop() })
		s, _ := workloads.SchemaByName("bid")
		codec, _ := workloads.NewCodec(workloads.FormatJSON, s)
		c := workloads.NewCorpus(s, codec, 3, records)
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if _, err := clusters.Load(ctx, clusters.Cluster{Bootstrap: e.Bootstrap()}, c.ID(), parts, records, c.Message); err != nil {
			t.Fatal(err)
		}
		// The same corpus compressed, for the compression cells.
		for _, codec := range []string{cell.CompressionLZ4, cell.CompressionZstd} {
			if _, err := clusters.Load(ctx, clusters.Cluster{Bootstrap: e.Bootstrap()}, c.ID()+"-"+codec, parts, records, c.Message,
				clusters.WithCompression(codec)); err != nil {
				t.Fatal(err)
			}
		}
		bs = e.Bootstrap()
	})
	if bs == nil {
		t.Fatal("no cluster")
	}
	return bs, "bid-json-s3-n6000"
}

func testCell(t *testing.T) rungargs.Cell {
	b, topic := cluster(t)
	return rungargs.Cell{
		Cell:      cell.Cell{Path: cell.PathFast, Format: cell.FormatJSON, Batch: 512, Brokers: 3, Alloc: cell.AllocGo, Cluster: cell.ClusterEmbedded, Compression: cell.CompressionNone},
		Bootstrap: b, Topic: topic, Partitions: parts, Records: records,
		Seed: 3, Schema: "bid", Timeout: time.Minute, HashCache: t.TempDir(),
	}
}

func TestRunPrintsBenchfmtPerPath(t *testing.T) {
	for _, p := range consume.Paths() {
		t.Run(string(p), func(t *testing.T) {
			c := testCell(t)
			c.Path = string(p)
			c.AA = "a"
			r := rungtest.MustRun(t, c)
			if want := "path=" + string(p) + "/format=json/batch=512/brokers=3/alloc=go/crc=off/aa=a"; r.Name != want {
				t.Errorf("name %q, want %q", r.Name, want)
			}
			if r.Iters != records {
				t.Errorf("iters %d, want %d", r.Iters, records)
			}
			got := r.Units()
			for _, u := range []string{"rec/s", "MB/s", "ns/rec", "cpu-ns/rec", "B/rec", "allocs/rec", "peak-RSS-MB", "path-peak-RSS-MB", "harness-RSS-MB", "arrow-peak-MB", "startup-ms", "window-ms"} {
				if v, ok := got[u]; !ok || v < 0 || (u == "rec/s" && v <= 0) {
					t.Errorf("metric %s = %v (present %v)", u, v, ok)
				}
			}
			// the process's peak split at the path's open: both sides
			// hold something, and the path held Arrow buffers
			if got["harness-RSS-MB"] <= 0 || got["path-peak-RSS-MB"] <= 0 || got["arrow-peak-MB"] <= 0 {
				t.Errorf("harness-RSS-MB %v, path-peak-RSS-MB %v, arrow-peak-MB %v: want all above 0",
					got["harness-RSS-MB"], got["path-peak-RSS-MB"], got["arrow-peak-MB"])
			}
			t.Logf("peak-RSS-MB %.1f = harness %.1f + path %.1f (arrow peak %.2f)", got["peak-RSS-MB"], got["harness-RSS-MB"], got["path-peak-RSS-MB"], got["arrow-peak-MB"])
			// Every batch's check but the last lies inside the window, so
			// the verify share is positive and below the whole.
			if v := got["verify-ns/rec"]; !(v > 0 && v < got["ns/rec"]) {
				t.Errorf("verify-ns/rec %v, want in (0, ns/rec %v)", v, got["ns/rec"])
			}
			if _, ok := got["rec/crossing"]; ok != (p == consume.PathFast) {
				t.Errorf("rec/crossing present=%v for path %s", ok, p)
			}
			if r.Config["commit"] != rungtest.Build.Commit || r.Config["goos"] == "" || r.Config["alloc-version"] == "" {
				t.Errorf("config %v", r.Config)
			}
		})
	}
}

// TestCompressedCorpusOnEveryPath: every path delivers a compressed
// corpus record for record (the rung verifies every batch against the
// generator), the cell's name says the codec, and a cell that claims
// another codec than the stored one fails.
func TestCompressedCorpusOnEveryPath(t *testing.T) {
	for _, codec := range []string{cell.CompressionLZ4, cell.CompressionZstd} {
		for _, p := range consume.Paths() {
			t.Run(codec+"/"+string(p), func(t *testing.T) {
				c := testCell(t)
				c.Path, c.Compression, c.Topic = string(p), codec, c.Topic+"-"+codec
				r := rungtest.MustRun(t, c)
				if r.Iters != records {
					t.Fatalf("%d records\n%s", r.Iters, r.Out)
				}
				if want := "path=" + string(p) + "/format=json/batch=512/brokers=3/alloc=go/crc=off/compression=" + codec; r.Name != want {
					t.Errorf("name %q, want %q", r.Name, want)
				}
			})
		}
	}
	c := testCell(t)
	c.Compression, c.Topic = cell.CompressionNone, c.Topic+"-"+cell.CompressionLZ4
	if _, err := rungtest.Run(t, c); err == nil || !strings.Contains(err.Error(), "claims compression=none but topic") {
		t.Errorf("a plain cell on an lz4 corpus: %v", err)
	}
}

func TestRunRefusesFalseClaims(t *testing.T) {
	cases := []struct {
		name string
		mod  func(*rungargs.Cell)
		want string
	}{
		{"broker count", func(c *rungargs.Cell) { c.Brokers = 1 }, "cluster metadata lists 3"},
		{"allocator", func(c *rungargs.Cell) { c.Alloc = "mimalloc2" }, "built for alloc=go"},
		{"records", func(c *rungargs.Cell) { c.Records = records - 1 }, "outside the corpus"},
		{"seed", func(c *rungargs.Cell) { c.Seed = 4 }, "checksum"},
		{"batch", func(c *rungargs.Cell) { c.Batch = 0 }, "batch must be > 0, got 0"},
		{"aa", func(c *rungargs.Cell) { c.AA = "c" }, "unknown aa"},
		{"compression", func(c *rungargs.Cell) { c.Compression = cell.CompressionZstd }, "claims compression=zstd but topic"},
		{"failures without checkpoints", func(c *rungargs.Cell) { c.Failures = 1 }, "need checkpoints"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := testCell(t)
			tc.mod(&c)
			r, err := rungtest.Run(t, c)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want %q", err, tc.want)
			}
			if r.Out != "" {
				t.Errorf("a refused cell printed %q", r.Out)
			}
		})
	}
}

func TestCheckpointedCellWithFailure(t *testing.T) {
	c := testCell(t)
	// 6,000 records take a fast reader a few milliseconds, far less than
	// the interval: no periodic checkpoint completes, so every reader
	// takes one at its planned failure and the kills land all the same,
	// whatever the host's speed or load.
	c.Batch = 64
	c.Ckpt = time.Hour
	c.Failures = 3
	c.CkptDir = t.TempDir()
	got := rungtest.MustRun(t, c).Units()
	if got[results.UnitLostRec] != 0 || got[results.UnitDupRec] != 0 || got["failures"] != 3 || got["ckpts-forced"] != 3 {
		t.Errorf("figures %v", got)
	}
	for _, u := range []string{results.UnitCkptP99, results.UnitReplayRec, results.UnitRecoverMs, "kill-wait-ms", results.UnitRecPerSec, results.UnitLostRec, results.UnitDupRec} {
		if _, ok := got[u]; !ok {
			t.Errorf("missing %s in %v", u, got)
		}
	}
}

func rungMain(args []string) int {
	c, err := rungargs.Parse(args, os.Stderr)
	if err == nil {
		err = rung.Run(context.Background(), c, rung.Build{}, os.Stdout)
	}
	if err != nil {
		os.Stderr.WriteString(err.Error() + "\n")
		return 1
	}
	return 0
}
