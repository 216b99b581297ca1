package rung_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fastpathlab/fplab/cell"
	"github.com/fastpathlab/fplab/clusters"
	"github.com/fastpathlab/fplab/clusters/kafka"
	"github.com/fastpathlab/fplab/clusters/kafka/kafkatest"
	"github.com/fastpathlab/fplab/ladder/rung/rungtest"
	"github.com/fastpathlab/fplab/ladder/rungargs"
	"github.com/fastpathlab/fplab/source/consume"
	"github.com/fastpathlab/fplab/workloads"
)

// kafkaCell loads a json corpus onto a real cluster and returns a cell for it.
func kafkaCell(t *testing.T, cl *kafka.Cluster, path consume.Path, records int) rungargs.Cell {
	t.Helper()
	return kafkaCellCompressed(t, cl, path, records, cell.CompressionNone)
}

// kafkaCellCompressed is kafkaCell with the corpus produced with codec (on
// its own topic, as the ladder names it).
func kafkaCellCompressed(t *testing.T, cl *kafka.Cluster, path consume.Path, records int, compression string) rungargs.Cell {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	schema, _ := workloads.SchemaByName("bid")
	codec, err := workloads.NewCodec(workloads.FormatJSON, schema)
	if err != nil {
		t.Fatal(err)
	}
	corpus := workloads.NewCorpus(schema, codec, 1, records)
	topic := corpus.ID()
	if compression != cell.CompressionNone {
		topic += "-" + compression
	}
	c := clusters.Cluster{Bootstrap: cl.Bootstrap()}
	if ok, _ := clusters.TopicReady(ctx, c, topic, 3, records); !ok {
		if _, err := clusters.Load(ctx, c, topic, 3, records, corpus.Message, clusters.WithCompression(compression)); err != nil {
			t.Fatal(err)
		}
	}
	return rungargs.Cell{
		Cell: cell.Cell{Path: string(path), Format: cell.FormatJSON, Batch: 1024, Brokers: cl.Brokers(), Alloc: cell.AllocGo,
			Cluster: cell.ClusterKafka, Compression: compression},
		Bootstrap: cl.Bootstrap(), Topic: topic, Partitions: 3,
		Records: records, Seed: 1, Schema: "bid", Timeout: 90 * time.Second,
	}
}

// runCell runs c, which must pass, and returns its output.
func runCell(t *testing.T, c rungargs.Cell) string {
	t.Helper()
	r := rungtest.MustRun(t, c)
	if !strings.Contains(r.Out, "BenchmarkLadder/"+c.Name()+" ") || !strings.Contains(r.Out, " rec/s") {
		t.Fatalf("%s: unexpected output %q", c.Name(), r.Out)
	}
	return r.Out
}

func TestKafkaRungOneBroker(t *testing.T) {
	cl := kafkatest.Start(t, kafka.Options{Brokers: 1, Partitions: 3})
	for _, p := range []consume.Path{consume.PathFast, cell.PathJavaPerf} {
		out := runCell(t, kafkaCell(t, cl, p, 20000))
		if p == cell.PathJavaPerf && !strings.Contains(out, "client: kafka-clients") {
			t.Errorf("java-perf cell does not name its client: %q", out)
		}
	}
	// Real Kafka keeps the producer's codec (compression.type=producer):
	// the read-back sees it, and every client reads it, java included.
	for _, p := range []consume.Path{consume.PathFast, consume.PathFranz, cell.PathJavaPerf, cell.PathCeiling} {
		out := runCell(t, kafkaCellCompressed(t, cl, p, 20000, cell.CompressionZstd))
		if !strings.Contains(out, "/compression=zstd ") {
			t.Errorf("%s: output does not name the codec: %q", p, out)
		}
	}
	// The java-perf path asserts the count against the corpus it claims.
	c := kafkaCell(t, cl, cell.PathJavaPerf, 20000)
	c.Records = 19999
	if _, err := rungtest.Run(t, c); err == nil {
		t.Error("java-perf cell claiming 19999 records of a 20000-record topic: want an error")
	}
}

func TestKafkaRungThreeBrokersKill(t *testing.T) {
	cl := kafkatest.Start(t, kafka.Options{Brokers: 3, Partitions: 3})
	runCell(t, kafkaCell(t, cl, consume.PathFranz, 20000))
	sock := filepath.Join(t.TempDir(), "f.sock")
	stop, err := cl.ServeFaults(sock)
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	c := kafkaCell(t, cl, consume.PathFast, 100000)
	c.FaultSocket, c.Fault = sock, cell.FaultKill
	out := runCell(t, c)
	if !strings.Contains(out, " 1 broker-kills") {
		t.Errorf("kill cell output lacks broker-kills: %q", out)
	}
	if n, err := clusters.BrokerCount(context.Background(), clusters.Cluster{Bootstrap: cl.Bootstrap()}); err != nil || n != 3 {
		t.Errorf("after the kill cell BrokerCount = %d, %v; want 3", n, err)
	}
}
