package report

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fastpathlab/fplab/plots"
	"github.com/fastpathlab/fplab/results"
	"github.com/fastpathlab/fplab/results/resultstest"
)

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
		{"smoke", resultstest.SmokeRows(), []string{"overview", "by-path", "by-format", "by-batch", "by-brokers", "by-alloc", "by-crc"}},
		{"paths", resultstest.PathsRows(), []string{"overview", "by-path", "by-format"}},
		{"one-cell", resultstest.OneCellRows(), []string{"overview"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := resultstest.TempRun(t, tt.name, results.Manifest{Start: resultstest.T0}, tt.rows)
			md := writeReport(t, dir, Options{})
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
