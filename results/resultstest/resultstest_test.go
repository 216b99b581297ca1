package resultstest

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/google/pprof/profile"

	"github.com/fastpathlab/fplab/cell"
	"github.com/fastpathlab/fplab/results"
)

// TestWriteRun: what WriteRun writes, results.ReadRun reads back whole.
func TestWriteRun(t *testing.T) {
	m, rows := Manifest(), GapRows()
	dir := TempRun(t, "20261202T100000Z-lab-1", m, rows)
	if filepath.Base(dir) != "20261202T100000Z-lab-1" {
		t.Errorf("run directory %s, want it named as asked", dir)
	}
	run, err := results.ReadRun(dir)
	if err != nil {
		t.Fatal(err)
	}
	if run.Dropped != 0 || !reflect.DeepEqual(run.Rows, rows) {
		t.Errorf("read back %d rows (%d dropped), want the %d written:\n%+v", len(run.Rows), run.Dropped, len(rows), run.Rows)
	}
	var spec bytes.Buffer
	if err := json.Compact(&spec, run.Manifest.Spec); err != nil {
		t.Fatal(err)
	}
	got := run.Manifest
	if got.Host != m.Host || got.Emulated != m.Emulated || !got.Start.Equal(m.Start) || got.GitCommit != m.GitCommit || spec.String() != string(m.Spec) {
		t.Errorf("manifest read back as %+v, spec %s\nwant %+v, spec %s", got, spec.String(), m, m.Spec)
	}
}

// TestRowSets: every named run is the same on every call (golden files
// are drawn from them) and names its cells as the ladder does.
func TestRowSets(t *testing.T) {
	old, new := CompareRows()
	sets := map[string]func() []results.Row{
		"SweepRows": SweepRows, "SmokeRows": SmokeRows, "PathsRows": PathsRows, "OneCellRows": OneCellRows,
		"GapRows": GapRows, "TableRows": TableRows,
		"CompareRows old": func() []results.Row { o, _ := CompareRows(); return o },
		"CompareRows new": func() []results.Row { _, n := CompareRows(); return n },
	}
	for name, rows := range sets {
		a, b := rows(), rows()
		if len(a) == 0 || !reflect.DeepEqual(a, b) {
			t.Errorf("%s: %d rows, the same twice: %v", name, len(a), reflect.DeepEqual(a, b))
		}
		for _, r := range a {
			if _, err := cell.Split(r.Cell); err != nil {
				t.Errorf("%s: %v", name, err)
			}
			if r.OK == (len(r.Metrics) == 0) || r.OK == (r.Reason != "") {
				t.Errorf("%s: row %s rep %d: ok %v with %d metrics and reason %q", name, r.Cell, r.Rep, r.OK, len(r.Metrics), r.Reason)
			}
		}
	}
	if len(old) != 40 || len(new) != 40 {
		t.Errorf("CompareRows: %d and %d rows, want 5 cells x 8 reps each", len(old), len(new))
	}
}

func TestWriteProfile(t *testing.T) {
	for name, p := range map[string]*profile.Profile{"cpu": CPUProfile(t), "allocs": AllocsProfile(t), "franz": FranzCPUProfile(t)} {
		path := filepath.Join(t.TempDir(), "profiles", name+".pprof")
		WriteProfile(t, path, p)
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		got, err := profile.Parse(f)
		f.Close()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(got.Sample) != len(p.Sample) || got.SampleType[len(got.SampleType)-1].Unit != p.SampleType[len(p.SampleType)-1].Unit {
			t.Errorf("%s: read back %d samples of %v, want %d of %v", name, len(got.Sample), got.SampleType, len(p.Sample), p.SampleType)
		}
	}
}
