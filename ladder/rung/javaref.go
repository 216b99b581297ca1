package rung

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/fastpathlab/fplab/clusters/kafka"
	"github.com/fastpathlab/fplab/ladder/rungargs"
	"github.com/fastpathlab/fplab/results"
)

// The Java references built from java/ (docs/kafka.md, "Java
// references"): one jar, two programs.
//
//   - JavaSteady (fplab.SteadyConsumer): kafka-clients with explicit
//     assignment of a bounded range, fetch and poll sizes set against
//     librdkafka's, a warm-up pass excluded from the window.
//   - JavaFlink (fplab.FlinkBounded): Flink's KafkaSource in a bounded job
//     on a local MiniCluster, the format's stock Flink deserializer, a
//     counting sink.
//
// Both print one result line (ParseJavaRef) and fail, with one line on
// stderr, unless they read exactly the expected count.
type JavaProgram string

const (
	JavaSteady JavaProgram = "steady"
	JavaFlink  JavaProgram = "flink"
)

// JVM settings of the reference programs, recorded with every result
// (JavaRefResult.Argv). SteadyConsumer gets what kafka-run-class.sh gives
// ConsumerPerformance (java.go): a 512 MiB heap and G1 with Kafka's
// pause and occupancy settings, so the two Java consumers differ only in
// how they read. Flink runs a JobManager and a TaskManager in the same JVM
// (MiniCluster), so it gets 1 GiB, the same collector and settings. The
// --add-opens Flink needs on Java 17 are in the jar's manifest (java/pom.xml).
var (
	javaRefGC         = []string{"-XX:+UseG1GC", "-XX:MaxGCPauseMillis=20", "-XX:InitiatingHeapOccupancyPercent=35", "-XX:+ExplicitGCInvokesConcurrent"}
	javaRefHeapSteady = []string{"-Xms512M", "-Xmx512M"}
	javaRefHeapFlink  = []string{"-Xms1G", "-Xmx1G"}
	javaRefJVMCommon  = []string{"-Djava.awt.headless=true", "-Dfile.encoding=UTF-8"}
	javaRefKillGrace  = 20 * time.Second // past the program's own --timeout-ms
)

// JavaRefJVMFlags are the JVM flags of program p (heap and collector).
func JavaRefJVMFlags(p JavaProgram) []string {
	heap := javaRefHeapSteady
	if p == JavaFlink {
		heap = javaRefHeapFlink
	}
	return slices.Concat(heap, javaRefGC, javaRefJVMCommon)
}

// JavaRefOpts is one run of a reference program.
type JavaRefOpts struct {
	Program    JavaProgram
	Bootstrap  []string
	Topic      string
	Partitions int
	Records    int // the corpus count: the program fails unless it reads exactly this
	// CRC is check.crcs.
	CRC bool
	// ConsumerConfig is a properties file of extra client settings (SASL);
	// empty for none. Keys the programs set themselves are refused.
	ConsumerConfig string
	// Timeout bounds the program (its --timeout-ms); the process group is
	// killed javaRefKillGrace later if it has not exited by itself.
	Timeout time.Duration
	// MaxPollRecords is max.poll.records; 0 keeps the programs' default
	// (100000, docs/kafka.md).
	MaxPollRecords int

	// WarmupRecords (steady) is how many records are read and discarded
	// before the measured pass; 0 for none. The caller passes Records for
	// one full warm-up pass, the programs' own default.
	WarmupRecords int

	// Format (flink) is raw, json or avro.
	Format string
	// Parallelism (flink); 0 is the partition count.
	Parallelism int
	// WarmupRuns (flink) is how many times the whole bounded job runs
	// before the measured run, in the same JVM; 0 for a cold job.
	WarmupRuns int
	// Checkpoint (flink) is Flink's checkpoint interval; 0 for none.
	// With one, the program prints its FPLAB-CKPT line (JavaRefCkpt).
	Checkpoint time.Duration
}

