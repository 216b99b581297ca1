package rung

import (
	"bytes"
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
	"github.com/fastpathlab/fplab/ladder/rungargs"
	"github.com/fastpathlab/fplab/workloads"
)

const javaRefSample = "FPLAB program=steady records=500000 bytes=55000000 window_ns=1250000000 startup_ns=2100000000 " +
	"warmup_records=500000 warmup_ns=2000000000 jvm=OpenJDK_64-Bit_Server_VM/17.0.15+6-Debian-1deb12u1 " +
	"gc=G1_Young_Generation,G1_Old_Generation heap_max=536870912 " +
	"conf=fetch.min.bytes:1,fetch.max.bytes:52428800,max.poll.records:10000,isolation.level:read_committed"

func TestParseJavaRef(t *testing.T) {
	r, err := ParseJavaRef("[main] WARN noise\n" + javaRefSample + "\n")
	if err != nil {
		t.Fatal(err)
	}
	want := JavaRefResult{
		Program: JavaSteady, Records: 500000, Bytes: 55000000,
		Window: 1250 * time.Millisecond, Startup: 2100 * time.Millisecond,
		WarmupRecords: 500000, Warmup: 2 * time.Second,
		JVM: "OpenJDK_64-Bit_Server_VM/17.0.15+6-Debian-1deb12u1", GC: "G1_Young_Generation,G1_Old_Generation",
		HeapMax: 536870912,
		Conf:    []string{"fetch.min.bytes:1", "fetch.max.bytes:52428800", "max.poll.records:10000", "isolation.level:read_committed"},
	}
	if fmt.Sprintf("%+v", r) != fmt.Sprintf("%+v", want) {
		t.Errorf("ParseJavaRef =\n%+v\nwant\n%+v", r, want)
	}
	// An empty conf is written as "-".
	if r, err := ParseJavaRef(strings.Replace(javaRefSample, "conf=fetch", "conf=- x=fetch", 1)); err == nil {
		t.Errorf("unknown field x accepted: %+v", r)
	}
	noConf := javaRefSample[:strings.Index(javaRefSample, " conf=")] + " conf=-"
	if r, err := ParseJavaRef(noConf); err != nil || r.Conf != nil {
		t.Errorf("conf=-: %+v, %v", r, err)
	}
	// A zero-record read of an empty topic has no window.
	empty := strings.NewReplacer("records=500000 bytes=55000000 window_ns=1250000000", "records=0 bytes=0 window_ns=0").Replace(javaRefSample)
	if _, err := ParseJavaRef(empty); err != nil {
		t.Errorf("empty read: %v", err)
	}

	for name, tc := range map[string]struct{ out, want string }{
		"no line":          {"[main] WARN something\n", "no \"FPLAB\" result line"},
		"empty output":     {"", "no \"FPLAB\" result line"},
		"two lines":        {javaRefSample + "\n" + javaRefSample, "2 \"FPLAB\" result lines"},
		"missing records":  {strings.Replace(javaRefSample, "records=500000 ", "", 1), "missing field records"},
		"missing window":   {strings.Replace(javaRefSample, "window_ns=1250000000 ", "", 1), "missing field window_ns"},
		"missing heap_max": {strings.Replace(javaRefSample, "heap_max=536870912 ", "", 1), "missing field heap_max"},
		"missing conf":     {javaRefSample[:strings.Index(javaRefSample, " conf=")], "missing field conf"},
		"bare prefix":      {"FPLAB", "missing field program"},
		"bad records":      {strings.Replace(javaRefSample, "records=500000 ", "records=5e5 ", 1), `records="5e5"`},
		"negative window":  {strings.Replace(javaRefSample, "window_ns=1250000000", "window_ns=-1", 1), `window_ns="-1"`},
		"float startup":    {strings.Replace(javaRefSample, "startup_ns=2100000000", "startup_ns=2.1", 1), `startup_ns="2.1"`},
		"overflow":         {strings.Replace(javaRefSample, "bytes=55000000", "bytes=99999999999999999999", 1), `bytes="99999999999999999999"`},
		"zero window":      {strings.Replace(javaRefSample, "window_ns=1250000000", "window_ns=0", 1), "empty window"},
		"zero heap":        {strings.Replace(javaRefSample, "heap_max=536870912", "heap_max=0", 1), "heap_max is 0"},
		"duplicate":        {javaRefSample + " records=1", "records given twice"},
		"unknown field":    {javaRefSample + " speed=fast", `unknown field "speed"`},
		"not key=value":    {javaRefSample + " loose", `"loose" is not key=value`},
		"empty value":      {strings.Replace(javaRefSample, "gc=G1_Young_Generation,G1_Old_Generation", "gc=", 1), "gc is empty"},
		"unknown program":  {strings.Replace(javaRefSample, "program=steady", "program=spark", 1), `unknown program "spark"`},
		"bad conf":         {strings.Replace(javaRefSample, "max.poll.records:10000", "max.poll.records", 1), `conf entry "max.poll.records"`},
	} {
		_, err := ParseJavaRef(tc.out)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want one containing %q", name, err, tc.want)
		}
	}
}

