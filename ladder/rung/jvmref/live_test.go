package jvmref

import (
	"bufio"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fastpathlab/fplab/cell"
	"github.com/fastpathlab/fplab/clusters/clusterstest"
	"github.com/fastpathlab/fplab/clusters/kafka"
	"github.com/fastpathlab/fplab/clusters/kafka/kafkatest"
	"github.com/fastpathlab/fplab/ladder/rung"
	"github.com/fastpathlab/fplab/ladder/rung/rungtest"
	"github.com/fastpathlab/fplab/ladder/rungargs"
	"github.com/fastpathlab/fplab/results"
)

// TestMain lets this test binary be a live cell's producer process (the
// rung starts its producer as `<this binary> rung --role producer ...`)
// and an embedded broker (clusterstest.StartSelfT).
func TestMain(m *testing.M) {
	clusterstest.BrokerMain()
	if len(os.Args) > 1 && os.Args[1] == "rung" {
		c, err := rungargs.Parse(os.Args[2:], os.Stderr)
		if err == nil {
			err = rung.Run(context.Background(), c, rung.Build{}, os.Stdout)
		}
		if err != nil {
			os.Stderr.WriteString(err.Error() + "\n")
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// TestKafkaJavaRefsLive runs a live cell of each JVM reference on a real
// 1-broker Kafka: 20,000 rec/s for a 300 ms warm-up and a 1 s window. Each
// must hand over every record (gapless, checksums equal to the corpus's,
// or the cell fails), and report the Go paths' live figures, its histogram
// holding exactly the measured window and its lag series beside it.
func TestKafkaJavaRefsLive(t *testing.T) {
	javaRefJar(t)
	const parts = 3
	cl := kafkatest.Start(t, kafka.Options{Brokers: 1, Partitions: parts})
	for _, path := range []string{cell.PathJava, cell.PathFlink} {
		t.Run(path, func(t *testing.T) {
			c := rungargs.Cell{
				Cell: cell.Cell{Path: path, Format: cell.FormatJSON, Batch: 1024, Brokers: 1, Alloc: cell.AllocGo,
					Cluster: cell.ClusterKafka, CRC: true, Mode: cell.ModeLive, Rate: 20_000, Linger: 5 * time.Millisecond},
				Bootstrap: cl.Bootstrap(), Topic: "fplab-jvm-live", Partitions: parts, Seed: 1, Schema: "bid",
				Warmup: 300 * time.Millisecond, Duration: time.Second, Timeout: 2 * time.Minute,
				LiveDir: t.TempDir(), Rep: 1,
			}
			c.Records = rungargs.LiveRecords(c.Rate, c.Warmup+c.Duration)
			r := rungtest.MustRun(t, c)
			t.Logf("%s", r.Out)
			measured := c.Records - rungargs.LiveRecords(c.Rate, c.Warmup)
			if r.Iters != int64(measured) {
				t.Errorf("iters %d, want the %d measured records", r.Iters, measured)
			}
			got := r.Units()
			t.Logf("%s live at %d rec/s: e2e p50 %.2f ms, p99 %.2f ms, max %.2f ms, lag max %.2f ms, %.0f rec/hand-over, cpu %.0f ns/rec",
				path, c.Rate, got[results.UnitE2EP50Ms], got[results.UnitE2EP99Ms], got[results.UnitE2EMaxMs],
				got[results.UnitLagMaxMs], got[results.UnitRecPerBatch], got[results.UnitCPUNsPerRec])
			for _, u := range []string{results.UnitRecPerSec, results.UnitE2EP50Ms, results.UnitE2EP99Ms, results.UnitE2EMaxMs,
				results.UnitLagMaxRec, results.UnitLagMaxMs, results.UnitRecPerBatch, results.UnitCPUNsPerRec,
				results.UnitPeakRSSMB, results.UnitPathPeakRSSMB, results.UnitHarnessRSSMB,
				results.UnitProduceRecPerSec, results.UnitProducerBehindMs} {
				if v, ok := got[u]; !ok || v < 0 {
					t.Errorf("metric %s = %v (present %v)", u, v, ok)
				}
			}
			if !(got[results.UnitE2EP50Ms] > 0 && got[results.UnitE2EP50Ms] <= got[results.UnitE2EP99Ms] && got[results.UnitE2EP99Ms] <= got[results.UnitE2EMaxMs]) {
				t.Errorf("percentiles out of order: %v", got)
			}
			if got[results.UnitCPUNsPerRec] <= 0 || got[results.UnitPeakRSSMB] < 50 || got[results.UnitPathPeakRSSMB] <= 0 ||
				got[results.UnitHarnessRSSMB] < 20 || got[results.UnitPeakRSSMB] < got[results.UnitHarnessRSSMB]+got[results.UnitPathPeakRSSMB]-0.01 {
				t.Errorf("the JVM's CPU and RSS not measured: %v", got)
			}
			t.Logf("%s live: peak-RSS-MB %.1f, path-peak-RSS-MB %.1f, harness-RSS-MB %.1f", path,
				got[results.UnitPeakRSSMB], got[results.UnitPathPeakRSSMB], got[results.UnitHarnessRSSMB])
			for _, k := range []string{"client", "jvm", "jvm-flags", "java-conf", "live-topic", "producer", "java-ready"} {
				if r.Config[k] == "" {
					t.Errorf("file-config lacks %s: %v", k, r.Config)
				}
			}
			if !strings.Contains(r.Config["client"], "live") || !strings.Contains(r.Config["java-conf"], "live:true") {
				t.Errorf("client %q, java-conf %q: not a live read", r.Config["client"], r.Config["java-conf"])
			}
			f, h, err := results.ReadLatency(results.LatencyPath(c.LiveDir, r.Name, c.Rep))
			if err != nil {
				t.Fatal(err)
			}
			if f.Count != int64(measured) || h.TotalCount() != int64(measured) {
				t.Errorf("histogram holds %d values (file %+v), want %d", h.TotalCount(), f, measured)
			}
			lag, err := os.ReadFile(results.LagPath(c.LiveDir, r.Name, c.Rep))
			if err != nil || !strings.HasPrefix(string(lag), "t_ms,lag_rec,lag_ms\n") || strings.Count(string(lag), "\n") < 2 {
				t.Errorf("lag series %q: %v", lag, err)
			}
			if m, _ := filepath.Glob(filepath.Join(c.LiveDir, "*")); len(m) != 2 {
				t.Errorf("live dir holds %v", m)
			}
		})
	}
	// A maxrate cell of a JVM path is refused before anything starts.
	c := rungargs.Cell{
		Cell: cell.Cell{Path: cell.PathJava, Format: cell.FormatJSON, Batch: 1024, Brokers: 1, Alloc: cell.AllocGo,
			Cluster: cell.ClusterKafka, Mode: cell.ModeMaxRate, Linger: 5 * time.Millisecond},
		Bootstrap: cl.Bootstrap(), Topic: "fplab-jvm-live", Partitions: parts, Seed: 1, Schema: "bid",
		Warmup: 300 * time.Millisecond, Duration: time.Second, Timeout: time.Minute,
		MaxRateFrom: 1000, MaxRateTo: 2000, MaxRateP99: time.Second,
	}
	c.Records = rungargs.LiveRecords(c.MaxRateTo, c.Warmup+c.Duration)
	if _, err := rungtest.Run(t, c); err == nil || !strings.Contains(err.Error(), "a max-rate search runs its trials through a Go reader only") {
		t.Errorf("maxrate java: %v", err)
	}
}

func TestParseRange(t *testing.T) {
	at, r, err := ParseRange("FPLAB-R 1700000000123456000 2 10 19")
	if err != nil || at.UnixNano() != 1700000000123456000 || r != (rung.LiveRange{Partition: 2, First: 10, Last: 19}) {
		t.Errorf("ParseRange = %v %+v %v", at, r, err)
	}
	for line, want := range map[string]string{
		"FPLAB-R 1 2 10":                      "4 fields",
		"FPLAB-R 1 2 10 19 7":                 "6 fields",
		"FPLAB-RANGE 1 2 10 19":               "does not start with FPLAB-R",
		"FPLAB-R x 2 10 19":                   `recv_epoch_ns "x" is not a non-negative decimal integer`,
		"FPLAB-R 1 -2 10 19":                  `partition "-2" is not`,
		"FPLAB-R 1 2 10 0x13":                 `last_offset "0x13" is not`,
		"FPLAB-R 0 2 10 19":                   "recv_epoch_ns is 0",
		"FPLAB-R 1 2 19 10":                   "the range ends (10) before it starts (19)",
		"FPLAB-R 1 4294967296 10 19":          "partition 4294967296 is out of range",
		"FPLAB-R 1 2 10 99999999999999999999": `last_offset "99999999999999999999" is not`,
	} {
		if _, _, err := ParseRange(line); err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), line) {
			t.Errorf("ParseRange(%q) = %v, want an error quoting the line and saying %q", line, err, want)
		}
	}
}

func TestParseLive(t *testing.T) {
	r, err := ParseLive("FPLAB program=steady\nFPLAB-LIVE cpu_ns=1500 sums=3:4294967295,2:0\n", 2)
	if err != nil || r.CPU != 1500 || len(r.Sums) != 2 || r.Sums[0] != (rung.PartitionSum{Count: 3, CRC: 0xFFFFFFFF}) || r.Sums[1].Count != 2 {
		t.Errorf("ParseLive = %+v, %v", r, err)
	}
	for in, want := range map[string]string{
		"": "no \"FPLAB-LIVE\" line",
		"FPLAB-LIVE cpu_ns=1 sums=1:1,1:1\nFPLAB-LIVE cpu_ns=1 sums=1:1,1:1": "2 \"FPLAB-LIVE\" lines",
		"FPLAB-LIVE cpu_ns=1 sums=1:1":                                       "1 partitions' sums, the topic has 2",
		"FPLAB-LIVE cpu_ns=1 sums=1:1,1:4294967296":                          "partition 1's sum",
		"FPLAB-LIVE cpu=1 sums=1:1,1:1":                                      "is not cpu_ns=",
		"FPLAB-LIVE cpu_ns=1 sums=1:1,1":                                     "partition 1's sum \"1\"",
		"FPLAB-LIVE cpu_ns=1":                                                "2 fields",
	} {
		if _, err := ParseLive(in, 2); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseLive(%q) = %v, want %q", in, err, want)
		}
	}
}

