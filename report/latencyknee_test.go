package report

import (
	"strings"
	"testing"

	"github.com/fastpathlab/fplab/internal/golden"
	"github.com/fastpathlab/fplab/results"
	"github.com/fastpathlab/fplab/results/resultstest"
)

// kneesRows is a spec of mode [bounded, live] with checkpoints: bounded
// checkpointing cells and live cells sweep the batch for the same paths.
// fast: the checkpoint budget picks 8192; the latency budget 65536 at
// 10000 rec/s (the checkpoint budget binds) and 1024 at 100000 (the
// latency budget binds). shallow: both pick 8192 at 10000 rec/s, and no
// batch is within the latency budget at 100000. franz's live cells
// failed, rowwise's reported no e2e-p99-ms.
func kneesRows() []results.Row {
	bounded := func(path, batch string) string {
		return "path=" + path + "/format=json/batch=" + batch + "/brokers=1/alloc=go/crc=off/ckpt=1s"
	}
	live := func(path, batch, rate string) string {
		return "path=" + path + "/format=json/batch=" + batch + "/brokers=1/alloc=go/crc=off/mode=live/rate=" + rate + "/linger=10ms"
	}
	var rows []results.Row
	ckpt := func(cell string, rate, p99 float64) {
		for rep := 0; rep < 2; rep++ {
			rows = append(rows, resultstest.OK(cell, rep, resultstest.Metric(results.UnitRecPerSec, rate), resultstest.Metric(results.UnitCkptP99, p99)))
		}
	}
	lat := func(cell string, p99s ...float64) {
		for rep, p := range p99s {
			rows = append(rows, resultstest.OK(cell, rep, resultstest.Metric(results.UnitRecPerSec, 1e4), resultstest.Metric(results.UnitE2EP99Ms, p)))
		}
	}
	for _, p := range []string{"shallow", "fast"} {
		ckpt(bounded(p, "1024"), 1e6, 20)
		ckpt(bounded(p, "8192"), 3e6, 60)
		ckpt(bounded(p, "65536"), 4e6, 300)
	}
	lat(live("fast", "1024", "10000"), 2.5, 3.5)
	lat(live("fast", "8192", "10000"), 9, 11)
	lat(live("fast", "65536", "10000"), 48, 52)
	lat(live("fast", "1024", "100000"), 30, 34)
	lat(live("fast", "8192", "100000"), 120, 140)
	lat(live("fast", "65536", "100000"), 400, 420)
	lat(live("shallow", "1024", "10000"), 5, 6)
	lat(live("shallow", "8192", "10000"), 60, 70)
	lat(live("shallow", "65536", "10000"), 180, 220)
	lat(live("shallow", "1024", "100000"), 150, 170)
	lat(live("shallow", "8192", "100000"), 300, 320)
	rows = append(rows, results.Row{Cell: live("franz", "1024", "10000"), Rep: 0, Reason: "exit status 1: fplab rung: producer behind"})
	rows = append(rows, resultstest.OK(live("rowwise", "1024", "10000"), 0, resultstest.Metric(results.UnitRecPerSec, 1e4)))
	return rows
}

func TestWriteLatencyKneeGolden(t *testing.T) {
	a, err := results.Analyze(kneesRows(), results.AnalysisOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	var n notes
	writeKnee(&b, &n, a)
	writeLatencyKnee(&b, &n, a)
	n.write(&b)
	got := b.String()
	lacks(t, "latency knee section", got,
		"## Latency knee (e2e p99 budget 100 ms)\n",
		"| json | fast | brokers=1 alloc=go crc=off mode=live rate=10000 linger=10ms | 65536 | 50.00 | 3 |",
		"| json | shallow | brokers=1 alloc=go crc=off mode=live rate=100000 linger=10ms | none within budget[^",
		"no successful repetitions",
		"no e2e-p99-ms samples",
		"json fast (brokers=1 alloc=go crc=off): the checkpoint budget (ckpt=1s) picks batch 8192, the latency budget (at rate=10000 linger=10ms) 65536; the checkpoint budget binds (batch 8192).",
		"json fast (brokers=1 alloc=go crc=off): the checkpoint budget (ckpt=1s) picks batch 8192, the latency budget (at rate=100000 linger=10ms) 1024; the latency budget binds (batch 1024).",
		"json shallow (brokers=1 alloc=go crc=off): the checkpoint budget (ckpt=1s) and the latency budget (at rate=10000 linger=10ms) both pick batch 8192.",
	)
	if strings.Index(got, "## Knee (checkpoint") > strings.Index(got, "## Latency knee") {
		t.Error("the latency knee comes before the checkpoint knee")
	}
	golden.Check(t, "latencyknee.golden.md", []byte(got))
}

// A smaller budget is the section's heading and changes the knees (a p99
// at the budget is within: fast at 10000 rec/s keeps 8192 at 10 ms); a run
// without live cells has no section; one whose live cells reported no p99
// says so.
func TestWriteLatencyKneeBudgetAndNone(t *testing.T) {
	a, err := results.Analyze(kneesRows(), results.AnalysisOptions{LatencyBudgetMs: 10})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	var n notes
	writeLatencyKnee(&b, &n, a)
	lacks(t, "10 ms budget", b.String(), "## Latency knee (e2e p99 budget 10 ms)\n",
		"| json | fast | brokers=1 alloc=go crc=off mode=live rate=10000 linger=10ms | 8192 | 10.00 | 3 |")

	a, err = results.Analyze(resultstest.SweepRows(), results.AnalysisOptions{})
	if err != nil {
		t.Fatal(err)
	}
	b.Reset()
	writeLatencyKnee(&b, &n, a)
	if b.Len() != 0 {
		t.Errorf("a run without live cells got a latency knee section:\n%s", b.String())
	}

	a, err = results.Analyze([]results.Row{resultstest.OK("path=fast/format=json/batch=1024/mode=live/rate=1000/linger=10ms", 0, resultstest.Metric(results.UnitRecPerSec, 1e3))}, results.AnalysisOptions{})
	if err != nil {
		t.Fatal(err)
	}
	b.Reset()
	writeLatencyKnee(&b, &n, a)
	if want := "No live cell reported e2e-p99-ms: no latency knee.\n"; !strings.Contains(b.String(), want) {
		t.Errorf("section %q lacks %q", b.String(), want)
	}
}

// In a written report the latency knee follows the checkpoint knee, under
// the budget Options.LatencyBudgetMs gives; a bad budget is refused.
func TestReportLatencyKnee(t *testing.T) {
	dir := resultstest.TempRun(t, "knees", results.Manifest{Start: resultstest.T0}, kneesRows())
	md := writeReport(t, dir, Options{NoPlots: true, LatencyBudgetMs: 200})
	ck, lk, costs := strings.Index(md, "## Knee (checkpoint"), strings.Index(md, "## Latency knee (e2e p99 budget 200 ms)"), strings.Index(md, "## What a setting costs")
	if ck < 0 || lk < ck || (costs >= 0 && costs < lk) {
		t.Errorf("sections at %d (knee), %d (latency knee), %d (costs): want the latency knee right after the checkpoint knee", ck, lk, costs)
	}
	if _, err := Write(dir, Options{LatencyBudgetMs: -1}); err == nil || !strings.Contains(err.Error(), "Options.LatencyBudgetMs is -1") {
		t.Errorf("negative latency budget: err = %v", err)
	}
}
