package clusters_test

import (
	"bytes"
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/fastpathlab/fplab/clusters"
	"github.com/fastpathlab/fplab/clusters/clusterstest"
)

// testPad fills testMessage up to 100 bytes; the offset into it varies
// with i, so neighbouring records differ beyond their id.
const testPad = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789" +
	"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"

// testMessage appends a 100-byte JSON record for i, like the corpus.
func testMessage(dst []byte, i int) []byte {
	start := len(dst)
	dst = append(dst, `{"id":`...)
	dst = strconv.AppendInt(dst, int64(i), 10)
	dst = append(dst, `,"pad":"`...)
	need := 98 - (len(dst) - start)
	off := i % 26
	dst = append(dst, testPad[off:off+need]...)
	return append(dst, `"}`...)
}

// consumeAll reads every record of topic and checks that (p, o) holds
// testMessage(o*partitions+p) and that partition p holds its share of n.
func consumeAll(t *testing.T, ctx context.Context, bootstrap []string, topic string, partitions, n int) {
	t.Helper()
	counts := make([]int, partitions)
	var want []byte
	poll(t, ctx, bootstrap, topic, fromStart(partitions), false, n, func(r *kgo.Record) {
		counts[r.Partition]++
		i := int(r.Offset)*partitions + int(r.Partition)
		if want = testMessage(want[:0], i); !bytes.Equal(r.Value, want) {
			t.Fatalf("partition %d offset %d = %q, want record %d %q", r.Partition, r.Offset, r.Value, i, want)
		}
	})
	for p, c := range counts {
		if wantN := n/partitions + btoi(p < n%partitions); c != wantN {
			t.Errorf("partition %d holds %d records, want %d", p, c, wantN)
		}
	}
}

// poll reads topic from start (read_committed if committed) until count
// records have come and hands fn every record polled, in order per
// partition (the last poll may bring more than count); a fetch error, or
// ctx ending first, fails t.
func poll(t *testing.T, ctx context.Context, bootstrap []string, topic string, start map[int32]kgo.Offset, committed bool, count int, fn func(*kgo.Record)) {
	t.Helper()
	opts := []kgo.Opt{kgo.SeedBrokers(bootstrap...),
		kgo.ConsumePartitions(map[string]map[int32]kgo.Offset{topic: start})}
	if committed {
		opts = append(opts, kgo.FetchIsolationLevel(kgo.ReadCommitted()))
	}
	cl, err := kgo.NewClient(opts...)
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	for seen := 0; seen < count; {
		fs := cl.PollFetches(ctx)
		if err := ctx.Err(); err != nil {
			t.Fatalf("read %d of %d records of %s (committed=%v): %v", seen, count, topic, committed, err)
		}
		fs.EachError(func(topic string, p int32, err error) { t.Fatalf("fetch %s/%d: %v", topic, p, err) })
		fs.EachRecord(func(r *kgo.Record) {
			seen++
			fn(r)
		})
	}
}

