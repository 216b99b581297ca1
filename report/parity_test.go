package report

import (
	"strings"
	"testing"

	"github.com/fastpathlab/fplab/internal/golden"
	"github.com/fastpathlab/fplab/results"
)

// parityRows is a parity run: every path on the plain case, tombstones,
// aborted transactions, an appended case and an unknown topic; the fast
// path fails the appended case, franz surfaces nothing for the unknown
// topic (its cell is missing), and rowwise's second repetition of the
// tombstone case failed.
func parityRows() []results.Row {
	const base = "format=json/batch=1024/brokers=1/alloc=go/crc=on"
	var rows []results.Row
	add := func(path, extra string, rep int, ok bool, reason, surfaced string) {
		name := "path=" + path + "/" + base + extra
		r := results.Row{Cell: name, Rep: rep, OK: ok, Reason: reason}
		if ok {
			r.Metrics = []results.Metric{{Unit: results.UnitRec, Value: 100}}
		}
		if surfaced != "" {
			r.Config = map[string]string{results.ConfigSurfaced: surfaced}
		}
		rows = append(rows, r)
	}
	for _, p := range []string{"rowwise", "shallow", "fast", "franz"} {
		add(p, "", 0, true, "", "")
		add(p, "/nulls=0.01", 0, true, "", "")
		add(p, "/nulls=0.01", 1, p != "rowwise", "fplab rung: 3 tombstone rows verified and 2 counted by the reader, the corpus holds 3", "")
		add(p, "/txn=aborts", 0, true, "", "")
		if p == "fast" {
			add(p, "/case=appended", 0, false, "fplab rung: batch 3 row 7: partition 0 offset 6667 is outside the corpus\nmore", "")
		} else {
			add(p, "/case=appended", 0, true, "", "")
		}
		if p != "franz" {
			add(p, "/case=unknown-topic", 0, true, "", `topic "t-absent" does not exist`)
		}
	}
	return rows
}

func TestParityMatrix(t *testing.T) {
	var b strings.Builder
	writeParity(&b, parityOf(t, parityRows()))
	golden.Check(t, "parity.golden.md", []byte(b.String()))
}

func TestNoParityMatrixWithoutParityCells(t *testing.T) {
	var b strings.Builder
	writeParity(&b, parityOf(t, []results.Row{{Cell: "path=fast/format=json/batch=1024/brokers=1/alloc=go/crc=on", OK: true}}))
	if b.Len() != 0 {
		t.Errorf("a plain run got a parity matrix:\n%s", b.String())
	}
}

// parityOf is the parity matrix of rows' analysis, as Render hands it on.
func parityOf(t *testing.T, rows []results.Row) *results.ParityMatrix {
	t.Helper()
	a, err := results.Analyze(rows, results.AnalysisOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return a.Parity
}