// JavaRefArgv is the java command line (without the java binary) that runs
// o with the jar: JVM flags, -jar, the program and its arguments.
func JavaRefArgv(jar string, o JavaRefOpts) ([]string, error) {
	switch {
	case o.Program != JavaSteady && o.Program != JavaFlink:
		return nil, fmt.Errorf("rung: unknown Java reference program %q (want %s or %s)", o.Program, JavaSteady, JavaFlink)
	case len(o.Bootstrap) == 0 || o.Topic == "":
		return nil, fmt.Errorf("rung: java %s: bootstrap and topic are required", o.Program)
	case o.Partitions < 1 || o.Records < 0:
		return nil, fmt.Errorf("rung: java %s: %d partitions, %d records", o.Program, o.Partitions, o.Records)
	case o.Timeout < time.Millisecond:
		return nil, fmt.Errorf("rung: java %s: timeout %v is below 1 ms", o.Program, o.Timeout)
	case o.MaxPollRecords < 0 || o.WarmupRecords < 0 || o.WarmupRuns < 0 || o.Parallelism < 0:
		return nil, fmt.Errorf("rung: java %s: negative max-poll-records, warm-up or parallelism", o.Program)
	case o.Program == JavaSteady && (o.Format != "" || o.Parallelism != 0 || o.WarmupRuns != 0):
		return nil, fmt.Errorf("rung: java steady takes no format, parallelism or warm-up runs (it counts raw values)")
	case o.Program == JavaFlink && !slices.Contains(kafka.RefFlinkFormats, o.Format):
		return nil, fmt.Errorf("rung: java flink: format %q is not built (want %s)", o.Format, strings.Join(kafka.RefFlinkFormats, ", "))
	case o.Program == JavaFlink && o.WarmupRecords != 0:
		return nil, fmt.Errorf("rung: java flink warms up with whole runs (WarmupRuns), not records")
	case o.Checkpoint < 0 || (o.Checkpoint > 0 && o.Checkpoint < time.Millisecond):
		return nil, fmt.Errorf("rung: java %s: checkpoint interval %v is not 0 or at least 1 ms", o.Program, o.Checkpoint)
	case o.Program == JavaSteady && o.Checkpoint != 0:
		return nil, fmt.Errorf("rung: java steady does not checkpoint")
	}
	argv := slices.Concat(JavaRefJVMFlags(o.Program), []string{"-jar", jar, string(o.Program),
		"--bootstrap", strings.Join(o.Bootstrap, ","),
		"--topic", o.Topic,
		"--partitions", strconv.Itoa(o.Partitions),
		"--records", strconv.Itoa(o.Records),
		"--check-crcs", strconv.FormatBool(o.CRC),
		"--timeout-ms", strconv.FormatInt(o.Timeout.Milliseconds(), 10),
	})
	if o.MaxPollRecords > 0 {
		argv = append(argv, "--max-poll-records", strconv.Itoa(o.MaxPollRecords))
	}
	if o.ConsumerConfig != "" {
		argv = append(argv, "--consumer-config", o.ConsumerConfig)
	}
	switch o.Program {
	case JavaSteady:
		argv = append(argv, "--warmup-records", strconv.Itoa(o.WarmupRecords))
	case JavaFlink:
		argv = append(argv, "--format", o.Format, "--warmup-runs", strconv.Itoa(o.WarmupRuns))
		if o.Checkpoint > 0 {
			argv = append(argv, "--checkpoint-ms", strconv.FormatInt(o.Checkpoint.Milliseconds(), 10))
		}
		if o.Parallelism > 0 {
			argv = append(argv, "--parallelism", strconv.Itoa(o.Parallelism))
		}
	}
	return argv, nil
}

// JavaRefResult is a reference program's result line, plus what the Go side
// saw of the process.
type JavaRefResult struct {
	Program       JavaProgram
	Records       int64
	Bytes         int64         // value bytes of the measured records
	Window        time.Duration // first to last record of the measured pass or run
	Startup       time.Duration // JVM start to the first record the program received
	WarmupRecords int64         // records read before the measured pass (steady) or in warm-up runs (flink)
	Warmup        time.Duration // the warm-up reads' own windows
	JVM           string        // java.vm.name/java.vm.version, spaces as '_'
	GC            string        // the collectors' names, comma-separated, spaces as '_'
	HeapMax       int64         // Runtime.maxMemory(), bytes
	Conf          []string      // the client (and Flink) settings in force, "key:value"

	// Ckpt is Flink's own checkpoint statistics of the measured run, nil
	// unless it checkpointed (ParseJavaRefCkpt).
	Ckpt *JavaRefCkpt

	// Set by RunJavaRef, not by ParseJavaRef:
	Argv   []string      // the java command line, JVM flags included
	CPU    time.Duration // user+sys CPU of the whole JVM, start-up included
	MaxRSS int64         // peak resident set, KiB
}

