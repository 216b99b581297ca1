package report

import (
	"strings"
	"testing"

	"github.com/fastpathlab/fplab/internal/golden"
	"github.com/fastpathlab/fplab/results"
	"github.com/fastpathlab/fplab/results/resultstest"
)

// toggleRows: three checkpointed cells with their off twins, one costing
// nothing (shown within 2%), one costing 10% (exceeded) and one too noisy
// to tell (not resolved); a crc=on cell against crc=off; a profiled cell
// whose twin never ran (no pair); a checkpointed cell that kills a reader
// (no verdict); and a checkpointed cell whose twin has too few reps for an
// interval.
func toggleRows() []results.Row {
	var rows []results.Row
	add := func(cell string, base float64, spread []float64) {
		for rep, s := range spread {
			v := base * (1 + s)
			rows = append(rows, resultstest.OK(cell, rep, resultstest.Metric("rec/s", v)))
		}
	}
	tight := []float64{-0.004, 0.001, 0.003, -0.002, 0.000, 0.002, -0.001, 0.004}
	wide := []float64{-0.09, 0.07, 0.02, -0.05, 0.11, -0.03, 0.06, -0.08}
	for _, c := range []struct {
		batch       string
		off, on     float64
		offSp, onSp []float64
	}{
		{"4096", 1e6, 0.999e6, tight, tight},
		{"256", 1e6, 0.90e6, tight, tight},
		{"65536", 1e6, 0.99e6, wide, wide},
	} {
		base := "path=fast/format=json/batch=" + c.batch + "/crc=off"
		add(base, c.off, c.offSp)
		add(base+"/ckpt=1s", c.on, c.onSp)
	}
	add("path=fast/format=raw/batch=8192/crc=off", 2e6, tight)
	add("path=fast/format=raw/batch=8192/crc=on", 1.97e6, tight)
	add("path=franz/format=raw/batch=8192/crc=off/prof=on", 2e6, tight)
	add("path=rowwise/format=json/batch=256/crc=off", 3e5, tight)
	for rep, sp := range tight {
		rows = append(rows, resultstest.OK("path=rowwise/format=json/batch=256/crc=off/ckpt=1s", rep,
			resultstest.Metric("rec/s", 2.9e5*(1+sp)), resultstest.Metric("failures", 1)))
	}
	add("path=franz/format=raw/batch=1024/crc=off", 2e6, tight[:2])
	add("path=franz/format=raw/batch=1024/crc=off/ckpt=1s", 2e6, tight[:2])
	return rows
}

func TestTogglePairs(t *testing.T) {
	ps := toggles[0].pairs(results.NewIndex(toggleRows()))
	if len(ps) != 5 || ps[0].off != "path=fast/format=json/batch=4096/crc=off" || ps[0].on != ps[0].off+"/ckpt=1s" || ps[0].value != "1s" {
		t.Fatalf("ckpt pairs %+v", ps)
	}
	ps = toggles[1].pairs(results.NewIndex(toggleRows()))
	if len(ps) != 1 || ps[0].on != "path=fast/format=raw/batch=8192/crc=on" || ps[0].off != "path=fast/format=raw/batch=8192/crc=off" {
		t.Fatalf("crc pairs %+v", ps)
	}
	if ps := toggles[2].pairs(results.NewIndex(toggleRows())); len(ps) != 0 {
		t.Fatalf("a profiled cell without its twin paired: %+v", ps)
	}
}

func TestWriteTogglesGolden(t *testing.T) {
	var b strings.Builder
	var n notes
	writeToggles(&b, &n, results.NewIndex(toggleRows()), 0.02)
	n.write(&b)
	got := b.String()
	lacks(t, "toggles section", got,
		"| path=fast/format=json/batch=4096/crc=off | 1s | 8/8 | 0.9990 |",
		"**shown**", "**exceeded**", "not resolved",
		"### check.crcs",
		"| 1s, 1 reader killed | 8/8 | 0.9667 | 0.9667 | [0.9638, 0.9696] |",
	)
	if strings.Contains(got, "[^1]: \n") {
		t.Error("an empty footnote")
	}
	if strings.Contains(got, "### profiling") {
		t.Error("a profiling table without any pair")
	}
	golden.Check(t, "toggles.golden.md", []byte(got))
}

func TestWriteTogglesNone(t *testing.T) {
	var b strings.Builder
	var n notes
	writeToggles(&b, &n, results.NewIndex(resultstest.GapRows()), 0.02)
	if b.Len() != 0 {
		t.Errorf("a run without toggled settings got a section:\n%s", b.String())
	}
}
