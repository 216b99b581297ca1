package jvmref

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/fastpathlab/fplab/clusters/kafka"
	"github.com/fastpathlab/fplab/ladder/rung"
	"github.com/fastpathlab/fplab/ladder/rungargs"
	"github.com/fastpathlab/fplab/results"
)

// refPath is a cell path measured by a program of the reference jar: the
// program, the client it names in the result, and what it takes from the
// cell beyond the topic and the count (set). Each path's file registers
// one (steady.go, flink.go).
type refPath struct {
	program Program
	client  string
	set     func(c *rungargs.Cell, o *Opts)
}

// timeoutMargin is how much of the cell's time is kept back from the
// program's own timeout, so that it reports its timeout itself before the
// cell's context kills it.
const timeoutMargin = 5 * time.Second

// run measures a cell with the path's program on a real cluster: the
// cell's checks as java-perf does them (broker count, a topic holding
// exactly the corpus, the stored codec), then the program, whose count
// must equal the corpus. A live cell is runLive's (live.go).
//
// Units: rec/s, MB/s (value bytes / 10^6) and ns/rec over the program's
// window; startup-ms is JVM start to the first record; proc-cpu-ns/rec
// is the whole JVM's (warm-up and start-up included); peak-RSS-MB,
// path-peak-RSS-MB and harness-RSS-MB are the JVM's own figures, split
// where its client or job opens (Mem: the path's peak includes steady's
// warm-up pass and flink's warm-up runs). The JVM, its flags, the
// collector, the heap and the client settings are file-config lines of
// the result.
func (p refPath) run(ctx context.Context, c *rungargs.Cell, b rung.Build, w io.Writer) error {
	java, jar, err := javaAndJar(c)
	if err != nil {
		return err
	}
	if c.Live() {
		return p.runLive(ctx, c, b, java, jar, w)
	}
	if err := rung.CheckCountedTopic(ctx, c); err != nil {
		return err
	}
	o, cleanup, err := p.opts(ctx, c, c.Topic)
	if err != nil {
		return err
	}
	defer cleanup()
	r, err := Run(ctx, java, jar, o)
	if err != nil {
		return err
	}
	if r.Records == 0 {
		return fmt.Errorf("path=%s read an empty corpus", c.Path)
	}
	recs, secs := float64(r.Records), r.Window.Seconds()
	figs := []results.Metric{
		{Value: recs / secs, Unit: results.UnitRecPerSec},
		{Value: float64(r.Bytes) / 1e6 / secs, Unit: results.UnitMBPerSec},
		{Value: float64(r.Window.Nanoseconds()) / recs, Unit: results.UnitNsPerRec},
		{Value: float64(r.CPU.Nanoseconds()) / recs, Unit: "proc-cpu-ns/rec"},
	}
	figs = append(figs, r.Mem.metrics()...)
	figs = append(figs,
		results.Metric{Value: ms(r.Startup), Unit: results.UnitStartupMs},
		results.Metric{Value: ms(r.Window), Unit: results.UnitWindowMs})
	if k := r.Ckpt; k != nil {
		// Flink's own checkpoint durations (trigger to the last
		// acknowledgement), beside the lab's ckpt-* of the Go paths.
		figs = append(figs,
			results.Metric{Value: ms(k.P50), Unit: "ckpt-p50-ms"},
			results.Metric{Value: ms(k.Max), Unit: "ckpt-max-ms"},
			results.Metric{Value: float64(k.Count), Unit: "ckpts"},
			results.Metric{Value: float64(k.Failed), Unit: "ckpts-failed"})
	}
	return rung.WriteResult(w, c, b, p.client, r.Records, figs, append(p.jvmConfig(r),
		[2]string{"java-warmup", fmt.Sprintf("%d records in %v", r.WarmupRecords, r.Warmup)})...)
}

// javaAndJar are the java binary and the reference jar cell c runs with.
func javaAndJar(c *rungargs.Cell) (java, jar string, err error) {
	if java, err = kafka.FindJava(); err != nil {
		return "", "", fmt.Errorf("path=%s: %w", c.Path, err)
	}
	jar = kafka.RefJar()
	if err := kafka.CheckRefJar(jar); err != nil {
		return "", "", err
	}
	return java, jar, nil
}

// opts are the program's options for cell c reading topic: the cell's
// settings, its cluster's SASL settings in a properties file of their own
// (removed by cleanup), and a timeout within the cell's.
func (p refPath) opts(ctx context.Context, c *rungargs.Cell, topic string) (o Opts, cleanup func(), err error) {
	cleanup = func() {}
	o = Opts{Program: p.program, Bootstrap: c.Bootstrap, Topic: topic, Partitions: c.Partitions,
		Records: c.Records, CRC: c.CRC}
	p.set(c, &o)
	sec, err := javaSecurity(c.Props)
	if err != nil {
		return o, cleanup, err
	}
	if sec != "" {
		dir, err := os.MkdirTemp("", "fplab-javaref-")
		if err != nil {
			return o, cleanup, err
		}
		cleanup = func() { os.RemoveAll(dir) }
		o.ConsumerConfig = filepath.Join(dir, "consumer.properties")
		if err := os.WriteFile(o.ConsumerConfig, []byte(sec), 0o600); err != nil {
			cleanup()
			return o, func() {}, err
		}
	}
	o.Timeout = c.Timeout
	if dl, ok := ctx.Deadline(); ok {
		o.Timeout = max(time.Until(dl)-timeoutMargin, time.Second)
	}
	return o, cleanup, nil
}

// jvmConfig are the file-config lines naming the JVM of result r: the
// JVM, its flags, the collector, the heap and the client settings.
func (p refPath) jvmConfig(r Result) [][2]string {
	return [][2]string{
		{"jvm", r.JVM},
		{"jvm-flags", strings.Join(JVMFlags(p.program), " ")},
		{"jvm-gc", r.GC},
		{"jvm-heap-max", fmt.Sprint(r.HeapMax)},
		{"java-conf", strings.Join(r.Conf, ",")},
	}
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1e3 }