// javaRefPrefix starts the result line.
const javaRefPrefix = "FPLAB"

// javaRefKeys are the result line's fields, each required exactly once.
var javaRefKeys = []string{"program", "records", "bytes", "window_ns", "startup_ns",
	"warmup_records", "warmup_ns", "jvm", "gc", "heap_max", "conf"}

// ParseJavaRef reads the one result line of a reference program's stdout:
//
//	FPLAB program=steady records=N bytes=B window_ns=W startup_ns=S warmup_records=R warmup_ns=U jvm=NAME/VERSION gc=NAME,... heap_max=BYTES conf=KEY:VALUE,...
//
// Every field is required exactly once and no other is allowed; numbers
// are non-negative decimal integers, records and window_ns are positive
// unless records is 0. No result line, two of them, or a malformed one is
// an error naming what is wrong.
func ParseJavaRef(stdout string) (JavaRefResult, error) {
	line, n := prefixedLine(stdout, javaRefPrefix)
	switch n {
	case 0:
		return JavaRefResult{}, fmt.Errorf("rung: java reference printed no %q result line", javaRefPrefix)
	case 1:
	default:
		return JavaRefResult{}, fmt.Errorf("rung: java reference printed %d %q result lines, want one", n, javaRefPrefix)
	}
	bad := func(format string, a ...any) (JavaRefResult, error) {
		return JavaRefResult{}, fmt.Errorf("rung: java reference result line %q: %s", line, fmt.Sprintf(format, a...))
	}
	kv := make(map[string]string, len(javaRefKeys))
	for _, f := range strings.Fields(line)[1:] {
		k, v, ok := strings.Cut(f, "=")
		switch {
		case !ok || k == "":
			return bad("field %q is not key=value", f)
		case !slices.Contains(javaRefKeys, k):
			return bad("unknown field %q", k)
		case v == "":
			return bad("field %s is empty", k)
		}
		if _, dup := kv[k]; dup {
			return bad("field %s given twice", k)
		}
		kv[k] = v
	}
	for _, k := range javaRefKeys {
		if _, ok := kv[k]; !ok {
			return bad("missing field %s", k)
		}
	}
	num := func(k string) (int64, error) {
		v, err := strconv.ParseInt(kv[k], 10, 64)
		if err != nil || v < 0 {
			return 0, fmt.Errorf("field %s=%q is not a non-negative integer", k, kv[k])
		}
		return v, nil
	}
	var r JavaRefResult
	var nums [7]int64
	for i, k := range []string{"records", "bytes", "window_ns", "startup_ns", "warmup_records", "warmup_ns", "heap_max"} {
		v, err := num(k)
		if err != nil {
			return bad("%v", err)
		}
		nums[i] = v
	}
	r.Program = JavaProgram(kv["program"])
	if r.Program != JavaSteady && r.Program != JavaFlink {
		return bad("unknown program %q", kv["program"])
	}
	r.Records, r.Bytes = nums[0], nums[1]
	r.Window, r.Startup = time.Duration(nums[2]), time.Duration(nums[3])
	r.WarmupRecords, r.Warmup = nums[4], time.Duration(nums[5])
	r.HeapMax = nums[6]
	r.JVM, r.GC = kv["jvm"], kv["gc"]
	if r.Records > 0 && r.Window <= 0 {
		return bad("an empty window for %d records", r.Records)
	}
	if r.HeapMax == 0 {
		return bad("heap_max is 0")
	}
	if kv["conf"] != "-" {
		for _, c := range strings.Split(kv["conf"], ",") {
			if k, v, ok := strings.Cut(c, ":"); !ok || k == "" || v == "" {
				return bad("conf entry %q is not key:value", c)
			}
			r.Conf = append(r.Conf, c)
		}
	}
	return r, nil
}

