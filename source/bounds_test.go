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

// TestBoundsLadderMirrors pins the bounds ladder/limits.go repeats
// (maxBatch, maxPartitions) so a spec the paths would refuse is refused
// when it is read: at each bound Open passes validation, one past it
// refuses. Nothing is dialled: the context is already canceled and the
// checks run before any client starts.
func TestBoundsLadderMirrors(t *testing.T) {
	const maxBatch, maxPartitions = 1 << 20, 1024
	canceled, cancel := context.WithCancel(context.Background())
	cancel()
	base := source.Config{Path: consume.PathFast, Bootstrap: []string{"127.0.0.1:1"}, Topic: "t", Partitions: 1, Batch: 1, Timeout: time.Second}

	cfg := base
	cfg.Batch = maxBatch + 1
	if _, err := source.Open(canceled, cfg); err == nil || !strings.Contains(err.Error(), "batch must be 1..1048576") {
		t.Errorf("batch %d: %v", cfg.Batch, err)
	}
	cfg.Batch = maxBatch // passes the batch check, stops at the missing codec
	if _, err := source.Open(canceled, cfg); err == nil || err.Error() != "no codec" {
		t.Errorf("batch %d: %v", cfg.Batch, err)
	}

	cfg = base
	cfg.Partitions = maxPartitions + 1
	if _, err := source.Open(canceled, cfg); err == nil || !strings.Contains(err.Error(), "partitions must be 1..1024") {
		t.Errorf("partitions %d: %v", cfg.Partitions, err)
	}
	cfg.Partitions = maxPartitions
	if _, err := source.Open(canceled, cfg); err == nil || err.Error() != "no codec" {
		t.Errorf("partitions %d: %v", cfg.Partitions, err)
	}
}

// TestValidationNamesTheField covers the checks Open makes before it
// starts a client, each with the error that names the bad field.
func TestValidationNamesTheField(t *testing.T) {
	_, codec := bidCodec(t, workloads.FormatJSON)
	ok := source.Config{
		Path: consume.PathFast, Bootstrap: []string{"127.0.0.1:1"}, Topic: "t", Partitions: 2,
		Batch: 8, Codec: codec, Mem: memory.NewGoAllocator(), Timeout: time.Second,
	}
	cases := []struct {
		name string
		mod  func(*source.Config)
		want string
	}{
		{"unknown path", func(c *source.Config) { c.Path = "slow" }, `unknown path "slow"`},
		{"no bootstrap", func(c *source.Config) { c.Bootstrap = nil }, "no bootstrap servers"},
		{"no topic", func(c *source.Config) { c.Topic = "" }, "no topic"},
		{"timeout", func(c *source.Config) { c.Timeout = time.Millisecond }, "timeout must be 100ms..1h0m0s, got 1ms"},
		{"no allocator", func(c *source.Config) { c.Mem = nil }, "no Arrow allocator"},
		{"start offsets", func(c *source.Config) { c.Start = []int64{0} }, "1 start offsets for 2 partitions"},
		{"stop offsets", func(c *source.Config) { c.Stop = []int64{0, 0, 0} }, "3 stop offsets for 2 partitions"},
		{"fixed prop", func(c *source.Config) { c.Props = map[string]string{"group.id": "x"} }, `client property "group.id" is set by the lab`},
	}
	canceled, cancel := context.WithCancel(context.Background())
	cancel()
	for _, tc := range cases {
		cfg := ok
		tc.mod(&cfg)
		_, err := source.Open(canceled, cfg)
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
}