// recorder is a LiveHandler keeping what it was told.
type recorder struct {
	ready  int
	groups [][]rung.LiveRange
	fail   error
}

func (r *recorder) Ready(context.Context) error { r.ready++; return nil }

func (r *recorder) HandOver(_ time.Time, rs []rung.LiveRange) error {
	r.groups = append(r.groups, append([]rung.LiveRange(nil), rs...))
	return r.fail
}

// readLive hands READY over once, groups the ranges of one time into one
// hand-over, keeps every other line, and refuses a range before READY, a
// second READY and a malformed range.
func TestReadLive(t *testing.T) {
	in := "log line\nFPLAB-READY\nFPLAB-R 5 0 0 3\nFPLAB-R 5 1 0 2\nFPLAB-R 6 0 4 4\nFPLAB program=steady\nFPLAB-LIVE x\n"
	h := &recorder{}
	rest, err := readLive(context.Background(), bufio.NewReader(strings.NewReader(in)), h)
	if err != nil {
		t.Fatal(err)
	}
	if h.ready != 1 || len(h.groups) != 2 || len(h.groups[0]) != 2 || h.groups[1][0] != (rung.LiveRange{Partition: 0, First: 4, Last: 4}) {
		t.Errorf("ready %d, hand-overs %v", h.ready, h.groups)
	}
	if rest != "log line\nFPLAB program=steady\nFPLAB-LIVE x\n" {
		t.Errorf("rest %q", rest)
	}
	for in, want := range map[string]string{
		"FPLAB-R 5 0 0 3\n":                     "a live range before FPLAB-READY",
		"FPLAB-READY\nFPLAB-READY\n":            "FPLAB-READY printed twice",
		"FPLAB-READY\nFPLAB-R 5 0 3\n":          "4 fields",
		"FPLAB-READY\nFPLAB-R 5 0 0 3\nFPLAB\n": "the handler failed",
	} {
		h := &recorder{fail: errors.New("the handler failed")}
		if _, err := readLive(context.Background(), bufio.NewReader(strings.NewReader(in)), h); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("readLive(%q) = %v, want %q", in, err, want)
		}
	}
}