// RunJavaRef runs o with java and the jar, in its own process group that
// is killed when ctx ends, when the program overruns its timeout by
// javaRefKillGrace, and in any case once it has exited (nothing it started
// outlives it). It returns the parsed result line, checked against
// o.Records; a non-zero exit is an error carrying the program's one
// "fplab: ..." stderr line (or its last stderr lines).
func RunJavaRef(ctx context.Context, java, jar string, o JavaRefOpts) (JavaRefResult, error) {
	if err := kafka.CheckRefJar(jar); err != nil {
		return JavaRefResult{}, err
	}
	argv, err := JavaRefArgv(jar, o)
	if err != nil {
		return JavaRefResult{}, err
	}
	// The JVM's temporary files (Flink's MiniCluster unpacks a 21 MB RPC
	// jar and makes blob and state directories per job) go to a directory
	// of this run's, removed once it is over: left in /tmp they outlived
	// the runs and filled the disk.
	tmp, err := os.MkdirTemp("", "fplab-jvm-")
	if err != nil {
		return JavaRefResult{}, fmt.Errorf("rung: %w", err)
	}
	defer os.RemoveAll(tmp)
	argv = append([]string{"-Djava.io.tmpdir=" + tmp}, argv...)
	ctx, cancel := context.WithTimeout(ctx, o.Timeout+javaRefKillGrace)
	defer cancel()
	cmd := exec.CommandContext(ctx, java, argv...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 2 * time.Second
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err = cmd.Run()
	if cmd.Process != nil {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
	what := "java " + string(o.Program)
	if ctx.Err() != nil {
		return JavaRefResult{}, fmt.Errorf("rung: %s did not finish within %v (killed): %s", what, o.Timeout+javaRefKillGrace, javaRefStderr(stderr.String()))
	}
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return JavaRefResult{}, fmt.Errorf("rung: %s: %v: %s", what, err, javaRefStderr(stderr.String()))
		}
		return JavaRefResult{}, fmt.Errorf("rung: %s: %w", what, err)
	}
	r, err := ParseJavaRef(stdout.String())
	if err != nil {
		return JavaRefResult{}, err
	}
	if r.Ckpt, err = ParseJavaRefCkpt(stdout.String()); err != nil {
		return JavaRefResult{}, err
	}
	if (r.Ckpt != nil) != (o.Checkpoint > 0) {
		return JavaRefResult{}, fmt.Errorf("rung: %s: checkpoint interval %v but checkpoint statistics printed: %v", what, o.Checkpoint, r.Ckpt != nil)
	}
	if r.Program != o.Program {
		return JavaRefResult{}, fmt.Errorf("rung: %s printed the result of program %q", what, r.Program)
	}
	if r.Records != int64(o.Records) {
		return JavaRefResult{}, fmt.Errorf("rung: %s read %d records, corpus has %d", what, r.Records, o.Records)
	}
	r.Argv = argv
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok && ru != nil {
		r.CPU = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
		r.MaxRSS = ru.Maxrss
	}
	return r, nil
}

// javaRefStderr is the program's failure line ("fplab: <program>: ..."),
// the last one when there are several, else its last three non-empty
// stderr lines joined.
func javaRefStderr(s string) string {
	var tail []string
	fail := ""
	for _, l := range strings.Split(s, "\n") {
		l = strings.TrimSpace(l)
		if l == "" {
			continue
		}
		if strings.HasPrefix(l, "fplab: ") {
			fail = l
		}
		tail = append(tail, l)
	}
	if fail != "" {
		return fail
	}
	if len(tail) == 0 {
		return "no output on stderr"
	}
	if len(tail) > 3 {
		tail = tail[len(tail)-3:]
	}
	return strings.Join(tail, " | ")
}

// Client names of the reference programs, for the result's client line;
// versions as java/pom.xml pins them.
const (
	javaRefSteadyClient = "kafka-clients " + kafka.Version + " (fplab SteadyConsumer)"
	javaRefFlinkClient  = "Flink 2.2.1 KafkaSource (flink-connector-kafka 5.0.0-2.2)"
)

// javaRefMargin is how much of the cell's time is kept back from the
// program's own timeout, so that it reports its timeout itself before the
// cell's context kills it.
const javaRefMargin = 5 * time.Second

