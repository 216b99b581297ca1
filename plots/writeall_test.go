package plots

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fastpathlab/fplab/results"
	"github.com/fastpathlab/fplab/results/resultstest"
)

func TestWriteAll(t *testing.T) {
	dir := t.TempDir()
	files, err := writeRows(t, dir, resultstest.SweepRows(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 23 || filepath.Base(files[22]) != SkippedFile {
		t.Fatalf("wrote %d files %v, want 11 figures (overview, 5 axes, 5 per format) x png+svg and %s", len(files), files, SkippedFile)
	}
	for _, f := range files[:22] {
		st, err := os.Stat(f)
		if err != nil || st.Size() == 0 || filepath.Dir(f) != filepath.Join(dir, Dir) {
			t.Errorf("file %s: %v (size %v)", f, err, st)
		}
	}
	if !slices.Contains(files, filepath.Join(dir, Dir, "tradeoff-json.svg")) {
		t.Errorf("no tradeoff-json.svg among %v", files)
	}
	// The sweep has no live cells: the live figures are all it skips.
	noLive := "no live cells (mode=live or maxrate) in this run"
	if list, err := os.ReadFile(files[22]); err != nil || string(list) != "latency-percentiles: "+noLive+"\nlag: "+noLive+"\nlatency-batch: no live cells (mode=live) in this run\nmax-rate: no max-rate-rec/s samples (no mode=maxrate cells in this run)\n" {
		t.Errorf("skipped.txt = %q, %v; want only the live figures", list, err)
	}

	// A run of one cell without checkpoints: only the overview applies,
	// every other figure is listed with its reason, and the images of the
	// previous run are not claimed as written.
	rows := []results.Row{{Cell: "path=fast/format=json/batch=8192", OK: true, Metrics: []results.Metric{{Unit: "rec/s", Value: 1}}}}
	files, err = writeRows(t, dir, rows, Options{Formats: []string{"png"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 2 || filepath.Base(files[0]) != "overview.png" || filepath.Base(files[1]) != SkippedFile {
		t.Fatalf("files %v, want overview.png and %s", files, SkippedFile)
	}
	list, err := os.ReadFile(files[1])
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"throughput-json: one batch size only (8192)", "tradeoff-json: no ckpt-p99-ms samples", "alloc-json: no cell name has a part alloc="} {
		if !strings.Contains(string(list), want+"") {
			t.Errorf("skipped.txt lacks %q:\n%s", want, list)
		}
	}
	if strings.Contains(string(list), "overview") || strings.Contains(string(list), "by-") {
		t.Errorf("skipped.txt lists a figure that applies to every run:\n%s", list)
	}
}

func TestWriteAllBadDir(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := writeRows(t, file, resultstest.SweepRows(), Options{}); err == nil || !strings.HasPrefix(err.Error(), "write figures: ") {
		t.Errorf("run dir is a file: err = %v", err)
	}
}

// TestWriteAllOddRows: malformed cell names and odd values give skips or
// figures, never a panic or an error.
func TestWriteAllOddRows(t *testing.T) {
	ms := func(vs ...float64) []results.Metric {
		var out []results.Metric
		units := []string{results.UnitRecPerSec, results.UnitCkptP99, results.UnitReplayRec}
		for i, v := range vs {
			out = append(out, results.Metric{Unit: units[i], Value: v})
		}
		return out
	}
	rows := []results.Row{
		{Cell: "garbage", OK: true, Metrics: ms(1)},
		{Cell: "path=fast/format=json/batch=abc", OK: true, Metrics: ms(1, 2)},
		{Cell: "path=fast/format=json/batch=-5", OK: true, Metrics: ms(1, 2)},
		{Cell: "path=fast/format=json/batch=0", OK: true, Metrics: ms(0, 0, 0)},
		{Cell: "path=fast/format=json/batch=1", OK: true, Metrics: ms(0, 0, 0)},
		{Cell: "path=fast/format=json/batch=2", OK: true, Metrics: ms(0, 0, 0)},
		{Cell: "path=/format=a b/batch=2/alloc=x", OK: true, Metrics: ms(-3)},
		{Cell: "path=/format=a b/batch=2/alloc=y", OK: true},
		{Cell: "format=json/batch=4/path=weird", OK: true, Metrics: ms(5, 500, 1)},
	}
	files, err := writeRows(t, t.TempDir(), rows, Options{Formats: []string{"png"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("nothing written")
	}
	for _, f := range files {
		if strings.ContainsAny(filepath.Base(f), " /") {
			t.Errorf("unsafe file name %s", f)
		}
	}
}
