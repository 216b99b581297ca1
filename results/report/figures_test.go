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
)

// smokeShapedRows is a run shaped like ladder/specs/smoke.yaml: the five
// cells of its covering expansion, one repetition each, checkpoints on, an
// A/A pair, the franz cell timed out.
func smokeShapedRows() []results.Row {
	cells := []struct {
		cell string
		rate float64
	}{
		{"path=rowwise/format=json/batch=1024/brokers=1/alloc=go/crc=on/ckpt=20ms", 0.35e6},
		{"path=shallow/format=avro/batch=8192/brokers=3/alloc=mimalloc2/crc=off/ckpt=20ms", 0.9e6},
		{"path=fast/format=protobuf/batch=1024/brokers=1/alloc=mimalloc3/crc=on/ckpt=20ms", 1.6e6},
		{"path=franz/format=csv/batch=1024/brokers=1/alloc=go/crc=on/ckpt=20ms", 0},
		{"path=rowwise/format=raw/batch=1024/brokers=1/alloc=go/crc=on/ckpt=20ms", 1.1e6},
		{"path=fast/format=json/batch=1024/brokers=1/alloc=go/crc=on/ckpt=20ms/aa=a", 1.3e6},
		{"path=fast/format=json/batch=1024/brokers=1/alloc=go/crc=on/ckpt=20ms/aa=b", 1.31e6},
	}
	var rows []results.Row
	for _, c := range cells {
		cell, r := c.cell, c.rate
		if r == 0 {
			rows = append(rows, results.Row{Cell: cell, Reason: "timeout after 30s", Signal: "killed", Start: t0, End: t0.Add(30 * time.Second)})
			continue
		}
		rows = append(rows, okRow(cell, 0, metric("rec/s", r), metric("ckpt-p99-ms", 9), metric("replay-rec", 1500)))
	}
	return rows
}

// pathsShapedRows is a run shaped like ladder/specs/paths.yaml: four paths
// by two formats, six repetitions each.
func pathsShapedRows() []results.Row {
	var rows []results.Row
	base := map[string]float64{"rowwise": 0.5e6, "shallow": 1.1e6, "fast": 2.6e6, "franz": 1.9e6}
	for _, path := range []string{"rowwise", "shallow", "fast", "franz"} {
		for fi, format := range []string{"raw", "json"} {
			cell := fmt.Sprintf("path=%s/format=%s/batch=8192/brokers=3/alloc=go/crc=off", path, format)
			for rep := range 6 {
				rows = append(rows, okRow(cell, rep, metric("rec/s", base[path]*(3.2-2.2*float64(fi))*(1+0.01*float64(rep%3)))))
			}
		}
	}
	return rows
}

// TestFiguresForEveryRun: the smoke-, paths- and one-cell-shaped runs each
// get the overview and a figure per axis with two or more values, linked
// from the report with both images on disk, and plots/skipped.txt names
// only the per-format figures that do not apply.
func TestFiguresForEveryRun(t *testing.T) {
	tests := []struct {
		name string
		rows []results.Row
		want []string
	}{
		{"smoke", smokeShapedRows(), []string{"overview", "by-path", "by-format", "by-batch", "by-brokers", "by-alloc", "by-crc"}},
		{"paths", pathsShapedRows(), []string{"overview", "by-path", "by-format"}},
		{"one-cell", []results.Row{okRow("path=fast/format=json/batch=8192", 0, metric("rec/s", 2e6))}, []string{"overview"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := writeRun(t, tt.name, results.Manifest{Start: t0}, tt.rows)
			path, err := Write(dir, Options{})
			if err != nil {
				t.Fatal(err)
			}
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			md := string(data)
			for _, name := range tt.want {
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
			if strings.Contains(md, "No figure:") {
				t.Error("report says no figure")
			}
			skipped, err := os.ReadFile(filepath.Join(dir, plots.Dir, plots.SkippedFile))
			if err != nil && !os.IsNotExist(err) {
				t.Fatal(err)
			}
			for _, line := range strings.Split(strings.TrimSpace(string(skipped)), "\n") {
				if strings.HasPrefix(line, "overview") || strings.HasPrefix(line, "by-") {
					t.Errorf("skipped.txt lists %q", line)
				}
			}
			if strings.Contains(md, "`overview`:") || strings.Contains(md, "`by-") {
				t.Error("report lists the overview or an axis figure as not drawn")
			}
		})
	}
}
