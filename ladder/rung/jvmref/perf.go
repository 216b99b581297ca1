package jvmref

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/fastpathlab/fplab/cell"
	"github.com/fastpathlab/fplab/clusters/kafka"
	"github.com/fastpathlab/fplab/internal/oneline"
	"github.com/fastpathlab/fplab/ladder/rung"
	"github.com/fastpathlab/fplab/ladder/rungargs"
	"github.com/fastpathlab/fplab/results"
)

// javaHeap is the consumer JVM's heap, as kafka-consumer-perf-test.sh sets it.
const javaHeap = "-Xmx512M"

func init() { rung.Register(cell.PathJavaPerf, runPerf) }

// perfMain runs ConsumerPerformance in the child JVM (java/, PerfWrap):
// the tool's own main, called in-process between the marks of the JVM's
// memory, then the FPLAB-RSS line (parsePerfRSS).
const perfMain = "fplab.PerfWrap"

// runPerf measures path=java-perf: Kafka's kafka-consumer-perf-test
// with its defaults. ConsumerPerformance in a child
// JVM reads --messages <corpus count> from the topic; the count it reports
// must equal the corpus count, and the topic must hold exactly the corpus,
// so the whole corpus was read. The window is the tool's fetch time (from
// partition assignment to the last record); start-up is JVM start plus
// group join.
//
// The tool prints totals only, so the JVM's memory comes from the
// reference jar's fplab.PerfWrap, the child's main: it marks the JVM's
// resident set, calls ConsumerPerformance.main in the same JVM and prints
// the three figures after the tool's output (Mem; the path is the tool's
// whole main: its options, logging, consumer, group join and read). The
// class path is the distribution's jars, then the reference jar, so the
// tool, kafka-clients and the logging are the distribution's own, as
// kafka-run-class.sh runs them; only the wrapper comes from the jar.
func runPerf(ctx context.Context, c *rungargs.Cell, b rung.Build, w io.Writer) error {
	dist := kafka.DistDir()
	if err := kafka.CheckDist(dist); err != nil {
		return fmt.Errorf("path=java-perf: %w", err)
	}
	java, err := kafka.FindJava()
	if err != nil {
		return fmt.Errorf("path=java-perf: %w", err)
	}
	jar := kafka.RefJar()
	if err := kafka.CheckRefJar(jar); err != nil {
		return fmt.Errorf("path=java-perf: %w", err)
	}
	if err := rung.CheckCountedTopic(ctx, c); err != nil {
		return err
	}
	dir, err := os.MkdirTemp("", "fplab-java-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	cfg := filepath.Join(dir, "consumer.properties")
	sec, err := javaSecurity(c.Props)
	if err != nil {
		return err
	}
	props := fmt.Sprintf("check.crcs=%v\nenable.metrics.push=false\n%s", c.CRC, sec)
	if err := os.WriteFile(cfg, []byte(props), 0o600); err != nil {
		return err
	}
	argv := []string{
		javaHeap, "-XX:+UseG1GC", "-XX:MaxGCPauseMillis=20", "-XX:InitiatingHeapOccupancyPercent=35",
		"-Djava.awt.headless=true", "-cp", kafka.Classpath(dist) + string(os.PathListSeparator) + jar,
		perfMain,
		"--bootstrap-server", strings.Join(c.Bootstrap, ","), "--topic", c.Topic,
		"--messages", fmt.Sprint(c.Records), "--consumer.config", cfg,
		"--group", fmt.Sprintf("fplab-java-%d", time.Now().UnixNano()),
		"--timeout", fmt.Sprint(rung.StallTimeout(c.Timeout).Milliseconds()),
		"--date-format", perfDateFormat,
	}
	cmd := exec.CommandContext(ctx, java, argv...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 2 * time.Second
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	t0 := time.Now()
	err = cmd.Run()
	if cmd.Process != nil {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
	if ctx.Err() != nil {
		return fmt.Errorf("java consumer did not finish within the cell's timeout")
	}
	if err != nil {
		return fmt.Errorf("java consumer: %w: %s", err, oneline.Of(lastLines(out.String(), 3)))
	}
	r, err := parsePerf(out.String())
	if err != nil {
		return err
	}
	if r.Messages != int64(c.Records) {
		return fmt.Errorf("java consumer read %d records, corpus has %d", r.Messages, c.Records)
	}
	if r.FetchMs <= 0 {
		return fmt.Errorf("java consumer reports an empty fetch window (%d records in under 1 ms)", r.Messages)
	}
	mem, err := parsePerfRSS(out.String())
	if err != nil {
		return err
	}
	// CPU from the child's rusage; not its ru_maxrss, which holds the
	// rung's own resident set (Mem).
	ru, _ := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	recs := float64(r.Messages)
	secs := float64(r.FetchMs) / 1e3
	startup := r.Start.Sub(t0) + time.Duration(r.RebalanceMs)*time.Millisecond
	figs := []results.Metric{
		{Value: recs / secs, Unit: results.UnitRecPerSec},
		{Value: r.MB * (1 << 20) / 1e6 / secs, Unit: results.UnitMBPerSec},
		{Value: float64(r.FetchMs) * 1e6 / recs, Unit: results.UnitNsPerRec},
	}
	if ru != nil {
		cpu := time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
		figs = append(figs, results.Metric{Value: float64(cpu.Nanoseconds()) / recs, Unit: "proc-cpu-ns/rec"})
	}
	figs = append(figs, mem.metrics()...)
	figs = append(figs, results.Metric{Value: ms(startup), Unit: results.UnitStartupMs}, results.Metric{Value: float64(r.FetchMs), Unit: results.UnitWindowMs})
	return rung.WriteResult(w, c, b, "kafka-clients "+kafka.Version+" (ConsumerPerformance)", r.Messages, figs)
}

// lastLines returns the last n non-empty lines of s.
func lastLines(s string, n int) string {
	var keep []string
	for _, l := range strings.Split(s, "\n") {
		if strings.TrimSpace(l) != "" {
			keep = append(keep, l)
		}
	}
	if len(keep) > n {
		keep = keep[len(keep)-n:]
	}
	return strings.Join(keep, " | ")
}
