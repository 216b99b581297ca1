package rung_test

import (
	"bytes"
	"context"
	"io"
	"os"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fastpathlab/fplab/clusters"
	"github.com/fastpathlab/fplab/clusters/clusterstest"
	"github.com/fastpathlab/fplab/ladder/rung"
	"github.com/fastpathlab/fplab/results"
	"github.com/fastpathlab/fplab/source"
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
	// The secrets tests start `<this binary> parse-args ...`.
	if len(os.Args) > 1 && os.Args[1] == "parse-args" {
		os.Exit(parseArgsMain(os.Args[2:]))
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
		bs = e.Bootstrap()
	})
	if bs == nil {
		t.Fatal("no cluster")
	}
	return bs, "bid-json-s3-n6000"
}

func cell(t *testing.T) rung.Cell {
	b, topic := cluster(t)
	return rung.Cell{
		Path: source.PathFast, Format: workloads.FormatJSON, Batch: 512, Brokers: 3, Alloc: "go",
		Cluster: "embedded", Bootstrap: b, Topic: topic, Partitions: parts, Records: records,
		Seed: 3, Schema: "bid", Timeout: time.Minute, HashCache: t.TempDir(),
	}
}

func TestRunPrintsBenchfmtPerPath(t *testing.T) {
	for _, p := range source.Paths() {
		t.Run(string(p), func(t *testing.T) {
			c := cell(t)
			c.Path = p
			c.Tags = []string{"aa=a"}
			var out bytes.Buffer
			if err := rung.Run(context.Background(), c, rung.Build{Commit: "abc"}, &out); err != nil {
				t.Fatal(err)
			}
			name, iters, ms, cfg, err := results.ParseBench(out.Bytes())
			if err != nil {
				t.Fatalf("%v\n%s", err, out.String())
			}
			if want := "path=" + string(p) + "/format=json/batch=512/brokers=3/alloc=go/crc=off/aa=a"; name != want {
				t.Errorf("name %q, want %q", name, want)
			}
			if iters != records {
				t.Errorf("iters %d, want %d", iters, records)
			}
			got := map[string]float64{}
			for _, m := range ms {
				got[m.Unit] = m.Value
			}
			for _, u := range []string{"rec/s", "MB/s", "ns/rec", "cpu-ns/rec", "B/rec", "allocs/rec", "peak-RSS-MB", "startup-ms", "window-ms"} {
				if v, ok := got[u]; !ok || v < 0 || (u == "rec/s" && v <= 0) {
					t.Errorf("metric %s = %v (present %v)", u, v, ok)
				}
			}
			if _, ok := got["rec/crossing"]; ok != (p == source.PathFast) {
				t.Errorf("rec/crossing present=%v for path %s", ok, p)
			}
			if cfg["commit"] != "abc" || cfg["goos"] == "" || cfg["alloc-version"] == "" {
				t.Errorf("config %v", cfg)
			}
		})
	}
}

func TestRunRefusesFalseClaims(t *testing.T) {
	cases := []struct {
		name string
		mod  func(*rung.Cell)
		want string
	}{
		{"broker count", func(c *rung.Cell) { c.Brokers = 1 }, "cluster metadata lists 3"},
		{"allocator", func(c *rung.Cell) { c.Alloc = "mimalloc2" }, "built for alloc=go"},
		{"records", func(c *rung.Cell) { c.Records = records - 1 }, "outside the corpus"},
		{"seed", func(c *rung.Cell) { c.Seed = 4 }, "checksum"},
		{"batch", func(c *rung.Cell) { c.Batch = 0 }, "batch must be > 0"},
		{"tag", func(c *rung.Cell) { c.Tags = []string{"bad"} }, "not key=value"},
		{"failures without checkpoints", func(c *rung.Cell) { c.Failures = 1 }, "need checkpoints"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := cell(t)
			tc.mod(&c)
			var out bytes.Buffer
			err := rung.Run(context.Background(), c, rung.Build{}, &out)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want %q", err, tc.want)
			}
			if out.Len() != 0 {
				t.Errorf("a refused cell printed %q", out.String())
			}
		})
	}
}

func TestCheckpointedCellWithFailure(t *testing.T) {
	c := cell(t)
	// 6,000 records take a fast reader a few milliseconds, far less than
	// the interval: no periodic checkpoint completes, so every reader
	// takes one at its planned failure and the kills land all the same,
	// whatever the host's speed or load.
	c.Batch = 64
	c.CkptInterval = time.Hour
	c.Failures = 3
	c.CkptDir = t.TempDir()
	var out bytes.Buffer
	if err := rung.Run(context.Background(), c, rung.Build{}, &out); err != nil {
		t.Fatal(err)
	}
	_, _, ms, _, err := results.ParseBench(out.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]float64{}
	for _, m := range ms {
		got[m.Unit] = m.Value
	}
	if got["lost"] != 0 || got["dup"] != 0 || got["failures"] != 3 || got["ckpts-forced"] != 3 {
		t.Errorf("figures %v", got)
	}
	for _, u := range []string{"ckpt-p99-ms", "replay-rec", "recover-ms", "kill-wait-ms", "rec/s"} {
		if _, ok := got[u]; !ok {
			t.Errorf("missing %s in %v", u, got)
		}
	}
}

func rungMain(args []string) int {
	c, _, err := rung.ParseArgs(args, os.Stderr)
	if err == nil {
		err = rung.Run(context.Background(), c, rung.Build{}, os.Stdout)
	}
	if err != nil {
		os.Stderr.WriteString(err.Error() + "\n")
		return 1
	}
	return 0
}

func TestArgsRoundTrip(t *testing.T) {
	c := rung.Cell{Path: "fast", Format: "raw", Batch: 8, Brokers: 1, Alloc: "go", CRC: true, Cluster: "embedded",
		Bootstrap: []string{"a:1", "b:2"}, Topic: "t", Partitions: 1, Records: 1, Seed: 9, Schema: "bid",
		Timeout: time.Second, Props: map[string]string{"b": "2", "a": "1"}, Tags: []string{"aa=b"},
		HashCache: "/h", CkptInterval: time.Millisecond, Failures: 2, KillSeed: 5, CkptDir: "/c", Role: "reader"}
	args := strings.Join(c.Args(), " ")
	if !strings.Contains(args, "--crc on") || !strings.Contains(args, "--cluster-prop a=1 --cluster-prop b=2") {
		t.Errorf("args %s", args)
	}
	if c.Name() != "path=fast/format=raw/batch=8/brokers=1/alloc=go/crc=on/ckpt=1ms/aa=b" {
		t.Errorf("name %s", c.Name())
	}
	back, _, err := rung.ParseArgs(c.Args(), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, c) {
		t.Errorf("round trip\n got %+v\nwant %+v", back, c)
	}
}

func TestParseArgsRejects(t *testing.T) {
	for args, want := range map[string]string{
		"--format xml":          "unknown format",
		"--path slow":           "unknown path",
		"--crc maybe":           "--crc must be on or off",
		"--batch 0":             "batch must be > 0",
		"--batch -5":            "batch must be > 0",
		"--bootstrap a:1 extra": "unexpected argument",
	} {
		_, _, err := rung.ParseArgs(append(strings.Fields(args), "--bootstrap", "h:1", "--topic", "t", "--records", "1"), io.Discard)
		if args == "--bootstrap a:1 extra" {
			_, _, err = rung.ParseArgs(strings.Fields(args), io.Discard)
		}
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want %q", args, err, want)
		}
	}
}
