package results_test

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fastpathlab/fplab/internal/golden"
	"github.com/fastpathlab/fplab/results"
	"github.com/fastpathlab/fplab/results/resultstest"
)

func renderAll(t *testing.T, tables []results.Table, render func(results.Table, *bytes.Buffer) error) []byte {
	t.Helper()
	var buf bytes.Buffer
	for i, tb := range tables {
		if i > 0 {
			buf.WriteString("\n")
		}
		if err := render(tb, &buf); err != nil {
			t.Fatal(err)
		}
	}
	return buf.Bytes()
}

func TestTablesGolden(t *testing.T) {
	tables, err := results.BuildTables(results.NewIndex(resultstest.TableRows()), results.TableOptions{})
	if err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "tables.txt.golden", renderAll(t, tables, func(tb results.Table, b *bytes.Buffer) error { return tb.WriteText(b) }))
	golden.Check(t, "tables.csv.golden", renderAll(t, tables, func(tb results.Table, b *bytes.Buffer) error { return tb.WriteCSV(b) }))
	golden.Check(t, "tables.md.golden", renderAll(t, tables, func(tb results.Table, b *bytes.Buffer) error { return tb.WriteMarkdown(b) }))
}

func findTable(t *testing.T, tables []results.Table, unit, axis string) results.Table {
	t.Helper()
	for _, tb := range tables {
		if tb.Unit == unit && tb.Axis == axis {
			return tb
		}
	}
	t.Fatalf("no table %s by %s", unit, axis)
	return results.Table{}
}

