package report

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fastpathlab/fplab/plots"
	"github.com/fastpathlab/fplab/results"
	"github.com/fastpathlab/fplab/results/resultstest"
)

// liveRun writes a run of two live cells (fast and shallow at 1000 rec/s,
// two repetitions each) with their journal rows and live/ files, and
// returns its directory.
func liveRun(t *testing.T) string {
	t.Helper()
	var rows []results.Row
	type rep struct {
		name string
		rep  int
	}
	var reps []rep
	for _, p := range []string{"shallow", "fast"} {
		name := "path=" + p + "/format=json/batch=8192/brokers=1/alloc=go/crc=off/mode=live/rate=1000/linger=10ms"
		for r := 0; r < 2; r++ {
			rows = append(rows, resultstest.OK(name, r, resultstest.Metric(results.UnitRecPerSec, 1000), resultstest.Metric(results.UnitE2EP99Ms, 5)))
			reps = append(reps, rep{name, r})
		}
	}
	dir := resultstest.TempRun(t, "live", results.Manifest{Start: resultstest.T0}, rows)
	live := filepath.Join(dir, results.LiveDir)
	for i, r := range reps {
		h := results.NewLatencyHistogram()
		for v := 1; v <= 100; v++ {
			results.RecordLatency(h, time.Duration(v*(i+1))*100*time.Microsecond)
		}
		if err := results.WriteLatency(results.LatencyPath(live, r.name, r.rep), results.LatencyFile{Cell: r.name, Rep: r.rep, Rate: 1000, Warmup: 1000}, h); err != nil {
			t.Fatal(err)
		}
		var lag strings.Builder
		lag.WriteString("t_ms,lag_rec,lag_ms\n")
		for b := 0; b < 30; b++ {
			fmt.Fprintf(&lag, "%d,%d,%d.000\n", b*100, b%7+i, b%7+i)
		}
		if err := os.WriteFile(results.LagPath(live, r.name, r.rep), []byte(lag.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestLiveFiguresInReport: a run with live cells gets the latency
// percentile and lag figures, drawn and linked with their captions; a lag
// file that cannot be read leaves them undrawn with the reason, naming the
// file and line, and the rest of the report as it was.
func TestLiveFiguresInReport(t *testing.T) {
	dir := liveRun(t)
	md := writeReport(t, dir, Options{})
	for _, name := range []string{"latency-percentiles", "lag"} {
		for _, ext := range []string{"png", "svg"} {
			rel := plots.Dir + "/" + name + "." + ext
			if _, err := os.Stat(filepath.Join(dir, rel)); err != nil {
				t.Errorf("%s: %v", rel, err)
			}
			if !strings.Contains(md, "("+rel+")") {
				t.Errorf("report does not link %s", rel)
			}
		}
	}
	for _, want := range []string{
		"### End-to-end latency by percentile — live cells\n",
		"from the HdrHistogram of its 2 repetitions merged",
		"### Lag behind the producer's schedule — live cells\n",
		"from repetition 0 of each cell",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("report lacks %q", want)
		}
	}
	if strings.Contains(md, "`latency-percentiles`:") || strings.Contains(md, "`lag`:") {
		t.Error("report lists a live figure as not drawn")
	}

	name := "path=fast/format=json/batch=8192/brokers=1/alloc=go/crc=off/mode=live/rate=1000/linger=10ms"
	lag := results.LagPath(filepath.Join(dir, results.LiveDir), name, 1)
	if err := os.WriteFile(lag, []byte("t_ms,lag_rec,lag_ms\n0,1,1.000\n100,x,1.000\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	md = writeReport(t, dir, Options{})
	want := "- `latency-percentiles`: the live cells' files could not be read: read lag series " + mdText(lag) + ":3: lag\\_rec"
	if !strings.Contains(md, want) {
		t.Errorf("report does not say why the live figures are not drawn (want %q):\n%s", want, md)
	}
	if !strings.Contains(md, "## Tables") {
		t.Error("an unreadable live file cost more than the live figures")
	}
}
