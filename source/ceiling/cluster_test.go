package ceiling_test

import (
	"bytes"
	"context"
	"maps"
	"math"
	"strings"
	"sync"
	"testing"

	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/fastpathlab/fplab/clusters/clusterstest"
	"github.com/fastpathlab/fplab/internal/failsafe"
	"github.com/fastpathlab/fplab/source/ceiling"
)

// failSafe and await are internal/failsafe's, by their short local names.
const failSafe = failsafe.Timeout

func await[T any](t *testing.T, ch <-chan T, what string) T {
	t.Helper()
	return failsafe.Await(t, ch, what)
}

// config is a Read of topic on c with a fail-safe stall timeout.
func config(c *kfake.Cluster, topic string, partitions int) ceiling.Config {
	return ceiling.Config{Bootstrap: c.ListenAddrs(), Topic: topic, Partitions: partitions, Timeout: failSafe}
}

// codecs are the compression codecs kgo produces, by Kafka's names.
var codecs = []struct {
	name  string
	codec kgo.CompressionCodec
}{
	{"none", kgo.NoCompression()},
	{"gzip", kgo.GzipCompression()},
	{"snappy", kgo.SnappyCompression()},
	{"lz4", kgo.Lz4Compression()},
	{"zstd", kgo.ZstdCompression()},
}

// value compresses well under every codec: kgo sends a batch uncompressed
// when compressing does not make it smaller.
var value = bytes.Repeat([]byte("fastpath "), 40)

// corpus tracks what was produced to a topic of a test cluster: the Result
// a Read of all of it must return (Records, ControlRecords, Batches,
// Codecs, Start, Stop).
type corpus struct {
	topic string
	addrs []string  // the cluster's
	opts  []kgo.Opt // the producers' extra options, e.g. SASL
	want  ceiling.Result
}

// newTopic is the package's one fixture: an in-process cluster
// (clusterstest.InProcess with opts, closed when the test ends) holding
// topic with partitions empty partitions, and the topic's corpus, which
// produce and transactions fill.
func newTopic(t *testing.T, topic string, partitions int, opts ...kfake.Opt) (*kfake.Cluster, *corpus) {
	t.Helper()
	c := clusterstest.InProcess(t, append(opts, kfake.SeedTopics(int32(partitions), topic))...)
	return c, newCorpus(c, topic, partitions)
}

// newCorpus is an empty corpus of topic on c: what more producing to it
// adds.
func newCorpus(c *kfake.Cluster, topic string, partitions int) *corpus {
	k := &corpus{topic: topic, addrs: c.ListenAddrs(), want: ceiling.Result{
		Codecs: map[string]int64{}, Start: map[int32]int64{}, Stop: map[int32]int64{},
	}}
	for p := range int32(partitions) {
		k.want.Start[p], k.want.Stop[p] = 0, 0
	}
	return k
}

// batch counts one data batch of n records in partition p.
func (c *corpus) batch(codec string, p int32, n int) {
	c.want.Records += int64(n)
	c.want.Batches++
	c.want.Codecs[codec]++
	c.want.Stop[p] += int64(n)
}

// marker counts one transaction marker (a control batch of one record).
func (c *corpus) marker(p int32) {
	c.want.ControlRecords++
	c.want.Batches++
	c.want.Codecs["none"]++
	c.want.Stop[p]++
}

// produce writes counts[p] records to each partition p in one flush of a
// client with ManualFlushing, so that each partition gets one batch, and
// counts them in c.
func (c *corpus) produce(t *testing.T, codec int, counts map[int32]int) {
	t.Helper()
	cl := producer(t, c.addrs, c.topic, append(c.opts, kgo.ProducerBatchCompression(codecs[codec].codec))...)
	c.flush(t, cl, counts)
	for p, n := range counts {
		c.batch(codecs[codec].name, p, n)
	}
}

// transactions writes one committed transaction of commit's records and
// one aborted of abort's, each partition's records one batch, and counts
// them with their markers in c.
func (c *corpus) transactions(t *testing.T, commit, abort map[int32]int) {
	t.Helper()
	cl := producer(t, c.addrs, c.topic, append(c.opts, kgo.TransactionalID("ceiling-test-"+c.topic),
		kgo.ProducerBatchCompression(kgo.NoCompression()))...)
	ctx, cancel := context.WithTimeout(t.Context(), failSafe)
	defer cancel()
	// A record outside a transaction fails before it is partitioned, so
	// the partitions are loaded inside one that is then aborted; it wrote
	// nothing, so nothing is sent for it.
	if err := cl.BeginTransaction(); err != nil {
		t.Fatal(err)
	}
	loadPartitions(t, cl)
	if err := cl.EndTransaction(ctx, kgo.TryAbort); err != nil {
		t.Fatal(err)
	}
	for _, txn := range []struct {
		counts map[int32]int
		end    kgo.TransactionEndTry
	}{{commit, kgo.TryCommit}, {abort, kgo.TryAbort}} {
		if err := cl.BeginTransaction(); err != nil {
			t.Fatal(err)
		}
		c.flush(t, cl, txn.counts)
		if err := cl.EndTransaction(ctx, txn.end); err != nil {
			t.Fatal(err)
		}
		for p, n := range txn.counts {
			c.batch("none", p, n)
			c.marker(p)
		}
	}
}

