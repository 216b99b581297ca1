package results_test

import (
	"math"
	"testing"

	"github.com/fastpathlab/fplab/results"
	"github.com/fastpathlab/fplab/results/resultstest"
)

// TestShares: rec/s becomes a share of the same run's serving ceiling on
// the same topic (whatever the path's batch, allocator, CRC or decoder) and
// of the cell's own consume-only twin; the ceiling gets no share of
// itself, and a cell whose reference was not run gets none.
func TestShares(t *testing.T) {
	rps := func(cell string, rep int, v float64) results.Row {
		return resultstest.OK(cell, rep, resultstest.Metric(results.UnitRecPerSec, v))
	}
	const (
		fast     = "path=fast/format=json/batch=8192/brokers=3/alloc=go/crc=off"
		fastTwin = fast + "/decoder=none"
		franz    = "path=franz/format=json/batch=8192/brokers=3/alloc=go/crc=off"
		ceiling  = "path=ceiling/format=json/batch=1024/brokers=3/alloc=go/crc=on"
		other    = "path=fast/format=avro/batch=8192/brokers=3/alloc=go/crc=off"
		flink    = "path=flink/format=json/batch=8192/brokers=3/alloc=go/crc=off"
	)
	rows := []results.Row{
		rps(ceiling, 0, 4e6), rps(ceiling, 1, 4e6), rps(ceiling, 2, 4e6),
		rps(fast, 0, 1e6), rps(fast, 1, 2e6), rps(fast, 2, 3e6),
		rps(fastTwin, 0, 4e6), rps(fastTwin, 1, 4e6), rps(fastTwin, 2, 4e6),
		rps(franz, 0, 1e6), rps(franz, 1, 1e6), rps(franz, 2, 1e6),
		rps(franz+"/decoder=none", 0, 2e6), rps(franz+"/decoder=none", 1, 2e6), rps(franz+"/decoder=none", 2, 2e6),
		rps(other, 0, 1e6), rps(other, 1, 1e6), rps(other, 2, 1e6),
		rps(flink, 0, 4e5), rps(flink, 1, 4e5), rps(flink, 2, 4e5),
	}
	tables, err := results.BuildTables(results.NewIndex(rows), results.TableOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]map[string]float64{ // unit -> cell -> median
		results.UnitPctCeiling: centers(tables, results.UnitPctCeiling),
		results.UnitPctTwin:    centers(tables, results.UnitPctTwin),
	}
	want := map[string]map[string]float64{
		results.UnitPctCeiling: {fast: 50, fastTwin: 100, franz: 25, franz + "/decoder=none": 50, flink: 10},
		results.UnitPctTwin:    {fast: 50, franz: 50},
	}
	for unit, cells := range want {
		for c, v := range cells {
			if g, ok := got[unit][c]; !ok || math.Abs(g-v) > 1e-9 {
				t.Errorf("%s of %s = %v (present %v), want %v", unit, c, g, ok, v)
			}
		}
		if len(got[unit]) != len(cells) {
			t.Errorf("%s has cells %v, want exactly %v", unit, got[unit], cells)
		}
	}
}

