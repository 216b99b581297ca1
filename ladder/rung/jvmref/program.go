package jvmref

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/fastpathlab/fplab/clusters/kafka"
)

// Program is one of the two programs of the Java reference jar built from
// java/ (docs/kafka.md, "Java references").
//
//   - Steady (fplab.SteadyConsumer): kafka-clients with explicit
//     assignment of a bounded range, fetch and poll sizes set against
//     librdkafka's, a warm-up pass excluded from the window.
//   - Flink (fplab.FlinkBounded): Flink's KafkaSource in a bounded job
//     on a local MiniCluster, the format's stock Flink deserializer, a
//     counting sink.
//
// Both print one result line (ParseResult) and fail, with one line on
// stderr, unless they read exactly the expected count.
type Program string

const (
	Steady Program = "steady"
	Flink  Program = "flink"
)

// JVM settings of the reference programs, recorded with every result
// (Result.Argv). SteadyConsumer gets what kafka-run-class.sh gives
// ConsumerPerformance (perf.go): a 512 MiB heap and G1 with Kafka's
// pause and occupancy settings, so the two Java consumers differ only in
// how they read. Flink runs a JobManager and a TaskManager in the same JVM
// (MiniCluster), so it gets 1 GiB, the same collector and settings. The
// --add-opens Flink needs on Java 17 are in the jar's manifest (java/pom.xml).
var (
	jvmGC      = []string{"-XX:+UseG1GC", "-XX:MaxGCPauseMillis=20", "-XX:InitiatingHeapOccupancyPercent=35", "-XX:+ExplicitGCInvokesConcurrent"}
	heapSteady = []string{"-Xms512M", "-Xmx512M"}
	heapFlink  = []string{"-Xms1G", "-Xmx1G"}
	jvmCommon  = []string{"-Djava.awt.headless=true", "-Dfile.encoding=UTF-8"}
	killGrace  = 20 * time.Second // past the program's own --timeout-ms
)

// JVMFlags are the JVM flags of program p (heap and collector).
func JVMFlags(p Program) []string {
	heap := heapSteady
	if p == Flink {
		heap = heapFlink
	}
	return slices.Concat(heap, jvmGC, jvmCommon)
}

// Opts is one run of a reference program.
type Opts struct {
	Program    Program
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
	// killed killGrace later if it has not exited by itself.
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
	// With one, the program prints its FPLAB-CKPT line (Ckpt).
	Checkpoint time.Duration

	// Live reads a fresh topic from offset 0 while a producer writes it,
	// until Records are read (--live, RunLive and live.go): the program
	// prints FPLAB-READY once it can receive, a FPLAB-R line per
	// hand-over and a FPLAB-LIVE line with its checksums. A live read
	// takes no warm-up and no checkpoints.
	Live bool

	// Start (flink) runs the job as a start-up case's oracle (--start,
	// flinkstart.go): earliest, latest, timestamp (at StartMs) or
	// committed (Group's offsets, Reset none, earliest or latest); Group
	// is the job's group id, none when empty. Records is then what the
	// case must read, and the program prints its FPLAB-START line
	// (Result.Start). Empty for a plain read.
	Start   string
	StartMs int64
	Group   string
	Reset   string
}

// Argv is the java command line (without the java binary) that runs
// o with the jar: JVM flags, -jar, the program and its arguments.
func Argv(jar string, o Opts) ([]string, error) {
	switch {
	case o.Program != Steady && o.Program != Flink:
		return nil, fmt.Errorf("unknown Java reference program %q (want %s or %s)", o.Program, Steady, Flink)
	case len(o.Bootstrap) == 0 || o.Topic == "":
		return nil, fmt.Errorf("java %s: bootstrap and topic are required", o.Program)
	case o.Partitions < 1 || o.Records < 0:
		return nil, fmt.Errorf("java %s: %d partitions, %d records", o.Program, o.Partitions, o.Records)
	case o.Timeout < time.Millisecond:
		return nil, fmt.Errorf("java %s: timeout %v is below 1 ms", o.Program, o.Timeout)
	case o.MaxPollRecords < 0 || o.WarmupRecords < 0 || o.WarmupRuns < 0 || o.Parallelism < 0:
		return nil, fmt.Errorf("java %s: negative max-poll-records, warm-up or parallelism", o.Program)
	case o.Program == Steady && (o.Format != "" || o.Parallelism != 0 || o.WarmupRuns != 0):
		return nil, fmt.Errorf("java steady takes no format, parallelism or warm-up runs (it counts raw values)")
	case o.Program == Flink && !slices.Contains(kafka.RefFlinkFormats, o.Format):
		return nil, fmt.Errorf("java flink: format %q is not built (want %s)", o.Format, strings.Join(kafka.RefFlinkFormats, ", "))
	case o.Program == Flink && o.WarmupRecords != 0:
		return nil, fmt.Errorf("java flink warms up with whole runs (WarmupRuns), not records")
	case o.Checkpoint < 0 || (o.Checkpoint > 0 && o.Checkpoint < time.Millisecond):
		return nil, fmt.Errorf("java %s: checkpoint interval %v is not 0 or at least 1 ms", o.Program, o.Checkpoint)
	case o.Program == Steady && o.Checkpoint != 0:
		return nil, fmt.Errorf("java steady does not checkpoint")
	case o.Live && (o.WarmupRecords != 0 || o.WarmupRuns != 0 || o.Checkpoint != 0):
		return nil, fmt.Errorf("java %s --live: a live read takes no warm-up pass or run and no checkpoints (its warm-up is the producer's first records)", o.Program)
	case o.Live && o.Records < 1:
		return nil, fmt.Errorf("java %s --live: a live read needs a record count to stop at", o.Program)
	}
	if err := o.checkStart(); err != nil {
		return nil, err
	}
	argv := slices.Concat(JVMFlags(o.Program), []string{"-jar", jar, string(o.Program),
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
	if o.Live {
		argv = append(argv, "--live", "true")
	}
	switch o.Program {
	case Steady:
		argv = append(argv, "--warmup-records", strconv.Itoa(o.WarmupRecords))
	case Flink:
		argv = append(argv, "--format", o.Format, "--warmup-runs", strconv.Itoa(o.WarmupRuns))
		if o.Checkpoint > 0 {
			argv = append(argv, "--checkpoint-ms", strconv.FormatInt(o.Checkpoint.Milliseconds(), 10))
		}
		if o.Parallelism > 0 {
			argv = append(argv, "--parallelism", strconv.Itoa(o.Parallelism))
		}
		argv = append(argv, o.startArgs()...)
	}
	return argv, nil
}
