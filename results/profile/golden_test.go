package profile

import (
	"bytes"
	"testing"

	"github.com/fastpathlab/fplab/internal/golden"
	"github.com/fastpathlab/fplab/results/resultstest"
)

func render(t *testing.T, write func(*bytes.Buffer) error) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := write(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func cellBreakdowns(t *testing.T) (a, b Breakdown) {
	t.Helper()
	a, err := Buckets(resultstest.CPUProfile(t))
	if err != nil {
		t.Fatal(err)
	}
	b, err = BucketsWith(resultstest.FranzCPUProfile(t), Options{Top: 1})
	if err != nil {
		t.Fatal(err)
	}
	a.Label, b.Label = "path=fast/format=json", "path=franz/format=json"
	return a.PerUnit(100000), b.PerUnit(200000)
}

func TestGoldenBreakdown(t *testing.T) {
	cpu, _ := cellBreakdowns(t)
	golden.Check(t, "cpu.txt.golden", render(t, func(w *bytes.Buffer) error { return WriteText(w, cpu) }))
	golden.Check(t, "cpu.md.golden", render(t, func(w *bytes.Buffer) error { return WriteMarkdown(w, cpu) }))

	allocs, err := Buckets(resultstest.AllocsProfile(t))
	if err != nil {
		t.Fatal(err)
	}
	allocs.Label = "path=rowwise/format=json"
	golden.Check(t, "allocs.txt.golden", render(t, func(w *bytes.Buffer) error { return WriteText(w, allocs) }))
	golden.Check(t, "allocs.md.golden", render(t, func(w *bytes.Buffer) error { return WriteMarkdown(w, allocs) }))
}

func TestGoldenDiff(t *testing.T) {
	a, b := cellBreakdowns(t)
	d, err := Diff(a, b)
	if err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "diff.txt.golden", render(t, func(w *bytes.Buffer) error { return WriteDiffText(w, d) }))
	golden.Check(t, "diff.md.golden", render(t, func(w *bytes.Buffer) error { return WriteDiffMarkdown(w, d) }))

	x, err := Buckets(resultstest.AllocsProfile(t))
	if err != nil {
		t.Fatal(err)
	}
	y := x
	y.Label = "again"
	da, err := Diff(x, y)
	if err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "diff-allocs.txt.golden", render(t, func(w *bytes.Buffer) error { return WriteDiffText(w, da) }))
}