// fromStart starts partitions 0..partitions-1 at their log start.
func fromStart(partitions int) map[int32]kgo.Offset {
	start := make(map[int32]kgo.Offset, partitions)
	for p := range partitions {
		start[int32(p)] = kgo.NewOffset().AtStart()
	}
	return start
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

func TestLoadThenReadBack(t *testing.T) {
	const (
		topic      = "corpus-json"
		partitions = 6
		n          = 20_011 // not a multiple of partitions
	)
	e := clusterstest.StartSelfT(t, 3, partitions)
	c := clusters.Cluster{Bootstrap: e.Bootstrap()}
	ctx, cancel := context.WithTimeout(t.Context(), failSafe)
	defer cancel()

	if ready, err := clusters.TopicReady(ctx, c, topic, partitions, n); err != nil || ready {
		t.Fatalf("TopicReady before Load = %v, %v; want false, nil", ready, err)
	}
	if _, err := clusters.PartitionCount(ctx, c, topic); err == nil || !strings.Contains(err.Error(), "does not exist") {
		t.Errorf("PartitionCount of a missing topic: %v", err)
	}
	stats, err := clusters.Load(ctx, c, topic, partitions, n, testMessage)
	if err != nil {
		t.Fatal(err)
	}
	if stats.Records != n || stats.Bytes != int64(n)*100 || stats.Duration <= 0 {
		t.Errorf("LoadStats = %+v, want %d records of 100 bytes", stats, n)
	}
	if got, err := clusters.PartitionCount(ctx, c, topic); err != nil || got != partitions {
		t.Errorf("PartitionCount = %d, %v; want %d", got, err, partitions)
	}
	if ready, err := clusters.TopicReady(ctx, c, topic, partitions, n); err != nil || !ready {
		t.Errorf("TopicReady after Load = %v, %v; want true", ready, err)
	}
	for _, other := range []struct{ p, n int }{{partitions, n + 1}, {partitions, n - 1}, {partitions - 1, n}, {partitions + 1, n}} {
		if ready, err := clusters.TopicReady(ctx, c, topic, other.p, other.n); err != nil || ready {
			t.Errorf("TopicReady(%d partitions, %d records) = %v, %v; want false", other.p, other.n, ready, err)
		}
	}
	consumeAll(t, ctx, c.Bootstrap, topic, partitions, n)

	// A loaded topic is never loaded over.
	if _, err := clusters.Load(ctx, c, topic, partitions, n, testMessage); err == nil ||
		!strings.Contains(err.Error(), "already exists with 6 partitions and 20011 records") {
		t.Errorf("Load over a loaded topic: %v", err)
	}
}

func TestLoadIntoEmptyExistingTopic(t *testing.T) {
	e := clusterstest.StartSelfT(t, 1, 4)
	c := clusters.Cluster{Bootstrap: e.Bootstrap()}
	ctx, cancel := context.WithTimeout(t.Context(), failSafe)
	defer cancel()
	// An empty topic of the right shape is reused.
	if _, err := clusters.Load(ctx, c, "t", 4, 0, testMessage); err != nil {
		t.Fatal(err)
	}
	if _, err := clusters.Load(ctx, c, "t", 4, 1000, testMessage); err != nil {
		t.Fatalf("Load into the empty topic: %v", err)
	}
	consumeAll(t, ctx, c.Bootstrap, "t", 4, 1000)
	// One of the wrong shape is refused.
	if _, err := clusters.Load(ctx, c, "t", 3, 1000, testMessage); err == nil ||
		!strings.Contains(err.Error(), "want 3 empty partitions") {
		t.Errorf("Load with another partition count: %v", err)
	}
}

func TestLoadRejects(t *testing.T) {
	ctx := context.Background()
	c := clusters.Cluster{Bootstrap: []string{"127.0.0.1:1"}}
	cases := []struct {
		topic      string
		partitions int
		n          int
		msg        func([]byte, int) []byte
		opts       []clusters.LoadOpt
		want       string
	}{
		{"", 6, 10, testMessage, nil, "empty topic name"},
		{"t", 0, 10, testMessage, nil, "partitions must be 1..1024, got 0"},
		{"t", 6, -1, testMessage, nil, "record count must be >= 0, got -1"},
		{"t", 6, 10, nil, nil, "nil message func"},
		{"t", 6, 10, testMessage, []clusters.LoadOpt{clusters.WithGenerators(0)}, "generators must be >= 1, got 0"},
	}
	for _, k := range cases {
		_, err := clusters.Load(ctx, c, k.topic, k.partitions, k.n, k.msg, k.opts...)
		if err == nil || err.Error() != k.want {
			t.Errorf("Load(%q, %d, %d) = %v, want %q", k.topic, k.partitions, k.n, err, k.want)
		}
	}
}

// BenchmarkLoad loads 200,000 ~100-byte records into a 3-broker embedded
// cluster (own process) per iteration, each into a fresh topic.
func BenchmarkLoad(b *testing.B) {
	const (
		partitions = 6
		n          = 200_000
	)
	e := clusterstest.StartSelfT(b, 3, partitions)
	c := clusters.Cluster{Bootstrap: e.Bootstrap()}
	ctx := context.Background()
	var total clusters.LoadStats
	for i := 0; b.Loop(); i++ {
		s, err := clusters.Load(ctx, c, "bench-"+strconv.Itoa(i), partitions, n, testMessage)
		if err != nil {
			b.Fatal(err)
		}
		total.Records += s.Records
		total.Bytes += s.Bytes
		total.Duration += s.Duration
	}
	b.ReportMetric(total.RecordsPerSec(), "rec/s")
	b.ReportMetric(float64(total.Bytes)/total.Duration.Seconds()/1e6, "MB/s")
}