func TestBuildTablesModel(t *testing.T) {
	tables, err := results.BuildTables(results.NewIndex(resultstest.TableRows()), results.TableOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// 3 units x 3 swept axes (path, batch, alloc); format, brokers and crc
	// have one value and get no table.
	if len(tables) != 9 {
		t.Fatalf("%d tables, want 9", len(tables))
	}
	var order []string
	for _, tb := range tables[:3] {
		order = append(order, tb.Unit+" by "+tb.Axis)
	}
	if want := []string{"rec/s by path", "rec/s by batch", "rec/s by alloc"}; !slices.Equal(order, want) {
		t.Errorf("table order %v, want %v", order, want)
	}
	tb := findTable(t, tables, "rec/s", "batch")
	if !slices.Equal(tb.Cols, []string{"1024", "8192"}) || !slices.Equal(tb.RowAxes, []string{"path", "alloc"}) {
		t.Errorf("cols %v rows axes %v", tb.Cols, tb.RowAxes)
	}
	if !slices.Equal(tb.Fixed, []string{"format=json", "brokers=3", "crc=off"}) {
		t.Errorf("fixed = %v", tb.Fixed)
	}
	if len(tb.Rows) != 4 || tb.Rows[0].Label != "path=fast/alloc=go" {
		t.Fatalf("rows: %d, first %q", len(tb.Rows), tb.Rows[0].Label)
	}
	base, up := tb.Rows[0].Cells[0], tb.Rows[0].Cells[1]
	if base.Delta != nil {
		t.Error("baseline column has a delta")
	}
	// fast/go at 8192 also has a failed rep 6: it is not a sample.
	if base.N != 6 || up.N != 6 {
		t.Errorf("n = %d and %d, want 6 and 6", base.N, up.N)
	}
	if up.Delta == nil || !up.Delta.Significant || up.Delta.Ratio < 1.08 || up.Delta.Ratio > 1.16 {
		t.Errorf("batch=8192 vs 1024 on fast/go: %+v, want a significant ~+12%%", up.Delta)
	}
	if !strings.HasPrefix(up.Delta.Text, "+1") {
		t.Errorf("delta text %q", up.Delta.Text)
	}
	// The noisy cell is flagged, a tight one is not.
	noisy := tb.Rows[1].Cells[0] // fast/mimalloc2 at 1024
	if !noisy.Noisy || noisy.CV <= results.DefaultNoisyCV || base.Noisy {
		t.Errorf("noisy flag: noisy cell %v (cv %.3f), tight cell %v", noisy.Noisy, noisy.CV, base.Noisy)
	}
	// Too few reps: infinite interval and a warning.
	short := tb.Rows[3].Cells[1]
	if short.N != 3 || !math.IsInf(short.Hi, 1) || len(short.Warnings) == 0 || short.CI != "∞" {
		t.Errorf("3-rep cell: n=%d hi=%v ci=%q warnings=%v", short.N, short.Hi, short.CI, short.Warnings)
	}
	for _, r := range tb.Rows {
		for _, c := range r.Cells {
			if c == nil {
				t.Fatalf("row %s has a missing cell", r.Label)
			}
			if c.N < 3 || c.N > 6 {
				t.Errorf("cell %s n=%d; failed rows must not count", c.Cell, c.N)
			}
		}
	}
}

func TestBuildTablesOrderAndMissing(t *testing.T) {
	var rows []results.Row
	add := func(cell string, v float64) {
		for rep := 0; rep < 6; rep++ {
			rows = append(rows, results.Row{Cell: cell, Rep: rep, OK: true, Metrics: []results.Metric{{Unit: "rec/s", Value: v + float64(rep)}}})
		}
	}
	add("path=rowwise/batch=512", 100)
	add("path=shallow/batch=512", 200)
	add("path=fast/batch=512", 400)
	add("path=fast/batch=4096", 500)
	add("path=fast/batch=512/aa=a", 400)

	tables, err := results.BuildTables(results.NewIndex(rows), results.TableOptions{Order: map[string][]string{"path": {"rowwise", "shallow"}}})
	if err != nil {
		t.Fatal(err)
	}
	byPath := findTable(t, tables, "rec/s", "path")
	if !slices.Equal(byPath.Cols, []string{"rowwise", "shallow", "fast"}) {
		t.Errorf("explicit order: cols %v", byPath.Cols)
	}
	byBatch := findTable(t, tables, "rec/s", "batch")
	if !slices.Equal(byBatch.Cols, []string{"512", "4096"}) {
		t.Errorf("numeric order: cols %v", byBatch.Cols)
	}
	// rowwise has no batch=4096 cell.
	for _, r := range byBatch.Rows {
		if r.Label == "path=rowwise" && (r.Cells[1] != nil || r.Cells[0] == nil) {
			t.Errorf("rowwise row cells %v, want only the first", r.Cells)
		}
	}
	byAA := findTable(t, tables, "rec/s", "aa")
	if byAA.Cols[0] != "" || byAA.ColLabel(0) != "aa=(none)" || byAA.ColLabel(1) != "aa=a" {
		t.Errorf("missing axis column: cols %q label %q", byAA.Cols, byAA.ColLabel(0))
	}

	// Without rows or with one cell only, no axis is swept.
	if tbs, err := results.BuildTables(results.NewIndex(rows[:6]), results.TableOptions{}); err != nil || len(tbs) != 0 {
		t.Errorf("single cell: %d tables, err %v", len(tbs), err)
	}
	if _, err := results.BuildTables(results.NewIndex([]results.Row{{Cell: "fast/batch=1", OK: true, Metrics: []results.Metric{{Unit: "x", Value: 1}}}}), results.TableOptions{}); err == nil || !strings.Contains(err.Error(), "not key=value") {
		t.Errorf("positional part: err = %v", err)
	}
	if _, err := results.BuildTables(results.NewIndex(rows), results.TableOptions{NoisyCV: -1}); err == nil {
		t.Error("negative CV threshold accepted")
	}
}

func TestWriteTables(t *testing.T) {
	dir := t.TempDir()
	if err := results.WriteTables(dir, resultstest.TableRows()); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"rec-per-s-by-batch.txt", "rec-per-s-by-batch.csv", "rec-per-s-by-batch.md", "ns-per-rec-by-alloc.txt", "B-per-rec-by-path.md"} {
		data, err := os.ReadFile(filepath.Join(dir, results.TablesDir, name))
		if err != nil || len(data) == 0 {
			t.Errorf("%s: %v (%d bytes)", name, err, len(data))
		}
	}
	entries, _ := os.ReadDir(filepath.Join(dir, results.TablesDir))
	if len(entries) != 27 {
		t.Errorf("%d table files, want 27", len(entries))
	}
	if got := results.TableFileBase("ckpt p99/ms", "a:b"); got != "ckpt_p99-per-ms-by-a_b" {
		t.Errorf("TableFileBase = %q", got)
	}
}
