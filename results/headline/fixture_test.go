package headline

import (
	"testing"

	"github.com/fastpathlab/fplab/results"
	"github.com/fastpathlab/fplab/results/resultstest"
)

// The fixture run's cells: every one at brokers=3 on the embedded
// cluster, named as the ladder names them.
const (
	fastJSON    = "path=fast/format=json/batch=8192/brokers=3/alloc=go/crc=off"
	fastJSON1K  = "path=fast/format=json/batch=1024/brokers=3/alloc=go/crc=off"
	fastAvro    = "path=fast/format=avro/batch=8192/brokers=3/alloc=go/crc=off"
	fastProto   = "path=fast/format=protobuf/batch=8192/brokers=3/alloc=go/crc=off"
	fastCSV     = "path=fast/format=csv/batch=8192/brokers=3/alloc=go/crc=off"
	fastRaw     = "path=fast/format=raw/batch=8192/brokers=3/alloc=go/crc=off"
	fastMi      = "path=fast/format=json/batch=8192/brokers=3/alloc=mimalloc3/crc=off"
	fastMi1K    = "path=fast/format=json/batch=1024/brokers=3/alloc=mimalloc3/crc=off"
	fastCRC     = "path=fast/format=json/batch=8192/brokers=3/alloc=go/crc=on"
	fastCkpt    = fastJSON + "/ckpt=1s"
	fastTwin    = fastJSON + "/decoder=none"
	flinkJSON   = "path=flink/format=json/batch=8192/brokers=3/alloc=go/crc=off"
	flinkAvro   = "path=flink/format=avro/batch=8192/brokers=3/alloc=go/crc=off"
	flinkProto  = "path=flink/format=protobuf/batch=8192/brokers=3/alloc=go/crc=off"
	flinkCSV    = "path=flink/format=csv/batch=8192/brokers=3/alloc=go/crc=off"
	javaRaw     = "path=java/format=raw/batch=8192/brokers=3/alloc=go/crc=off"
	ceilingAvro = "path=ceiling/format=avro/batch=1024/brokers=3/alloc=go/crc=off"
)

// fixtureRows is a run shaped to give every verdict: fast over flink
// resolved on three formats, flink failed on csv and not run on raw; fast
// and java overlapping on raw; fast a little below its twin, significant
// but inside the A/A floor; mimalloc3 over go at two batch sizes, in rec/s
// and (without an A/A floor) in peak-RSS-MB; crc=on with two reps; a
// checkpoint cost outside the floor; a ceiling at another batch size; and
// the A/A pair on fast raw. Values are spread evenly around a centre, no
// randomness.
func fixtureRows() []results.Row {
	var rows []results.Row
	add := func(cell string, reps int, spread float64, units ...any) {
		for i := range reps {
			// Evenly from -spread to +spread; one rep sits at the centre.
			off := 0.0
			if reps > 1 {
				off = spread * (2*float64(i)/float64(reps-1) - 1)
			}
			var ms []results.Metric
			for j := 0; j < len(units); j += 2 {
				ms = append(ms, resultstest.Metric(units[j].(string), units[j+1].(float64)*(1+off)))
			}
			rows = append(rows, resultstest.OK(cell, i, ms...))
		}
	}
	rps := results.UnitRecPerSec
	rss := results.UnitPeakRSSMB
	add(fastJSON, 5, 0.02, rps, 4.0e6, rss, 220.0)
	add(fastJSON1K, 5, 0.02, rps, 3.2e6, rss, 150.0)
	add(fastAvro, 5, 0.02, rps, 3.5e6)
	add(fastProto, 5, 0.02, rps, 4.2e6)
	add(fastCSV, 5, 0.02, rps, 3.0e6)
	add(fastRaw, 5, 0.02, rps, 6.0e6)
	add(fastMi, 5, 0.02, rps, 4.4e6, rss, 180.0)
	add(fastMi1K, 5, 0.02, rps, 3.4e6, rss, 140.0)
	add(fastCRC, 2, 0.02, rps, 3.9e6)
	add(fastCkpt, 5, 0.01, rps, 3.6e6)
	add(fastTwin, 5, 0.003, rps, 4.15e6)
	add(flinkJSON, 5, 0.03, rps, 1.0e6)
	add(flinkAvro, 5, 0.03, rps, 0.9e6)
	add(flinkProto, 5, 0.03, rps, 0.92e6)
	for i := range 5 {
		rows = append(rows, results.Row{Cell: flinkCSV, Rep: i, Reason: "timeout after 3m0s", Signal: "killed",
			Start: resultstest.T0, End: resultstest.T0})
	}
	add(javaRaw, 5, 0.03, rps, 6.05e6)
	add(ceilingAvro, 5, 0.01, rps, 9.0e6)
	add(fastRaw+"/aa=a", 5, 0.03, rps, 6.0e6)
	add(fastRaw+"/aa=b", 5, 0.025, rps, 6.05e6)
	return rows
}

// fixtureAnalysis is fixtureRows analysed.
func fixtureAnalysis(t *testing.T) *results.Analysis {
	t.Helper()
	a, err := results.Analyze(fixtureRows(), results.AnalysisOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// fixtureHeadlines are the comparisons the golden files show, in the
// order a spec would list them.
var fixtureHeadlines = []string{
	"fast/flink by format",
	"fast/java on raw",
	"fast/decoder=none on json",
	"mimalloc3/go",
	"mimalloc3/go in peak-RSS-MB",
	"crc=on/crc=off",
	"ckpt=1s/ckpt=off",
	"fast/ceiling on avro",
}

// parseAll parses every headline, failing the test on an error.
func parseAll(t *testing.T, hs []string) []Comparison {
	t.Helper()
	var cs []Comparison
	for _, h := range hs {
		c, err := Parse(h)
		if err != nil {
			t.Fatal(err)
		}
		cs = append(cs, c)
	}
	return cs
}
