package jvmref

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fastpathlab/fplab/cell"
	"github.com/fastpathlab/fplab/clusters"
	"github.com/fastpathlab/fplab/clusters/clusterstest"
	"github.com/fastpathlab/fplab/ladder/rung/rungtest"
	"github.com/fastpathlab/fplab/ladder/rungargs"
	"github.com/fastpathlab/fplab/results"
	"github.com/fastpathlab/fplab/workloads"
)

func TestParseStart(t *testing.T) {
	got, err := ParseStart("FPLAB program=flink ...\nFPLAB-START first=5,-1,0 count=10,0,3\n", 3)
	if err != nil || got == nil || !slices.Equal(got.First, []int64{5, -1, 0}) || !slices.Equal(got.Count, []int64{10, 0, 3}) {
		t.Fatalf("got %+v, %v", got, err)
	}
	if got, err := ParseStart("FPLAB program=flink\n", 3); got != nil || err != nil {
		t.Errorf("no line: %+v, %v", got, err)
	}
	for in, want := range map[string]string{
		"FPLAB-START first=0 count=1\nFPLAB-START first=0 count=1": "2 \"FPLAB-START\" lines",
		"FPLAB-START first=0":                 "want fields first and count",
		"FPLAB-START first=0 count=1 x=1":     "unknown field",
		"FPLAB-START first=0 first=0 count=1": "given twice",
		"FPLAB-START first=0,1 count=1,1":     "2 entries, the topic 1 partitions",
		"FPLAB-START first=-2 count=1":        "not an offset or a count",
		"FPLAB-START first=0 count=-1":        "not an offset or a count",
		"FPLAB-START first=x count=1":         "not an offset or a count",
		"FPLAB-START first=-1 count=4":        "first offset -1 with 4 records",
		"FPLAB-START first=7 count=0":         "first offset 7 with 0 records",
	} {
		if _, err := ParseStart(in, 1); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", in, err, want)
		}
	}
}

// TestStartArgv: a start-up case's flags reach the flink program, and a
// start the program does not take is refused before any JVM starts.
func TestStartArgv(t *testing.T) {
	base := Opts{Program: Flink, Bootstrap: []string{"127.0.0.1:1"}, Topic: "t", Partitions: 3, Records: 10,
		Timeout: time.Minute, Format: "json", Start: "committed", Group: "g", Reset: "none"}
	argv, err := Argv("/j.jar", base)
	if err != nil || !strings.HasSuffix(strings.Join(argv, " "), " --warmup-runs 0 --start committed --group g --reset none") {
		t.Fatalf("committed argv: %v, %v", argv, err)
	}
	ts := base
	ts.Start, ts.Group, ts.Reset, ts.StartMs = "timestamp", "", "", 1700000000123
	if argv, err = Argv("/j.jar", ts); err != nil || !strings.HasSuffix(strings.Join(argv, " "), " --start timestamp --start-ms 1700000000123") {
		t.Errorf("timestamp argv: %v, %v", argv, err)
	}
	for name, mod := range map[string]func(*Opts){
		"steady":            func(o *Opts) { o.Program, o.Format = Steady, "" },
		"unknown mode":      func(o *Opts) { o.Start = "middle" },
		"unknown reset":     func(o *Opts) { o.Reset = "nearest" },
		"reset off commit":  func(o *Opts) { o.Start = "latest" },
		"timestamp no time": func(o *Opts) { o.Start, o.Reset = "timestamp", "" },
		"time off stamp":    func(o *Opts) { o.StartMs = 5 },
		"live":              func(o *Opts) { o.Live = true },
		"checkpoints":       func(o *Opts) { o.Checkpoint = time.Second },
		"warm-up runs":      func(o *Opts) { o.WarmupRuns = 1 },
		"group, no mode":    func(o *Opts) { o.Start, o.Reset = "", "" },
	} {
		o := base
		mod(&o)
		if _, err := Argv("/j.jar", o); err == nil {
			t.Errorf("%s: want an error", name)
		}
	}
}

// TestCheckStartRead: the job's read must cover [want, stop) on every
// partition, from exactly want.
func TestCheckStartRead(t *testing.T) {
	want, stop := []int64{5, 10, 7}, []int64{9, 10, 8}
	ok := &Start{First: []int64{5, -1, 7}, Count: []int64{4, 0, 1}}
	if err := checkStartRead(ok, want, stop); err != nil {
		t.Fatal(err)
	}
	for name, s := range map[string]*Start{
		"read past nothing": {First: []int64{5, 10, 7}, Count: []int64{4, 1, 1}},
		"one short":         {First: []int64{5, -1, 7}, Count: []int64{3, 0, 1}},
		"one early":         {First: []int64{4, -1, 7}, Count: []int64{4, 0, 1}},
		"one late":          {First: []int64{5, -1, 8}, Count: []int64{4, 0, 1}},
	} {
		if err := checkStartRead(s, want, stop); err == nil {
			t.Errorf("%s: want an error", name)
		}
	}
}

// TestFlinkStartOracle runs stock Flink's KafkaSource on start-up cases on
// the embedded cluster, as parity-start.yaml does: a committed start reads
// from the group's offsets, a group without commits takes the reset
// strategy (the embedded cluster answers its offset fetch as Kafka does),
// a commit past the end reads nothing, and reset none without a commit
// fails with Kafka's one line.
func TestFlinkStartOracle(t *testing.T) {
	javaRefJar(t)
	const parts, n = 3, 3000
	addrs := clusterstest.StartSelfT(t, 1, parts).Bootstrap()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	schema, _ := workloads.SchemaByName("bid")
	codec, _ := workloads.NewCodec(workloads.FormatJSON, schema)
	corpus := workloads.NewCorpus(schema, codec, 1, n)
	topic := corpus.ID()
	if _, err := clusters.Load(ctx, clusters.Cluster{Bootstrap: addrs}, topic, parts, n, corpus.Message); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		c    string
		recs float64 // -1: a failure case
		line string
	}{
		{cell.CaseCommitted, n / 2, ""}, // from the middle of every partition
		{cell.CaseCommittedAbsentEarliest, n, ""},
		{cell.CaseCommittedAboveNone, 0, ""},
		{cell.CaseCommittedAbsentNone, -1, "Undefined offset with no reset policy"},
	} {
		t.Run(tc.c, func(t *testing.T) {
			c := rungargs.Cell{
				Cell: cell.Cell{Path: cell.PathFlink, Format: cell.FormatJSON, Batch: 1024, Brokers: 1, Alloc: cell.AllocGo,
					Cluster: cell.ClusterEmbedded, CRC: true, Case: tc.c},
				Bootstrap: addrs, Topic: topic, Partitions: parts, Records: n, Seed: 1, Schema: "bid", Timeout: 2 * time.Minute,
			}
			r := rungtest.MustRun(t, c)
			if tc.recs < 0 {
				if !strings.Contains(r.Out, tc.line) || !r.Has(results.UnitFailMs) {
					t.Fatalf("want a surfaced %q:\n%s", tc.line, r.Out)
				}
				return
			}
			if got := r.Units()[results.UnitRec]; got != tc.recs {
				t.Fatalf("%v records, want %v:\n%s", got, tc.recs, r.Out)
			}
		})
	}
}
