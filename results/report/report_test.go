package report

import (
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/fastpathlab/fplab/plots"
	"github.com/fastpathlab/fplab/results"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden.md")

func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if got != string(want) {
		gl, wl := strings.Split(got, "\n"), strings.Split(string(want), "\n")
		for i := 0; i < len(gl) || i < len(wl); i++ {
			var g, w string
			if i < len(gl) {
				g = gl[i]
			}
			if i < len(wl) {
				w = wl[i]
			}
			if g != w {
				t.Fatalf("%s differs at line %d:\n got: %q\nwant: %q\n(go test -update rewrites it)", path, i+1, g, w)
			}
		}
	}
}

func TestWriteGolden(t *testing.T) {
	dir := writeRun(t, "20261202T100000Z-lab-1", fixtureManifest(), fixtureRows())
	path, err := Write(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if path != filepath.Join(dir, FileName) {
		t.Errorf("path = %s", path)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	md := string(data)
	golden(t, "report.golden.md", md)

	// Every relative link points at a file Write produced.
	links := regexp.MustCompile(`\]\(([^)]+)\)`).FindAllStringSubmatch(md, -1)
	if len(links) == 0 {
		t.Fatal("report links no image")
	}
	for _, l := range links {
		if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(l[1]))); err != nil {
			t.Errorf("link %s: %v", l[1], err)
		}
	}
}

// TestReportContent checks the properties the golden file is meant to
// hold, so a careless -update cannot bless a broken report.
func TestReportContent(t *testing.T) {
	dir := writeRun(t, "run", fixtureManifest(), fixtureRows())
	md := Render(mustRun(t, dir), Options{NoPlots: true})
	for _, want := range []string{
		plots.EmulatedLabel,
		"| commit | 0123456789ab (dirty: uncommitted changes) |",
		"| measured-time fraction | 61.0% |",
		"| allocators | go go1.26.8, mimalloc2 2.1.7 |",
		"Pair `path=fast/format=json/batch=8192/brokers=3/alloc=go/crc=off`",
		"| json | fast | brokers=3 alloc=go crc=off | 8192 |",
		"all 3 repetitions failed (timeout after 2m0s)",
		"no ckpt-p99-ms samples in its successful repetitions",
		"one repetition (or a zero mean): no spread to measure",
		"| `path=shallow/format=json/batch=1024/brokers=3/alloc=go/crc=off` | 3 of 3 | timeout after 2m0s | killed |",
		"| `path=fast/format=json/batch=1024/brokers=3/alloc=go/crc=off` | 1 of 3 | assertion: fell back to per-record poll | none |",
		"````\nrung: waiting for partition 3\n```\npanic: stuck\n````",
		"`tradeoff-json`: not drawn yet",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("report lacks %q", want)
		}
	}
	// A/A cells belong to the noise floor only: no table row, knee or
	// figure of theirs.
	if strings.Contains(md, "aa=a |") || strings.Contains(md, "by aa") {
		t.Error("A/A cells leaked into the tables")
	}
	// A gap is never a zero.
	if regexp.MustCompile(`\| 0 ± `).MatchString(md) {
		t.Error("a table shows a zero value")
	}
	// Every footnote reference has a definition.
	for _, ref := range regexp.MustCompile(`\[\^(\d+)\]`).FindAllStringSubmatch(md, -1) {
		if !strings.Contains(md, "\n[^"+ref[1]+"]: ") {
			t.Errorf("footnote %s has no definition", ref[1])
		}
	}
}

func mustRun(t *testing.T, dir string) results.Run {
	t.Helper()
	run, err := results.ReadRun(dir)
	if err != nil {
		t.Fatal(err)
	}
	return run
}

