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
			r, err := source.Open(ctx, cfg)
			if err != nil {
				t.Fatalf("%s: %v", p, err)
			}
			as, err := r.Assertions()
			r.Close()
			if err != nil {
				t.Fatalf("%s: %v", p, err)
			}
			t.Logf("%s (override %v): %s", p, override, as.Buffering)
			for _, w := range want {
				if !strings.Contains(as.Buffering, w) {
					t.Errorf("%s (override %v): buffering %q, want %q in it", p, override, as.Buffering, w)
				}
			}
		}
	}
}