func TestJavaRefArgv(t *testing.T) {
	base := JavaRefOpts{Program: JavaSteady, Bootstrap: []string{"127.0.0.1:1", "127.0.0.1:2"}, Topic: "t",
		Partitions: 6, Records: 1000, CRC: true, Timeout: 90 * time.Second, WarmupRecords: 1000}
	argv, err := JavaRefArgv("/j.jar", base)
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(argv, " ")
	want := "-Xms512M -Xmx512M -XX:+UseG1GC -XX:MaxGCPauseMillis=20 -XX:InitiatingHeapOccupancyPercent=35 -XX:+ExplicitGCInvokesConcurrent " +
		"-Djava.awt.headless=true -Dfile.encoding=UTF-8 -jar /j.jar steady --bootstrap 127.0.0.1:1,127.0.0.1:2 --topic t " +
		"--partitions 6 --records 1000 --check-crcs true --timeout-ms 90000 --warmup-records 1000"
	if got != want {
		t.Errorf("steady argv\n got %s\nwant %s", got, want)
	}
	fl := base
	fl.Program, fl.WarmupRecords, fl.Format, fl.Parallelism, fl.MaxPollRecords, fl.ConsumerConfig = JavaFlink, 0, "json", 2, 500, "/c.properties"
	argv, err = JavaRefArgv("/j.jar", fl)
	if err != nil {
		t.Fatal(err)
	}
	got = strings.Join(argv, " ")
	if !strings.HasPrefix(got, "-Xms1G -Xmx1G -XX:+UseG1GC") ||
		!strings.HasSuffix(got, " flink --bootstrap 127.0.0.1:1,127.0.0.1:2 --topic t --partitions 6 --records 1000 --check-crcs true "+
			"--timeout-ms 90000 --max-poll-records 500 --consumer-config /c.properties --format json --warmup-runs 0 --parallelism 2") {
		t.Errorf("flink argv: %s", got)
	}
	for name, mod := range map[string]func(*JavaRefOpts){
		"program":       func(o *JavaRefOpts) { o.Program = "spark" },
		"no topic":      func(o *JavaRefOpts) { o.Topic = "" },
		"no bootstrap":  func(o *JavaRefOpts) { o.Bootstrap = nil },
		"partitions":    func(o *JavaRefOpts) { o.Partitions = 0 },
		"timeout":       func(o *JavaRefOpts) { o.Timeout = 0 },
		"steady format": func(o *JavaRefOpts) { o.Format = "json" },
		"flink parquet": func(o *JavaRefOpts) { o.Program, o.WarmupRecords, o.Format = JavaFlink, 0, "parquet" },
		"steady ckpt":   func(o *JavaRefOpts) { o.Checkpoint = time.Second },
		"flink ckpt 1us": func(o *JavaRefOpts) {
			o.Program, o.WarmupRecords, o.Format, o.Checkpoint = JavaFlink, 0, "json", time.Microsecond
		},
		"flink warm recs": func(o *JavaRefOpts) { o.Program, o.Format = JavaFlink, "raw" },
		"negative":        func(o *JavaRefOpts) { o.MaxPollRecords = -1 },
	} {
		o := base
		mod(&o)
		if _, err := JavaRefArgv("/j.jar", o); err == nil {
			t.Errorf("%s: want an error", name)
		}
	}
}