// flush produces counts[p] records to each partition p and flushes them.
func (c *corpus) flush(t *testing.T, cl *kgo.Client, counts map[int32]int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), failSafe)
	defer cancel()
	var (
		wg   sync.WaitGroup
		mu   sync.Mutex
		errs []error
	)
	for p, n := range counts {
		for range n {
			wg.Add(1)
			cl.Produce(ctx, &kgo.Record{Partition: p, Value: value}, func(_ *kgo.Record, err error) {
				defer wg.Done()
				if err != nil {
					mu.Lock()
					errs = append(errs, err)
					mu.Unlock()
				}
			})
		}
	}
	if err := cl.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	if len(errs) > 0 {
		t.Fatalf("produce: %v", errs[0])
	}
}

// producer is a client that writes to topic's partitions as each record
// says, only when flushed. A client that is not transactional has the
// topic's partitions loaded before it is returned.
func producer(t *testing.T, addrs []string, topic string, opts ...kgo.Opt) *kgo.Client {
	t.Helper()
	cl, err := kgo.NewClient(append([]kgo.Opt{
		kgo.SeedBrokers(addrs...),
		kgo.DefaultProduceTopic(topic),
		kgo.RecordPartitioner(kgo.ManualPartitioner()),
		kgo.ManualFlushing(),
	}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cl.Close)
	if id, _ := cl.OptValue(kgo.TransactionalID).(string); id == "" {
		loadPartitions(t, cl)
	}
	return cl
}

// loadPartitions returns once cl knows its produce topic's partitions.
// Until then kgo holds records aside and moves them to their partitions
// from another goroutine when the metadata arrives, so a flush that
// starts before the move ends can send a partition's records in two
// batches. It asks for a partition no topic has: that record fails,
// unsent, as soon as the partitions are known.
func loadPartitions(t *testing.T, cl *kgo.Client) {
	t.Helper()
	failed := make(chan error, 1)
	cl.Produce(t.Context(), &kgo.Record{Partition: math.MaxInt32, Value: value}, func(_ *kgo.Record, err error) {
		failed <- err
	})
	if err := await(t, failed, "the partitions of the produce topic"); err == nil || !strings.Contains(err.Error(), "invalid record partitioning choice") {
		t.Fatalf("a record for partition %d: %v, want the partitioning refused", math.MaxInt32, err)
	}
}

// check compares the counts of got with want and sanity-checks the rest.
func check(t *testing.T, got, want ceiling.Result) {
	t.Helper()
	if got.Records != want.Records || got.ControlRecords != want.ControlRecords || got.Batches != want.Batches {
		t.Errorf("records %d, control records %d, batches %d; want %d, %d, %d",
			got.Records, got.ControlRecords, got.Batches, want.Records, want.ControlRecords, want.Batches)
	}
	for _, m := range []struct {
		name      string
		got, want any
		equal     bool
	}{
		{"codecs", got.Codecs, want.Codecs, maps.Equal(got.Codecs, want.Codecs)},
		{"start", got.Start, want.Start, maps.Equal(got.Start, want.Start)},
		{"stop", got.Stop, want.Stop, maps.Equal(got.Stop, want.Stop)},
	} {
		if !m.equal {
			t.Errorf("%s %v, want %v", m.name, m.got, m.want)
		}
	}
	if got.Batches > 0 && (got.Bytes < 61*got.Batches || got.First.IsZero() || got.Sent.IsZero() || got.First.Before(got.Sent) || got.Last.Before(got.First) || got.Fetches < 1) {
		t.Errorf("bytes %d, fetches %d, window %v..%v: want a batch header per batch, a fetch and a window",
			got.Bytes, got.Fetches, got.First, got.Last)
	}
}

// oneLine fails the test unless err is one line starting with want.
func oneLine(t *testing.T, err error, want string) {
	t.Helper()
	if err == nil || !strings.HasPrefix(err.Error(), want) || strings.Contains(err.Error(), "\n") {
		t.Errorf("error %v, want one line starting with %q", err, want)
	}
}
