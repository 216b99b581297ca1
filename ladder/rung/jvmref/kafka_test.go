package jvmref

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fastpathlab/fplab/cell"
	"github.com/fastpathlab/fplab/clusters"
	"github.com/fastpathlab/fplab/clusters/kafka"
	"github.com/fastpathlab/fplab/clusters/kafka/kafkatest"
	"github.com/fastpathlab/fplab/ladder/rung/rungtest"
	"github.com/fastpathlab/fplab/ladder/rungargs"
	"github.com/fastpathlab/fplab/results"
	"github.com/fastpathlab/fplab/workloads"
)

// javaRefJar returns the jar in force, skipping the test without one.
func javaRefJar(t *testing.T) (java, jar string) {
	t.Helper()
	jar = kafka.RefJar()
	if err := kafka.CheckRefJar(jar); err != nil {
		if os.Getenv(kafka.RefJarEnv) != "" {
			t.Fatalf("%s is set but: %v", kafka.RefJarEnv, err)
		}
		t.Skipf("Java reference tests skipped: %v", err)
	}
	java, err := kafka.FindJava()
	if err != nil {
		t.Skipf("Java reference tests skipped: %v", err)
	}
	return java, jar
}

// loadJavaRefCorpus loads a corpus of format f onto cl (once per topic) and
// returns its topic.
func loadJavaRefCorpus(t *testing.T, cl *kafka.Cluster, f workloads.Format, partitions, records int) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	schema, _ := workloads.SchemaByName("bid")
	codec, err := workloads.NewCodec(f, schema)
	if err != nil {
		t.Fatal(err)
	}
	corpus := workloads.NewCorpus(schema, codec, 1, records)
	topic := fmt.Sprintf("%s-p%d", corpus.ID(), partitions)
	c := clusters.Cluster{Bootstrap: cl.Bootstrap()}
	if ok, _ := clusters.TopicReady(ctx, c, topic, partitions, records); !ok {
		if _, err := clusters.Load(ctx, c, topic, partitions, records, corpus.Message); err != nil {
			t.Fatal(err)
		}
	}
	return topic
}