// TestWriteMinimal: a bare manifest and one single-repetition cell still
// give a full report, with gaps instead of invented values.
func TestWriteMinimal(t *testing.T) {
	m := results.Manifest{Start: t0}
	rows := []results.Row{okRow("path=fast/format=json/batch=8192", 0, metric("rec/s", 2e6))}
	dir := writeRun(t, "minimal", m, rows)
	path, err := Write(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	md := string(data)
	golden(t, "minimal.golden.md", md)
	for _, want := range []string{"| host | —[^1] |", "[^1]: not recorded in the manifest", "No A/A calibration pair", "no knee", "None: every repetition", "| `path=fast/format=json/batch=8192` | 2M (n=1) |"} {
		if !strings.Contains(md, want) {
			t.Errorf("minimal report lacks %q", want)
		}
	}
}

func TestWriteBadInput(t *testing.T) {
	good := func(t *testing.T) string {
		return writeRun(t, "run", fixtureManifest(), fixtureRows()[:3])
	}
	tests := []struct {
		name   string
		break_ func(dir string) error
		file   string
	}{
		{"missing manifest", func(dir string) error { return os.Remove(filepath.Join(dir, results.ManifestFile)) }, results.ManifestFile},
		{"corrupt manifest", func(dir string) error {
			return os.WriteFile(filepath.Join(dir, results.ManifestFile), []byte("{\"host\": [\n"), 0o644)
		}, results.ManifestFile},
		{"missing journal", func(dir string) error { return os.Remove(filepath.Join(dir, results.JournalFile)) }, results.JournalFile},
		{"corrupt journal", func(dir string) error {
			return os.WriteFile(filepath.Join(dir, results.JournalFile), []byte("not json\n{\"cell\":\"a=b\",\"ok\":true}\n"), 0o644)
		}, results.JournalFile},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := good(t)
			if err := tt.break_(dir); err != nil {
				t.Fatal(err)
			}
			_, err := Write(dir, Options{})
			if err == nil {
				t.Fatal("no error")
			}
			msg := err.Error()
			if !strings.HasPrefix(msg, "report: ") || !strings.Contains(msg, tt.file) || strings.Contains(msg, "\n") {
				t.Errorf("error %q: want one line starting report: and naming %s", msg, tt.file)
			}
			if _, err := os.Stat(filepath.Join(dir, FileName)); !os.IsNotExist(err) {
				t.Errorf("report written despite the error: %v", err)
			}
		})
	}
}

// TestWriteAllFailed: a run where nothing succeeded still gets a report
// that says so section by section.
func TestWriteAllFailed(t *testing.T) {
	rows := []results.Row{
		{Cell: "path=fast/format=json/batch=256", Rep: 0, Reason: "broker unreachable"},
		{Cell: "path=fast/format=json/batch=8192", Rep: 0, Reason: "crash", Signal: "SIGSEGV", StderrTail: "SIGSEGV: segmentation violation"},
		{Cell: "path=fast/format=json/batch=8192/aa=a", Rep: 0, Reason: "crash"},
	}
	dir := writeRun(t, "failed", results.Manifest{Start: t0}, rows)
	path, err := Write(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	md := string(data)
	for _, want := range []string{
		"no pair has successful repetitions on both sides",
		"No table: no repetition succeeded",
		"`throughput-json`: no rec/s samples",
		"| `path=fast/format=json/batch=8192` | 1 of 1 | crash | SIGSEGV |",
		"| `path=fast/format=json/batch=8192/aa=a` | 1 of 1 | crash | none |",
		"SIGSEGV: segmentation violation",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("report lacks %q", want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, plots.Dir, "throughput-json.png")); !os.IsNotExist(err) {
		t.Errorf("an image was drawn without data: %v", err)
	}
}

func TestLinkBase(t *testing.T) {
	dir := writeRun(t, "run", fixtureManifest(), fixtureRows())
	md := Render(mustRun(t, dir), Options{LinkBase: "../results/runs/run/"})
	if !strings.Contains(md, "](../results/runs/run/plots/throughput-json.png)") ||
		!strings.Contains(md, "[SVG](../results/runs/run/plots/throughput-json.svg)") {
		t.Errorf("links not prefixed with LinkBase:\n%s", md)
	}
	if strings.Contains(md, "](plots/") {
		t.Error("a link escaped LinkBase")
	}
}

func TestBudgetOption(t *testing.T) {
	dir := writeRun(t, "run", fixtureManifest(), fixtureRows())
	md := Render(mustRun(t, dir), Options{NoPlots: true, BudgetMs: 20})
	for _, want := range []string{
		"## Knee (checkpoint p99 budget 20 ms)",
		"| json | fast | brokers=3 alloc=go crc=off | 1024 |",
		"| json | shallow | brokers=3 alloc=go crc=off | none within budget[^",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("report lacks %q", want)
		}
	}
}