// TestShareExVerify: a repetition's ns/rec less its verify-ns/rec is its
// rate without the rung's checks, set against the twin's median rec/s; a
// cell without verify-ns/rec, or whose checks would be its whole window,
// gets none, and neither does the twin.
func TestShareExVerify(t *testing.T) {
	const (
		fast  = "path=fast/format=raw/batch=8192/brokers=3/alloc=go/crc=off"
		twin  = fast + "/decoder=none"
		franz = "path=franz/format=raw/batch=8192/brokers=3/alloc=go/crc=off"
		small = "path=fast/format=raw/batch=1024/brokers=3/alloc=go/crc=off" // a second cell: a table needs a swept axis
	)
	rep := func(cell string, rep int, ns, verify float64) results.Row {
		ms := []results.Metric{resultstest.Metric(results.UnitRecPerSec, 1e9/ns), resultstest.Metric(results.UnitNsPerRec, ns)}
		if verify >= 0 {
			ms = append(ms, resultstest.Metric(results.UnitVerifyNsPerRec, verify))
		}
		return resultstest.OK(cell, rep, ms...)
	}
	rows := []results.Row{
		rep(twin, 0, 250, 0.01), rep(twin, 1, 250, 0.01), rep(twin, 2, 250, 0.01),
		// 500 ns/rec of which 250 verifying: 250 ns/rec without, the twin's.
		rep(fast, 0, 500, 250), rep(fast, 1, 400, 150), rep(fast, 2, 300, 50),
		rep(franz, 0, 500, -1), rep(franz, 1, 500, 500), // no verify figure; all verify
		rep(franz+"/decoder=none", 0, 250, 0),
		rep(small, 0, 600, 100), rep(small+"/decoder=none", 0, 250, 0),
	}
	tables, err := results.BuildTables(results.NewIndex(rows), results.TableOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got := centers(tables, results.UnitPctTwinExVerify)
	if len(got) != 2 || math.Abs(got[fast]-100) > 1e-9 || math.Abs(got[small]-50) > 1e-9 {
		t.Errorf("%s by cell: %v, want %s at 100 and %s at 50 only", results.UnitPctTwinExVerify, got, fast, small)
	}
}

// TestShareHostBound: a repetition's host-bound-rec/s is set against its
// twin's median rec/s (not the twin's own bound); the twin, the ceiling and
// a cell without the figure get no share.
func TestShareHostBound(t *testing.T) {
	const (
		fast  = "path=fast/format=json/batch=8192/brokers=3/alloc=go/crc=off"
		twin  = fast + "/decoder=none"
		franz = "path=franz/format=json/batch=8192/brokers=3/alloc=go/crc=off"
		ceil  = "path=ceiling/format=json/batch=8192/brokers=3/alloc=go/crc=off"
		small = "path=fast/format=json/batch=1024/brokers=3/alloc=go/crc=off" // a second cell: a table needs a swept axis
	)
	rep := func(cell string, rep int, rate, bound float64) results.Row {
		ms := []results.Metric{resultstest.Metric(results.UnitRecPerSec, rate)}
		if bound > 0 {
			ms = append(ms, resultstest.Metric(results.UnitHostBoundRecPerSec, bound))
		}
		return resultstest.OK(cell, rep, ms...)
	}
	rows := []results.Row{
		rep(twin, 0, 4e6, 9e6), rep(twin, 1, 4e6, 9e6), rep(twin, 2, 4e6, 9e6),
		rep(fast, 0, 2e6, 2.4e6), rep(fast, 1, 2e6, 2.6e6), rep(fast, 2, 2e6, 2.5e6),
		rep(franz, 0, 3e6, 0), rep(franz+"/decoder=none", 0, 4e6, 5e6),
		rep(ceil, 0, 8e6, 8e6),
		rep(small, 0, 1e6, 1e6), rep(small+"/decoder=none", 0, 2e6, 4e6),
	}
	tables, err := results.BuildTables(results.NewIndex(rows), results.TableOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got := centers(tables, results.UnitPctTwinHostBound)
	if len(got) != 2 || math.Abs(got[fast]-62.5) > 1e-9 || math.Abs(got[small]-50) > 1e-9 {
		t.Errorf("%s by cell: %v, want %s at 62.5 and %s at 50 only", results.UnitPctTwinHostBound, got, fast, small)
	}
}

// centers is the median of every cell in unit's tables, by cell.
func centers(tables []results.Table, unit string) map[string]float64 {
	got := map[string]float64{}
	for _, tb := range tables {
		if tb.Unit != unit {
			continue
		}
		for _, r := range tb.Rows {
			for _, c := range r.Cells {
				if c != nil {
					got[c.Cell] = c.Center
				}
			}
		}
	}
	return got
}