// TestKafkaJavaRefs runs both reference programs against a real 1-broker
// Kafka holding small json, raw and avro corpora: each must read exactly the
// corpus, and a wrong expected count must fail the run with the program's
// one-line reason.
func TestKafkaJavaRefs(t *testing.T) {
	java, jar := javaRefJar(t)
	const parts, n = 3, 20000
	cl := kafkatest.Start(t, kafka.Options{Brokers: 1, Partitions: parts})
	ctx := context.Background()
	topics := map[string]string{}
	for _, f := range []workloads.Format{workloads.FormatJSON, workloads.FormatRaw, workloads.FormatAvro, workloads.FormatProtobuf, workloads.FormatCSV} {
		topics[string(f)] = loadJavaRefCorpus(t, cl, f, parts, n)
	}
	base := Opts{Bootstrap: cl.Bootstrap(), Partitions: parts, Records: n, CRC: true, Timeout: 90 * time.Second}

	check := func(name string, o Opts) {
		t.Helper()
		r, err := Run(ctx, java, jar, o)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if r.Records != n || r.Window <= 0 || r.Startup <= 0 || r.HeapMax <= 0 || r.JVM == "" || r.GC == "" || r.CPU <= 0 {
			t.Errorf("%s: implausible result %+v", name, r)
		}
		// The JVM's own memory: a started JVM holds tens of MiB before
		// its client opens, and the client or job adds to it.
		if m := r.Mem; m.Harness < 20<<10 || m.PathPeak <= 0 || m.Peak < m.Harness+m.PathPeak {
			t.Errorf("%s: implausible memory %+v", name, m)
		}
		if r.Bytes < n*50 {
			t.Errorf("%s: %d value bytes for %d records", name, r.Bytes, n)
		}
		if !slices.Contains(r.Conf, "isolation.level:read_committed") {
			t.Errorf("%s: conf lacks read_committed: %v", name, r.Conf)
		}
		t.Logf("%s: %d records in %v (%.0f rec/s), start-up %v, warm-up %d records, %s %s heap %d MiB, RSS peak %d KiB (harness %d, path peak %d)",
			name, r.Records, r.Window, float64(r.Records)/r.Window.Seconds(), r.Startup, r.WarmupRecords, r.JVM, r.GC, r.HeapMax>>20,
			r.Mem.Peak, r.Mem.Harness, r.Mem.PathPeak)
	}

	steady := base
	steady.Program, steady.Topic, steady.WarmupRecords = Steady, topics["json"], n
	check("steady json", steady)
	cold := steady
	cold.WarmupRecords, cold.CRC, cold.MaxPollRecords = 0, false, 500
	check("steady json, no warm-up, crc off, 500 per poll", cold)

	for _, f := range []string{"raw", "json", "avro", "protobuf", "csv"} {
		fl := base
		fl.Program, fl.Topic, fl.Format = Flink, topics[f], f
		if f == "raw" {
			fl.Parallelism = 2 // fewer subtasks than partitions: one reads two
		}
		check("flink "+f, fl)
	}

	// Run dispatches path=java and path=flink to their programs and
	// path=java-perf to ConsumerPerformance; a flink cell that checkpoints
	// reports Flink's own checkpoint durations. Every one reports the
	// JVM's memory split as a Go cell's.
	// path=flink-warm runs FlinkWarmupRuns whole reads first on the same
	// MiniCluster, at the cell's parallelism.
	for _, path := range []string{cell.PathJava, cell.PathFlink, cell.PathFlink + "+ckpt", cell.PathFlinkWarm + "+par2", cell.PathJavaPerf} {
		ckpt, par := time.Duration(0), ""
		if p, ok := strings.CutSuffix(path, "+ckpt"); ok {
			path, ckpt = p, 50*time.Millisecond
		}
		if p, ok := strings.CutSuffix(path, "+par2"); ok {
			path, par = p, "2"
		}
		c := rungargs.Cell{
			Cell: cell.Cell{Path: path, Format: cell.FormatJSON, Batch: 1024, Brokers: 1, Alloc: cell.AllocGo,
				Cluster: cell.ClusterKafka, CRC: true, Ckpt: ckpt, Par: par},
			Bootstrap: cl.Bootstrap(), Topic: topics["json"], Partitions: parts,
			Records: n, Seed: 1, Schema: "bid", Timeout: 90 * time.Second,
		}
		res := rungtest.MustRun(t, c)
		out := res.Out
		wants := []string{"BenchmarkLadder/" + c.Name() + " 20000 ", " rec/s", " startup-ms", "\nclient: "}
		if path != cell.PathJavaPerf {
			wants = append(wants, "\njvm-flags: -Xms", "\njava-conf: fetch.min.bytes:1,")
		}
		if ckpt > 0 {
			wants = append(wants, " ckpt-p50-ms", " ckpts", "checkpoint-ms:50")
		}
		switch path {
		case cell.PathFlink:
			wants = append(wants, fmt.Sprintf(",parallelism:%d,", Par(0, parts)), "\njava-warmup: 0 records")
		case cell.PathFlinkWarm:
			wants = append(wants, ",parallelism:2,", fmt.Sprintf("\njava-warmup: %d records in ", FlinkWarmupRuns*n), "warm-up reads on the same MiniCluster")
		}
		for _, want := range wants {
			if !strings.Contains(out, want) {
				t.Errorf("cell %s: output lacks %q:\n%s", path, want, out)
			}
		}
		u := res.Units()
		peak, pathPeak, harness := u[results.UnitPeakRSSMB], u[results.UnitPathPeakRSSMB], u[results.UnitHarnessRSSMB]
		if !res.Has(results.UnitPathPeakRSSMB) || harness < 20 || pathPeak <= 0 || peak < harness+pathPeak-0.01 {
			t.Errorf("cell %s: memory peak %v, path %v, harness %v MiB (present %v):\n%s",
				c.Name(), peak, pathPeak, harness, res.Has(results.UnitPathPeakRSSMB), out)
		}
		t.Logf("cell %s: peak-RSS-MB %.1f, path-peak-RSS-MB %.1f, harness-RSS-MB %.1f", c.Name(), peak, pathPeak, harness)
	}

	// A wrong count fails, naming both counts, in either program.
	wrong := steady
	wrong.Records = n - 1
	if _, err := Run(ctx, java, jar, wrong); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("read %d records", n)) {
		t.Errorf("steady expecting %d of %d records: err = %v", n-1, n, err)
	}
	wrongF := base
	wrongF.Program, wrongF.Topic, wrongF.Format, wrongF.Records = Flink, topics["raw"], "raw", n+1
	if _, err := Run(ctx, java, jar, wrongF); err == nil || !strings.Contains(err.Error(), "expected") {
		t.Errorf("flink expecting %d of %d records: err = %v", n+1, n, err)
	}
	// Decoding the raw topic's JSON as Avro fails the job, not the count.
	badF := base
	badF.Program, badF.Topic, badF.Format = Flink, topics["json"], "avro"
	if _, err := Run(ctx, java, jar, badF); err == nil || !strings.Contains(err.Error(), "fplab: flink:") {
		t.Errorf("flink decoding json as avro: err = %v", err)
	}
}