// TestJavaRefTempFiles: the JVM gets a temporary directory of its own
// (-Djava.io.tmpdir) that is gone once RunJavaRef returns, even when the
// program fails. The "java" here is a script that leaves a file there.
func TestJavaRefTempFiles(t *testing.T) {
	dir := t.TempDir()
	jar := filepath.Join(dir, "refs.jar")
	seen := filepath.Join(dir, "tmpdir")
	java := filepath.Join(dir, "java")
	script := "#!/bin/sh\nfor a; do case $a in -Djava.io.tmpdir=*) d=${a#*=};; esac; done\n" +
		"echo x > \"$d/flink-rpc.jar\" && printf %s \"$d\" > " + seen + "\necho 'fplab: failed on purpose' >&2\nexit 3\n"
	if err := os.WriteFile(jar, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(java, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	_, err := RunJavaRef(context.Background(), java, jar, JavaRefOpts{Program: JavaFlink, Bootstrap: []string{"127.0.0.1:1"},
		Topic: "t", Partitions: 1, Records: 1, Format: "json", Timeout: 30 * time.Second})
	if err == nil || !strings.Contains(err.Error(), "failed on purpose") {
		t.Fatalf("RunJavaRef = %v, want the script's failure", err)
	}
	tmp, rerr := os.ReadFile(seen)
	if rerr != nil || !strings.Contains(string(tmp), "fplab-jvm-") {
		t.Fatalf("the JVM was given no temporary directory of its own: %q, %v", tmp, rerr)
	}
	if _, err := os.Stat(string(tmp)); !os.IsNotExist(err) {
		t.Errorf("temporary directory %s left after the run: %v", tmp, err)
	}
}

func TestJavaRefStderr(t *testing.T) {
	for in, want := range map[string]string{
		"":               "no output on stderr",
		"a\nb\n\nc\nd\n": "b | c | d",
		"[x] WARN a\nfplab: steady: read 9 records, expected 10\n": "fplab: steady: read 9 records, expected 10",
	} {
		if got := javaRefStderr(in); got != want {
			t.Errorf("javaRefStderr(%q) = %q, want %q", in, got, want)
		}
	}
}

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
	base := JavaRefOpts{Bootstrap: cl.Bootstrap(), Partitions: parts, Records: n, CRC: true, Timeout: 90 * time.Second}

	check := func(name string, o JavaRefOpts) {
		t.Helper()
		r, err := RunJavaRef(ctx, java, jar, o)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if r.Records != n || r.Window <= 0 || r.Startup <= 0 || r.HeapMax <= 0 || r.JVM == "" || r.GC == "" || r.CPU <= 0 || r.MaxRSS <= 0 {
			t.Errorf("%s: implausible result %+v", name, r)
		}
		if r.Bytes < n*50 {
			t.Errorf("%s: %d value bytes for %d records", name, r.Bytes, n)
		}
		if !slices.Contains(r.Conf, "isolation.level:read_committed") {
			t.Errorf("%s: conf lacks read_committed: %v", name, r.Conf)
		}
		t.Logf("%s: %d records in %v (%.0f rec/s), start-up %v, warm-up %d records, %s %s heap %d MiB",
			name, r.Records, r.Window, float64(r.Records)/r.Window.Seconds(), r.Startup, r.WarmupRecords, r.JVM, r.GC, r.HeapMax>>20)
	}

	steady := base
	steady.Program, steady.Topic, steady.WarmupRecords = JavaSteady, topics["json"], n
	check("steady json", steady)
	cold := steady
	cold.WarmupRecords, cold.CRC, cold.MaxPollRecords = 0, false, 500
	check("steady json, no warm-up, crc off, 500 per poll", cold)

	for _, f := range []string{"raw", "json", "avro", "protobuf", "csv"} {
		fl := base
		fl.Program, fl.Topic, fl.Format = JavaFlink, topics[f], f
		if f == "raw" {
			fl.Parallelism = 2 // fewer subtasks than partitions: one reads two
		}
		check("flink "+f, fl)
	}

	// Run dispatches path=java and path=flink to their programs; a flink
	// cell that checkpoints reports Flink's own checkpoint durations.
	for _, path := range []string{cell.PathJava, cell.PathFlink, cell.PathFlink + "+ckpt"} {
		ckpt := time.Duration(0)
		if p, ok := strings.CutSuffix(path, "+ckpt"); ok {
			path, ckpt = p, 50*time.Millisecond
		}
		c := rungargs.Cell{
			Cell: cell.Cell{Path: path, Format: cell.FormatJSON, Batch: 1024, Brokers: 1, Alloc: cell.AllocGo,
				Cluster: cell.ClusterKafka, CRC: true, Ckpt: ckpt},
			Bootstrap: cl.Bootstrap(), Topic: topics["json"], Partitions: parts,
			Records: n, Seed: 1, Schema: "bid", Timeout: 90 * time.Second,
		}
		var out bytes.Buffer
		if err := Run(ctx, c, Build{Commit: "test"}, &out); err != nil {
			t.Fatalf("cell %s: %v", path, err)
		}
		wants := []string{"BenchmarkLadder/" + c.Name() + " 20000 ", " rec/s", " startup-ms", "\njvm-flags: -Xms", "\njava-conf: fetch.min.bytes:1,", "\nclient: "}
		if ckpt > 0 {
			wants = append(wants, " ckpt-p50-ms", " ckpts", "checkpoint-ms:50")
		}
		for _, want := range wants {
			if !strings.Contains(out.String(), want) {
				t.Errorf("cell %s: output lacks %q:\n%s", path, want, out.String())
			}
		}
	}

	// A wrong count fails, naming both counts, in either program.
	wrong := steady
	wrong.Records = n - 1
	if _, err := RunJavaRef(ctx, java, jar, wrong); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("read %d records", n)) {
		t.Errorf("steady expecting %d of %d records: err = %v", n-1, n, err)
	}
	wrongF := base
	wrongF.Program, wrongF.Topic, wrongF.Format, wrongF.Records = JavaFlink, topics["raw"], "raw", n+1
	if _, err := RunJavaRef(ctx, java, jar, wrongF); err == nil || !strings.Contains(err.Error(), "expected") {
		t.Errorf("flink expecting %d of %d records: err = %v", n+1, n, err)
	}
	// Decoding the raw topic's JSON as Avro fails the job, not the count.
	badF := base
	badF.Program, badF.Topic, badF.Format = JavaFlink, topics["json"], "avro"
	if _, err := RunJavaRef(ctx, java, jar, badF); err == nil || !strings.Contains(err.Error(), "fplab: flink:") {
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
			var out bytes.Buffer
			err := Run(ctx, c, Build{Commit: "measure"}, &out)
			if err != nil {
				t.Fatalf("%s %s: %v", p, f, err)
			}
			res := strings.TrimSpace(out.String())
			res = res[strings.LastIndexByte(res, '\n')+1:] // the BenchmarkLadder line
			t.Logf("%s", res)
			table = append(table, res)
		}
		base := JavaRefOpts{Bootstrap: cl.Bootstrap(), Topic: topic, Partitions: parts, Records: n, CRC: true, Timeout: 3 * time.Minute}
		runs := []struct {
			what string
			o    JavaRefOpts
		}{
			{"steady (warm-up 1 pass)", JavaRefOpts{Program: JavaSteady, WarmupRecords: n}},
			{"steady (no warm-up)", JavaRefOpts{Program: JavaSteady}},
			{"steady (warm-up, max.poll.records 500)", JavaRefOpts{Program: JavaSteady, WarmupRecords: n, MaxPollRecords: 500}},
			{"steady (warm-up, max.poll.records 10000)", JavaRefOpts{Program: JavaSteady, WarmupRecords: n, MaxPollRecords: 10000}},
			{"flink p=6", JavaRefOpts{Program: JavaFlink, Format: string(f)}},
			{"flink p=2", JavaRefOpts{Program: JavaFlink, Format: string(f), Parallelism: 2}},
			{"flink p=2, 1 warm-up run", JavaRefOpts{Program: JavaFlink, Format: string(f), Parallelism: 2, WarmupRuns: 1}},
		}
		for _, r := range runs {
			o := r.o
			o.Bootstrap, o.Topic, o.Partitions, o.Records, o.CRC, o.Timeout = base.Bootstrap, base.Topic, base.Partitions, base.Records, base.CRC, base.Timeout
			res, err := RunJavaRef(ctx, java, jar, o)
			if err != nil {
				t.Fatalf("%s %s: %v", r.what, f, err)
			}
			row(string(f), r.what, res.Records, res.Window, res.Startup,
				fmt.Sprintf("cpu %.1fs, rss %d MiB", res.CPU.Seconds(), res.MaxRSS>>10))
		}
	}
	t.Logf("summary (%d records, %d partitions, 1 broker):\n%s", n, parts, strings.Join(table, "\n"))
}
