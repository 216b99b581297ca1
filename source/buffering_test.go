package source_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fastpathlab/fplab/source"
	"github.com/fastpathlab/fplab/source/consume"
	"github.com/fastpathlab/fplab/workloads"
)

// TestBufferingReadBack: every path reports the prefetch bounds its client
// runs with, read back from the client: the lab's pinned values, or a
// property that overrides one (librdkafka paths).
func TestBufferingReadBack(t *testing.T) {
	tp := loadTopic(t, workloads.FormatJSON)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	for _, p := range consume.Paths() {
		for _, override := range []bool{false, true} {
			if override && p == consume.PathFranz {
				continue // franz-go takes no librdkafka properties
			}
			cfg := tp.config(p, 64, memory.NewGoAllocator())
			want := []string{"queued.max.messages.kbytes=65536", "fetch.max.bytes=52428800", "max.partition.fetch.bytes=1048576", "queued.min.messages=100000"}
			if p == consume.PathFranz {
				want = []string{"FetchMaxBytes=52428800", "FetchMaxPartitionBytes=1048576", "MaxConcurrentFetches=-1"}
			}
			if override {
				cfg.Props = map[string]string{"queued.max.messages.kbytes": "16384"}
				want = []string{"queued.max.messages.kbytes=16384", "fetch.max.bytes=52428800"}
			}
			as := openAssertions(ctx, t, cfg)
			t.Logf("%s (override %v): %s", p, override, as.Buffering)
			for _, w := range want {
				if !strings.Contains(as.Buffering, w) {
					t.Errorf("%s (override %v): buffering %q, want %q in it", p, override, as.Buffering, w)
				}
			}
		}
	}
}

// TestTuningReadBack opens every librdkafka path with a cell's tuning and
// finds it in the running client's settings; franz, a value past
// librdkafka's range and a property given twice are refused before any
// client starts.
func TestTuningReadBack(t *testing.T) {
	tp := loadTopic(t, workloads.FormatJSON)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	tune := source.Tuning{PartitionFetchBytes: 262144, QueuedMinMessages: 5000, FetchWait: 10 * time.Millisecond}
	for _, p := range []consume.Path{consume.PathRowwise, consume.PathShallow, consume.PathFast} {
		cfg := tp.config(p, 64, memory.NewGoAllocator())
		cfg.Tuning = tune
		as := openAssertions(ctx, t, cfg)
		for _, w := range []string{"max.partition.fetch.bytes=262144", "queued.min.messages=5000", "fetch.wait.max.ms=10"} {
			if !strings.Contains(as.Buffering, w) {
				t.Errorf("%s: buffering %q, want %q in it", p, as.Buffering, w)
			}
		}
	}
	for _, bad := range []struct {
		name string
		edit func(*source.Config)
		want string
	}{
		{"franz", func(c *source.Config) { c.Path = consume.PathFranz }, "not franz"},
		{"past the range", func(c *source.Config) { c.Tuning.QueuedMinMessages = 20_000_000 }, "queued.min.messages must be 1..10000000"},
		{"twice", func(c *source.Config) { c.Props = map[string]string{"fetch.wait.max.ms": "20"} }, `"fetch.wait.max.ms" is given twice`},
		{"not whole ms", func(c *source.Config) { c.Tuning.FetchWait = 1500 * time.Microsecond }, "whole milliseconds"},
		{"batch queue off fast", func(c *source.Config) { c.Path, c.Tuning.BatchQueue = consume.PathShallow, true }, "fast path's crossing"},
		{"ahead off fast", func(c *source.Config) { c.Path, c.Tuning.Ahead = consume.PathShallow, true }, "drain=ahead is the fast path's crossing"},
		{"ahead on the batch queue", func(c *source.Config) { c.Tuning.Ahead, c.Tuning.BatchQueue = true, true }, "not the batch-queue one"},
		{"ahead live", func(c *source.Config) { c.Tuning.Ahead, c.Live, c.Linger = true, true, 10*time.Millisecond }, "drain=ahead runs on bounded reads"},
	} {
		cfg := tp.config(consume.PathFast, 64, memory.NewGoAllocator())
		cfg.Tuning = tune
		bad.edit(&cfg)
		r, err := source.Open(ctx, cfg)
		if err == nil {
			r.Close()
			t.Errorf("%s: opened", bad.name)
		} else if !strings.Contains(err.Error(), bad.want) {
			t.Errorf("%s: %v, want %q", bad.name, err, bad.want)
		}
	}
}

// openAssertions opens a reader with cfg and returns what its client runs
// with, closing it again.
func openAssertions(ctx context.Context, t *testing.T, cfg source.Config) consume.Assertions {
	t.Helper()
	r, err := source.Open(ctx, cfg)
	if err != nil {
		t.Fatalf("%s: %v", cfg.Path, err)
	}
	defer r.Close()
	as, err := r.Assertions()
	if err != nil {
		t.Fatalf("%s: %v", cfg.Path, err)
	}
	return as
}
