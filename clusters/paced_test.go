package clusters_test

import (
	"bytes"
	"context"
	"errors"
	"math"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/fastpathlab/fplab/clusters"
	"github.com/fastpathlab/fplab/clusters/clusterstest"
)

// pacedKey is the key pacedMeta gives record i.
func pacedKey(i int) []byte { return []byte("k" + strconv.Itoa(i)) }

// pacedMeta keys record i with pacedKey(i) and one header, h=i.
func pacedMeta(i int, r *kgo.Record) {
	r.Key = pacedKey(i)
	r.Headers = []kgo.RecordHeader{{Key: "h", Value: []byte(strconv.Itoa(i))}}
}

// TestProducePaced produces at a fixed rate to a fresh topic and reads it
// back: (p, o) holds record o*3+p, with its key, header and intended time
// as timestamp, every record exactly once. The same cluster then serves
// the topic set-up and failure cases.
func TestProducePaced(t *testing.T) {
	const (
		partitions = 3
		n          = 2000
		rate       = 20_000.0
	)
	e := clusterstest.StartSelfT(t, 3, partitions)
	c := clusters.Cluster{Bootstrap: e.Bootstrap()}
	ctx, cancel := context.WithTimeout(t.Context(), failSafe)
	defer cancel()

	if err := clusters.CreateTopic(ctx, c, "paced", partitions); err != nil {
		t.Fatal(err)
	}
	if err := clusters.CreateTopic(ctx, c, "paced", partitions); err == nil ||
		!errors.Is(err, kerr.TopicAlreadyExists) || !strings.Contains(err.Error(), "create topic paced on ") {
		t.Errorf("CreateTopic of an existing topic: %v, want it already exists", err)
	}

	t0 := time.Now().Add(50 * time.Millisecond)
	stats, err := clusters.ProducePaced(ctx, c, clusters.Paced{
		Topic: "paced", Partitions: partitions, Records: n, Rate: rate, T0: t0,
		Message: testMessage, Meta: pacedMeta,
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("stats: %+v", stats)
	intended := func(i int) time.Time { return t0.Add(time.Duration(float64(i) * float64(time.Second) / rate)) }
	switch {
	case stats.Records != n || stats.Bytes != n*100:
		t.Errorf("stats count %d records of %d bytes, want %d of %d", stats.Records, stats.Bytes, n, n*100)
	case !stats.T0.Equal(t0):
		t.Errorf("stats T0 %v, want %v", stats.T0, t0)
	case stats.LastSend.Before(intended(n - 1).Add(-time.Millisecond)):
		t.Errorf("last record handed over at T0+%v, before its intended time T0+%v",
			stats.LastSend.Sub(t0), intended(n-1).Sub(t0))
	case stats.LastAck.Before(stats.LastSend):
		t.Errorf("last ack at T0+%v, before the last send at T0+%v", stats.LastAck.Sub(t0), stats.LastSend.Sub(t0))
	case stats.MaxBehind < 0:
		t.Errorf("MaxBehind %v < 0", stats.MaxBehind)
	case !(stats.Achieved > 0) || math.IsInf(stats.Achieved, 0):
		t.Errorf("Achieved %v, want a positive rate", stats.Achieved)
	case len(stats.CodecRecords) != 1 || stats.CodecRecords["none"] != n:
		t.Errorf("CodecRecords %v, want all %d records plain", stats.CodecRecords, n)
	}

	seen := make([]bool, n)
	var want []byte
	poll(t, ctx, c.Bootstrap, "paced", fromStart(partitions), false, n, func(r *kgo.Record) {
		i := int(r.Offset)*partitions + int(r.Partition)
		if i >= n || seen[i] {
			t.Fatalf("partition %d offset %d: record %d again or out of range", r.Partition, r.Offset, i)
		}
		seen[i] = true
		if want = testMessage(want[:0], i); !bytes.Equal(r.Value, want) {
			t.Fatalf("partition %d offset %d = %q, want record %d %q", r.Partition, r.Offset, r.Value, i, want)
		}
		if !bytes.Equal(r.Key, pacedKey(i)) || len(r.Headers) != 1 || string(r.Headers[0].Value) != strconv.Itoa(i) {
			t.Fatalf("record %d has key %q, headers %v", i, r.Key, r.Headers)
		}
		if got, w := r.Timestamp.UnixMilli(), intended(i).UnixMilli(); got != w {
			t.Fatalf("record %d has timestamp %d ms, want its intended time %d ms", i, got, w)
		}
	})
	// Exactly n records, in the i % partitions split, and no more.
	if ready, err := clusters.TopicReady(ctx, c, "paced", partitions, n); err != nil || !ready {
		t.Errorf("TopicReady after ProducePaced = %v, %v; want true", ready, err)
	}

	t.Run("topic", func(t *testing.T) {
		p := clusters.Paced{Topic: "absent", Partitions: partitions, Records: 1, Rate: 1, T0: time.Now(), Message: testMessage}
		if _, err := clusters.ProducePaced(ctx, c, p); err == nil || !strings.Contains(err.Error(), `topic "absent" does not exist`) {
			t.Errorf("ProducePaced to a missing topic: %v", err)
		}
		p.Topic, p.Partitions = "paced", 2
		if _, err := clusters.ProducePaced(ctx, c, p); err == nil || err.Error() != "topic paced has 3 partitions, want 2" {
			t.Errorf("ProducePaced with the wrong partition count: %v", err)
		}
		if err := clusters.DeleteTopic(ctx, c, "paced"); err != nil {
			t.Fatal(err)
		}
		if _, err := clusters.PartitionCount(ctx, c, "paced"); err == nil || !strings.Contains(err.Error(), "does not exist") {
			t.Errorf("PartitionCount of a deleted topic: %v", err)
		}
		if err := clusters.DeleteTopic(ctx, c, "paced"); !errors.Is(err, kerr.UnknownTopicOrPartition) {
			t.Errorf("DeleteTopic of a missing topic: %v, want UNKNOWN_TOPIC_OR_PARTITION", err)
		}
		if err := clusters.CreateTopic(ctx, c, "paced", 2); err != nil {
			t.Errorf("CreateTopic after DeleteTopic: %v", err)
		}
		if got, err := clusters.PartitionCount(ctx, c, "paced"); err != nil || got != 2 {
			t.Errorf("PartitionCount of the new topic = %d, %v; want 2", got, err)
		}
	})

	// A record the client refuses (larger than a batch may be) fails the
	// run, naming the record and its partition.
	t.Run("record fails", func(t *testing.T) {
		if err := clusters.CreateTopic(ctx, c, "paced-fail", partitions); err != nil {
			t.Fatal(err)
		}
		huge := func(dst []byte, i int) []byte {
			if i == 5 {
				return append(dst, make([]byte, 2_000_000)...)
			}
			return testMessage(dst, i)
		}
		_, err := clusters.ProducePaced(ctx, c, clusters.Paced{
			Topic: "paced-fail", Partitions: partitions, Records: 30, Rate: 1000, T0: time.Now(), Message: huge,
		})
		t.Logf("ProducePaced: %v", err)
		if err == nil || !strings.Contains(err.Error(), ": record 5 to partition 2: ") ||
			!errors.Is(err, kerr.MessageTooLarge) || strings.Contains(err.Error(), "\n") {
			t.Errorf("ProducePaced with a too large record: %v, want one line naming record 5 and partition 2", err)
		}
		if errors.As(err, new(*clusters.BrokerDownError)) {
			t.Errorf("a refused record is reported as a dead broker: %v", err)
		}
	})

	// Cancelled while waiting for T0, after generating every record.
	t.Run("cancel before T0", func(t *testing.T) {
		const n = 5000
		if err := clusters.CreateTopic(ctx, c, "paced-later", partitions); err != nil {
			t.Fatal(err)
		}
		var made atomic.Int64
		generated := make(chan struct{})
		message := func(dst []byte, i int) []byte {
			if made.Add(1) == n {
				close(generated)
			}
			return testMessage(dst, i)
		}
		pctx, pcancel := context.WithCancel(ctx)
		defer pcancel()
		done := make(chan error, 1)
		go func() {
			_, err := clusters.ProducePaced(pctx, c, clusters.Paced{
				Topic: "paced-later", Partitions: partitions, Records: n, Rate: 1000,
				T0: time.Now().Add(time.Hour), Message: message,
			})
			done <- err
		}()
		await(t, generated, "ProducePaced never generated its records")
		pcancel()
		err := await(t, done, "ProducePaced still running after its ctx was cancelled")
		t.Logf("ProducePaced: %v", err)
		if !errors.Is(err, context.Canceled) {
			t.Errorf("ProducePaced cancelled before T0: %v, want context.Canceled", err)
		}
	})

	// Cancelled in the middle of pacing, once a record has arrived.
	t.Run("cancel while pacing", func(t *testing.T) {
		if err := clusters.CreateTopic(ctx, c, "paced-slow", partitions); err != nil {
			t.Fatal(err)
		}
		pctx, pcancel := context.WithCancel(ctx)
		defer pcancel()
		done := make(chan error, 1)
		go func() {
			_, err := clusters.ProducePaced(pctx, c, clusters.Paced{
				Topic: "paced-slow", Partitions: partitions, Records: 100_000, Rate: 100,
				T0: time.Now(), Message: testMessage,
			})
			done <- err
		}()
		poll(t, ctx, c.Bootstrap, "paced-slow", fromStart(partitions), false, 1, func(*kgo.Record) {})
		pcancel()
		err := await(t, done, "ProducePaced still running after its ctx was cancelled")
		t.Logf("ProducePaced: %v", err)
		if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "stopped after handing over ") {
			t.Errorf("ProducePaced cancelled while pacing: %v, want context.Canceled", err)
		}
	})
}

func TestProducePacedRejects(t *testing.T) {
	c := clusters.Cluster{Bootstrap: []string{"127.0.0.1:1"}}
	ok := clusters.Paced{Topic: "t", Partitions: 3, Records: 10, Rate: 100, T0: time.Now(), Message: testMessage}
	cases := []struct {
		change func(*clusters.Paced)
		want   string
	}{
		{func(p *clusters.Paced) { p.Topic = "" }, "empty topic name"},
		{func(p *clusters.Paced) { p.Partitions = 0 }, "partitions must be 1..1024, got 0"},
		{func(p *clusters.Paced) { p.Partitions = 1025 }, "partitions must be 1..1024, got 1025"},
		{func(p *clusters.Paced) { p.Records = 0 }, "records must be >= 1, got 0"},
		{func(p *clusters.Paced) { p.Records = -3 }, "records must be >= 1, got -3"},
		{func(p *clusters.Paced) { p.Rate = 0 }, "rate must be > 0 and <= 10000000 records/s, got 0"},
		{func(p *clusters.Paced) { p.Rate = -1 }, "rate must be > 0 and <= 10000000 records/s, got -1"},
		{func(p *clusters.Paced) { p.Rate = 10_000_001 }, "rate must be > 0 and <= 10000000 records/s, got 1.0000001e+07"},
		{func(p *clusters.Paced) { p.Rate = math.NaN() }, "rate must be > 0 and <= 10000000 records/s, got NaN"},
		{func(p *clusters.Paced) { p.Rate = math.Inf(1) }, "rate must be > 0 and <= 10000000 records/s, got +Inf"},
		{func(p *clusters.Paced) { p.Records, p.Rate = 1_000_000, 0.001 },
			"1000000 records at 0.001 records/s span 999999000s, more than the 24h0m0s a paced run may last"},
		{func(p *clusters.Paced) { p.T0 = time.Time{} }, "T0 must be set"},
		{func(p *clusters.Paced) { p.Message = nil }, "nil message func"},
		{func(p *clusters.Paced) { p.Compression = "brotli" }, `unknown compression "brotli" (want none, gzip, snappy, lz4, zstd)`},
	}
	for _, k := range cases {
		p := ok
		k.change(&p)
		_, err := clusters.ProducePaced(t.Context(), c, p)
		if err == nil || err.Error() != k.want {
			t.Errorf("ProducePaced(%+v) = %v, want %q", p, err, k.want)
		}
	}
	// The limits themselves pass validation: the error is the unreachable
	// cluster's.
	for _, change := range []func(*clusters.Paced){
		func(p *clusters.Paced) { p.Partitions = 1 },
		func(p *clusters.Paced) { p.Partitions = 1024 },
		func(p *clusters.Paced) { p.Records = 1 },
		func(p *clusters.Paced) { p.Rate = clusters.MaxPacedRate },
		func(p *clusters.Paced) { p.Records, p.Rate = 86_401, 1 },
	} {
		p := ok
		change(&p)
		_, err := clusters.ProducePaced(t.Context(), c, p)
		if err == nil || !strings.HasPrefix(err.Error(), "cannot reach bootstrap 127.0.0.1:1: ") {
			t.Errorf("ProducePaced(%+v) = %v, want the unreachable cluster's error", p, err)
		}
	}
	for _, k := range []struct {
		topic      string
		partitions int
		want       string
	}{
		{"", 3, "empty topic name"},
		{"t", 0, "partitions must be 1..1024, got 0"},
	} {
		if err := clusters.CreateTopic(t.Context(), c, k.topic, k.partitions); err == nil || err.Error() != k.want {
			t.Errorf("CreateTopic(%q, %d) = %v, want %q", k.topic, k.partitions, err, k.want)
		}
	}
	if err := clusters.DeleteTopic(t.Context(), c, ""); err == nil || err.Error() != "empty topic name" {
		t.Errorf(`DeleteTopic("") = %v`, err)
	}
}

// TestProducePacedStopsWhenBrokerDies kills the broker process while a
// slow paced run is under way, once a record has arrived: ProducePaced must
// fail naming a broker instead of waiting for its delivery timeout.
func TestProducePacedStopsWhenBrokerDies(t *testing.T) {
	const partitions = 3
	e := clusterstest.StartSelfT(t, 3, partitions)
	c := clusters.Cluster{Bootstrap: e.Bootstrap()}
	ctx, cancel := context.WithTimeout(t.Context(), failSafe)
	defer cancel()
	if err := clusters.CreateTopic(ctx, c, "doomed", partitions); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := clusters.ProducePaced(ctx, c, clusters.Paced{
			Topic: "doomed", Partitions: partitions, Records: 100_000, Rate: 100,
			T0: time.Now(), Message: testMessage,
		})
		done <- err
	}()
	poll(t, ctx, c.Bootstrap, "doomed", fromStart(partitions), false, 1, func(*kgo.Record) {})
	e.Kill()
	err := await(t, done, "ProducePaced still running after its broker died")
	t.Logf("ProducePaced: %v", err)
	checkBrokerDown(t, "ProducePaced whose broker died", err, e.Bootstrap())
}