// TestKafkaJavaRefMeasure is the side-by-side measurement of docs/kafka.md
// ("Java references"): on one real broker, a 500,000-record raw and json
// corpus in 6 partitions, ConsumerPerformance (path=java), SteadyConsumer
// and FlinkBounded, with the fast path for context. Opt-in, it takes
// minutes: FPLAB_JAVAREF_MEASURE=1 (records: FPLAB_JAVAREF_RECORDS).
func TestKafkaJavaRefMeasure(t *testing.T) {
	if os.Getenv("FPLAB_JAVAREF_MEASURE") == "" {
		t.Skip("measurement, not a test: set FPLAB_JAVAREF_MEASURE=1")
	}
	java, jar := javaRefJar(t)
	n := 500000
	if s := os.Getenv("FPLAB_JAVAREF_RECORDS"); s != "" {
		fmt.Sscan(s, &n)
	}
	const parts = 6
	cl := kafkatest.Start(t, kafka.Options{Brokers: 1, Partitions: parts, Dir: filepath.Join(t.TempDir(), "kafka")})
	ctx := context.Background()
	table := []string{"| corpus | program | rec/s | window s | start-up s | JVM CPU, peak RSS |", "|---|---|---|---|---|---|"}
	row := func(format, what string, recs int64, window, startup time.Duration, note string) {
		line := fmt.Sprintf("| %s | %s | %.0fk | %.2f | %.2f | %s |", format, what,
			float64(recs)/window.Seconds()/1e3, window.Seconds(), startup.Seconds(), note)
		table = append(table, line)
		t.Log(line)
	}
	for _, f := range []workloads.Format{workloads.FormatRaw, workloads.FormatJSON} {
		topic := loadJavaRefCorpus(t, cl, f, parts, n)
		// Kafka's ConsumerPerformance (java-perf), the steady consumer
		// (java) and the fast path, through the rung.
		for _, p := range []string{cell.PathJavaPerf, cell.PathJava, cell.PathFast} {
			c := rungargs.Cell{
				Cell: cell.Cell{Path: p, Format: string(f), Batch: 1024, Brokers: 1, Alloc: cell.AllocGo,
					Cluster: cell.ClusterKafka, CRC: true},
				Bootstrap: cl.Bootstrap(), Topic: topic, Partitions: parts,
				Records: n, Seed: 1, Schema: "bid", Timeout: 3 * time.Minute,
			}
			res := strings.TrimSpace(rungtest.MustRun(t, c).Out)
			res = res[strings.LastIndexByte(res, '\n')+1:] // the BenchmarkLadder line
			t.Logf("%s", res)
			table = append(table, res)
		}
		base := Opts{Bootstrap: cl.Bootstrap(), Topic: topic, Partitions: parts, Records: n, CRC: true, Timeout: 3 * time.Minute}
		runs := []struct {
			what string
			o    Opts
		}{
			{"steady (warm-up 1 pass)", Opts{Program: Steady, WarmupRecords: n}},
			{"steady (no warm-up)", Opts{Program: Steady}},
			{"steady (warm-up, max.poll.records 500)", Opts{Program: Steady, WarmupRecords: n, MaxPollRecords: 500}},
			{"steady (warm-up, max.poll.records 10000)", Opts{Program: Steady, WarmupRecords: n, MaxPollRecords: 10000}},
			{"flink p=6", Opts{Program: Flink, Format: string(f)}},
			{"flink p=2", Opts{Program: Flink, Format: string(f), Parallelism: 2}},
			{"flink p=2, 1 warm-up run", Opts{Program: Flink, Format: string(f), Parallelism: 2, WarmupRuns: 1}},
		}
		for _, r := range runs {
			o := r.o
			o.Bootstrap, o.Topic, o.Partitions, o.Records, o.CRC, o.Timeout = base.Bootstrap, base.Topic, base.Partitions, base.Records, base.CRC, base.Timeout
			res, err := Run(ctx, java, jar, o)
			if err != nil {
				t.Fatalf("%s %s: %v", r.what, f, err)
			}
			row(string(f), r.what, res.Records, res.Window, res.Startup,
				fmt.Sprintf("cpu %.1fs, rss peak %d MiB (harness %d, path peak %d)", res.CPU.Seconds(),
					res.Mem.Peak>>10, res.Mem.Harness>>10, res.Mem.PathPeak>>10))
		}
	}
	t.Logf("summary (%d records, %d partitions, 1 broker):\n%s", n, parts, strings.Join(table, "\n"))
}
