package profile

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// golden compares got with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from golden (run go test -update after checking):\n--- got\n%s\n--- want\n%s", name, got, want)
	}
}

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
	a, err := Buckets(cpuProfile(t))
	if err != nil {
		t.Fatal(err)
	}
	b, err = BucketsWith(cpuProfileB(t), Options{Top: 1})
	if err != nil {
		t.Fatal(err)
	}
	a.Label, b.Label = "path=fast/format=json", "path=franz/format=json"
	return a.PerUnit(100000), b.PerUnit(200000)
}

func TestGoldenBreakdown(t *testing.T) {
	cpu, _ := cellBreakdowns(t)
	golden(t, "cpu.txt.golden", render(t, func(w *bytes.Buffer) error { return WriteText(w, cpu) }))
	golden(t, "cpu.md.golden", render(t, func(w *bytes.Buffer) error { return WriteMarkdown(w, cpu) }))

	allocs, err := Buckets(allocsProfile(t))
	if err != nil {
		t.Fatal(err)
	}
	allocs.Label = "path=rowwise/format=json"
	golden(t, "allocs.txt.golden", render(t, func(w *bytes.Buffer) error { return WriteText(w, allocs) }))
	golden(t, "allocs.md.golden", render(t, func(w *bytes.Buffer) error { return WriteMarkdown(w, allocs) }))
}

func TestGoldenDiff(t *testing.T) {
	a, b := cellBreakdowns(t)
	d, err := Diff(a, b)
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "diff.txt.golden", render(t, func(w *bytes.Buffer) error { return WriteDiffText(w, d) }))
	golden(t, "diff.md.golden", render(t, func(w *bytes.Buffer) error { return WriteDiffMarkdown(w, d) }))

	x, err := Buckets(allocsProfile(t))
	if err != nil {
		t.Fatal(err)
	}
	y := x
	y.Label = "again"
	da, err := Diff(x, y)
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "diff-allocs.txt.golden", render(t, func(w *bytes.Buffer) error { return WriteDiffText(w, da) }))
}