// TestProducePacedCompressed: a paced producer's batches carry its codec
// where the codec shrinks them, and are sent plain where it would not;
// CodecRecords counts every record once, and the stored codecs read back
// are among the two.
func TestProducePacedCompressed(t *testing.T) {
	const partitions, n = 2, 4000
	e := clusterstest.StartSelfT(t, 1, partitions)
	c := clusters.Cluster{Bootstrap: e.Bootstrap()}
	ctx, cancel := context.WithTimeout(t.Context(), failSafe)
	defer cancel()
	if err := clusters.CreateTopic(ctx, c, "paced-zstd", partitions); err != nil {
		t.Fatal(err)
	}
	// 4,000 records due within 4 ms: they queue behind the first produce
	// request, so most batches hold many and zstd shrinks them
	stats, err := clusters.ProducePaced(ctx, c, clusters.Paced{
		Topic: "paced-zstd", Partitions: partitions, Records: n, Rate: 1e6, T0: time.Now(),
		Message: testMessage, Compression: "zstd",
	})
	if err != nil {
		t.Fatal(err)
	}
	var total int64
	for codec, k := range stats.CodecRecords {
		if codec != "zstd" && codec != "none" {
			t.Errorf("%d records in %s batches", k, codec)
		}
		total += k
	}
	if total != n || stats.CodecRecords["zstd"] == 0 {
		t.Errorf("CodecRecords %v, want %d records, some of them zstd", stats.CodecRecords, n)
	}
	stored, err := clusters.StoredCodecs(ctx, c, "paced-zstd", partitions)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range stored {
		if s != "zstd" && s != "none" {
			t.Errorf("stored codecs %v", stored)
		}
	}
}
