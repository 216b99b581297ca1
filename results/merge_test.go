package results

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

var mergeT0 = time.Date(2026, 12, 2, 9, 0, 0, 0, time.UTC)

// storedSpec mimics the ladder's manifest spec: the spec, its cells and
// the per-host pinning.
func storedSpec(t *testing.T, batches []int, cells []string, reps int, cpus string) json.RawMessage {
	t.Helper()
	b, err := json.Marshal(map[string]any{
		"spec":    map[string]any{"name": "m", "batch": batches, "repetitions": reps},
		"cells":   cells,
		"pinning": map[string]any{"on": cpus != "", "cell_cpus": cpus},
	})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

var mergeCells = []string{"path=fast/batch=1024", "path=fast/batch=8192"}

func mergeRun(t *testing.T, dir, arch string, emulated bool, cpus string, rate float64) Run {
	t.Helper()
	m := Manifest{
		Host:      Fingerprint{Hostname: "h-" + arch, CPUModel: "cpu-" + arch, Cores: 4, Arch: arch, Kernel: "6.1"},
		GoVersion: "go1.26.8", Librdkafka: "2.11.1", GitCommit: "abc",
		AllocVersions: map[string]string{"go": "go1.26.8"},
		Spec:          storedSpec(t, []int{1024, 8192}, mergeCells, 2, cpus),
		Start:         mergeT0, End: mergeT0.Add(10 * time.Minute), MeasuredFraction: 0.5, Emulated: emulated,
	}
	var rows []Row
	for _, c := range mergeCells {
		for rep := range 2 {
			rows = append(rows, Row{Cell: c, Rep: rep, OK: true, Iters: 100, Metrics: []Metric{{"rec/s", rate * float64(1+rep)}}})
		}
	}
	rows = append(rows, Row{Cell: "path=fast/batch=1024/aa=a", Rep: 0, Reason: "crash"})
	return Run{Dir: dir, Manifest: m, Rows: rows}
}

func TestMerge(t *testing.T) {
	x86 := mergeRun(t, "runs/x86", "amd64", false, "1", 1e6)
	arm := mergeRun(t, "runs/arm", "arm64", true, "2-3", 5e5) // other pinning: same spec
	got, err := Merge([]Run{x86, arm}, false)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(got.Run.Rows); n != 10 {
		t.Fatalf("%d rows, want 10", n)
	}
	want := map[string]bool{
		"arch=amd64/path=fast/batch=1024": true, "arch=arm64-emulated/path=fast/batch=8192": true,
		"arch=arm64-emulated/path=fast/batch=1024/aa=a": true,
	}
	for _, r := range got.Run.Rows {
		delete(want, r.Cell)
	}
	if len(want) > 0 {
		t.Errorf("merged rows lack cells %v", want)
	}
	m := got.Run.Manifest
	if m.Host.Arch != "amd64 + arm64-emulated" || !m.Emulated || m.Host.Hostname != "h-amd64 + h-arm64" || m.GoVersion != "go1.26.8" {
		t.Errorf("merged manifest %+v", m)
	}
	if len(got.Sources) != 2 || got.Sources[1].Label != "arm64-emulated" || got.Sources[1].Rows != 5 || got.Sources[1].Failed != 1 {
		t.Errorf("sources %+v", got.Sources)
	}
	// Tables built from the merged rows have arch as an axis.
	tables, err := BuildTables(NewIndex(got.Run.Rows), TableOptions{})
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, tb := range tables {
		if tb.Axis == ArchKey && tb.Unit == "rec/s" && len(tb.Cols) == 2 && tb.Cols[0] == "amd64" && tb.Cols[1] == "arm64-emulated" {
			found = true
		}
	}
	if !found {
		t.Errorf("no rec/s by arch table with columns amd64, arm64-emulated")
	}
}

func TestMergeRefusals(t *testing.T) {
	x86 := mergeRun(t, "runs/x86", "amd64", false, "", 1e6)
	arm := mergeRun(t, "runs/arm", "arm64", false, "", 5e5)

	otherSpec := arm
	otherSpec.Manifest.Spec = storedSpec(t, []int{1024, 65536}, mergeCells, 2, "")

	torn := arm
	torn.Dropped = 1

	short := arm
	short.Rows = short.Rows[:3] // batch=8192 rep 1 missing

	merged, err := Merge([]Run{x86, arm}, false)
	if err != nil {
		t.Fatal(err)
	}
	again := merged.Run
	again.Dir = "runs/merged"

	tests := []struct {
		name  string
		runs  []Run
		want  []string
		force bool // whether force makes it pass
	}{
		{"no runs", nil, []string{"no runs"}, false},
		{"different specs", []Run{x86, otherSpec}, []string{"runs/x86", "runs/arm", "different specs", "fields batch"}, true},
		{"same arch", []Run{x86, x86}, []string{"both arch=amd64"}, true},
		{"torn journal", []Run{x86, torn}, []string{"runs/arm", "journal.jsonl", "torn line"}, true},
		{"missing reps", []Run{x86, short}, []string{"runs/arm", "lacks 1 of 4", "path=fast/batch=8192 rep 1"}, true},
		{"merged again", []Run{again, arm}, []string{"runs/merged", "already has an arch= part"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Merge(tt.runs, false)
			if err == nil {
				t.Fatal("merged")
			}
			msg := err.Error()
			if strings.HasPrefix(msg, "results: ") || strings.Contains(msg, "\n") {
				t.Errorf("error %q is not one line without a package prefix", msg)
			}
			for _, w := range tt.want {
				if !strings.Contains(msg, w) {
					t.Errorf("error %q lacks %q", msg, w)
				}
			}
			_, err = Merge(tt.runs, true)
			if tt.force && err != nil {
				t.Errorf("force: %v", err)
			}
			if !tt.force && err == nil {
				t.Error("force merged what must never merge")
			}
		})
	}
}

func TestMergeForceSameArch(t *testing.T) {
	a := mergeRun(t, "a", "amd64", false, "", 1e6)
	got, err := Merge([]Run{a, a}, true)
	if err != nil {
		t.Fatal(err)
	}
	if got.Sources[0].Label != "amd64" || got.Sources[1].Label != "amd64-run2" {
		t.Errorf("labels %q, %q", got.Sources[0].Label, got.Sources[1].Label)
	}
}

func TestWriteMergedTo(t *testing.T) {
	got, err := Merge([]Run{mergeRun(t, "x", "amd64", false, "", 1e6), mergeRun(t, "y", "arm64", false, "", 5e5)}, false)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := WriteMergedTo(dir, got, TableOptions{}); err != nil {
		t.Fatal(err)
	}
	back, err := ReadRun(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(back.Rows) != len(got.Run.Rows) || back.Manifest.Host.Arch != "amd64 + arm64" {
		t.Errorf("read back %d rows, arch %q", len(back.Rows), back.Manifest.Host.Arch)
	}
	src, err := ReadSources(dir)
	if err != nil || len(src) != 2 || src[1].Dir != "y" {
		t.Errorf("sources %+v, %v", src, err)
	}
	raw, err := os.ReadFile(filepath.Join(dir, RawFile))
	if err != nil || !strings.Contains(string(raw), "BenchmarkLadder/arch=arm64/path=fast/batch=8192 ") {
		t.Errorf("raw.txt lacks the arch-labelled cell (%v):\n%s", err, raw)
	}
	if _, err := os.Stat(filepath.Join(dir, TablesDir, TableFileBase("rec/s", ArchKey)+".txt")); err != nil {
		t.Errorf("no rec/s by arch table: %v", err)
	}
	// A plain run has no sources; a corrupt sources.json names the file.
	if src, err := ReadSources(t.TempDir()); src != nil || err != nil {
		t.Errorf("plain run: sources %v, err %v", src, err)
	}
	if err := os.WriteFile(filepath.Join(dir, SourcesFile), []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadSources(dir); err == nil || !strings.Contains(err.Error(), SourcesFile) {
		t.Errorf("corrupt sources: %v", err)
	}
}

func TestDetectEmulation(t *testing.T) {
	x86info := "processor\t: 0\nvendor_id\t: AuthenticAMD\ncpu family\t: 25\nmodel name\t: AMD EPYC\nflags\t\t: fpu sse4_2\n"
	arminfo := "processor\t: 0\nBogoMIPS\t: 50.00\nFeatures\t: fp asimd crc32\nCPU implementer\t: 0x41\nCPU architecture: 8\n"
	tests := []struct {
		env, cpuinfo, goarch string
		want                 bool
	}{
		{"", x86info, "amd64", false},
		{"", arminfo, "arm64", false},
		{"", x86info, "arm64", true},
		{"", arminfo, "amd64", true},
		{"1", arminfo, "arm64", true},
		{"0", arminfo, "arm64", false},
		{"", "", "arm64", false}, // unreadable cpuinfo: no claim
	}
	for _, tt := range tests {
		got, why := detectEmulation(tt.env, tt.cpuinfo, tt.goarch)
		if got != tt.want || got == (why == "") {
			t.Errorf("env %q goarch %s: %v (%q), want %v", tt.env, tt.goarch, got, why, tt.want)
		}
	}
}