// runJavaRefCell measures a cell with reference program p on a real
// cluster: the cell's checks as runJava does them (broker count, a topic
// holding exactly the corpus, the stored codec), then the program, whose
// count must equal the corpus. Steady warms up with one full pass; Flink
// runs cold, at parallelism = partitions (FlinkBounded's default).
//
// Units: rec/s, MB/s (value bytes / 10^6) and ns/rec over the program's
// window; startup-ms is JVM start to the first record; proc-cpu-ns/rec
// and peak-RSS-MB are the whole JVM's (warm-up and start-up included).
// The JVM, its flags, the collector, the heap and the client settings are
// file-config lines of the result.
func runJavaRefCell(ctx context.Context, c *rungargs.Cell, b Build, w io.Writer, p JavaProgram) error {
	java, err := kafka.FindJava()
	if err != nil {
		return fmt.Errorf("rung: path=%s: %w", c.Path, err)
	}
	jar := kafka.RefJar()
	if err := kafka.CheckRefJar(jar); err != nil {
		return err
	}
	if err := checkCountedTopic(ctx, c); err != nil {
		return err
	}
	o := JavaRefOpts{Program: p, Bootstrap: c.Bootstrap, Topic: c.Topic, Partitions: c.Partitions,
		Records: c.Records, CRC: c.CRC}
	switch p {
	case JavaSteady:
		o.WarmupRecords = c.Records
	case JavaFlink:
		o.Format, o.Checkpoint = c.Format, c.Ckpt
	}
	sec, err := javaSecurity(c.Props)
	if err != nil {
		return err
	}
	if sec != "" {
		dir, err := os.MkdirTemp("", "fplab-javaref-")
		if err != nil {
			return fmt.Errorf("rung: %w", err)
		}
		defer os.RemoveAll(dir)
		o.ConsumerConfig = filepath.Join(dir, "consumer.properties")
		if err := os.WriteFile(o.ConsumerConfig, []byte(sec), 0o600); err != nil {
			return fmt.Errorf("rung: %w", err)
		}
	}
	o.Timeout = c.Timeout
	if dl, ok := ctx.Deadline(); ok {
		o.Timeout = max(time.Until(dl)-javaRefMargin, time.Second)
	}
	r, err := RunJavaRef(ctx, java, jar, o)
	if err != nil {
		return err
	}
	if r.Records == 0 {
		return fmt.Errorf("rung: path=%s read an empty corpus", c.Path)
	}
	recs, secs := float64(r.Records), r.Window.Seconds()
	figs := []metric{
		{recs / secs, results.UnitRecPerSec},
		{float64(r.Bytes) / 1e6 / secs, results.UnitMBPerSec},
		{float64(r.Window.Nanoseconds()) / recs, results.UnitNsPerRec},
		{float64(r.CPU.Nanoseconds()) / recs, "proc-cpu-ns/rec"},
		{float64(r.MaxRSS) / 1024, results.UnitPeakRSSMB},
		{ms(r.Startup), results.UnitStartupMs},
		{ms(r.Window), results.UnitWindowMs},
	}
	if k := r.Ckpt; k != nil {
		// Flink's own checkpoint durations (trigger to the last
		// acknowledgement), beside the lab's ckpt-* of the Go paths.
		figs = append(figs,
			metric{ms(k.P50), "ckpt-p50-ms"},
			metric{ms(k.Max), "ckpt-max-ms"},
			metric{float64(k.Count), "ckpts"},
			metric{float64(k.Failed), "ckpts-failed"})
	}
	client := javaRefSteadyClient
	if p == JavaFlink {
		client = javaRefFlinkClient
	}
	return writeResult(w, c, b, client, r.Records, figs,
		[2]string{"jvm", r.JVM},
		[2]string{"jvm-flags", strings.Join(JavaRefJVMFlags(p), " ")},
		[2]string{"jvm-gc", r.GC},
		[2]string{"jvm-heap-max", fmt.Sprint(r.HeapMax)},
		[2]string{"java-conf", strings.Join(r.Conf, ",")},
		[2]string{"java-warmup", fmt.Sprintf("%d records in %v", r.WarmupRecords, r.Warmup)})
}

// prefixedLine is the last line of stdout that is prefix or starts with
// prefix and a space (a trailing CR dropped), and how many lines do.
func prefixedLine(stdout, prefix string) (string, int) {
	var line string
	n := 0
	for _, l := range strings.Split(stdout, "\n") {
		l = strings.TrimRight(l, "\r")
		if l == prefix || strings.HasPrefix(l, prefix+" ") {
			line = l
			n++
		}
	}
	return line, n
}
