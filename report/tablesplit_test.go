package report

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/fastpathlab/fplab/internal/golden"
	"github.com/fastpathlab/fplab/results"
	"github.com/fastpathlab/fplab/results/resultstest"
)

// wideAxes are the values of the wide fixture's swept axes, in its spec's
// order: 4 paths x 5 formats x 2 clusters, so its tables by path (12
// Markdown columns) and by format (15) are wider than maxTableColumns.
var wideAxes = struct{ paths, formats, clusters []string }{
	paths:    []string{"shallow", "fast", "java", "flink"},
	formats:  []string{"raw", "json", "avro", "protobuf", "csv"},
	clusters: []string{"kafka", "embedded"},
}

// wideReasons are the reasons the wide fixture's table gaps have, one
// footnote each however many cells share one.
var wideReasons = []string{
	whyNotRun,
	"all 3 repetitions failed (timeout after 2m0s); see Failed cells",
	"all 3 repetitions failed (crash); see Failed cells",
	"no ns/rec samples in its successful repetitions",
	results.WhyNoDelta,
}

// wideRun writes a run shaped like the references spec, on a smaller
// scale: java runs raw only (the other formats are not in the run), two of
// flink's cells on kafka time out, fast/csv on embedded crashes and
// shallow/json on embedded reports no ns/rec. Each gap reason of
// wideReasons therefore covers several cells of one table or of several.
func wideRun(t *testing.T) (dir string, rows []results.Row) {
	t.Helper()
	spec, err := json.Marshal(map[string]any{"name": "wide", "path": wideAxes.paths, "format": wideAxes.formats,
		"cluster": wideAxes.clusters, "repetitions": 3})
	if err != nil {
		t.Fatal(err)
	}
	m := resultstest.Manifest()
	m.Spec, m.Emulated = spec, false
	speed := map[string]float64{"shallow": 1.2e6, "fast": 2.8e6, "java": 1.9e6, "flink": 0.7e6}
	for pi, path := range wideAxes.paths {
		for fi, format := range wideAxes.formats {
			if path == "java" && format != "raw" {
				continue
			}
			for ci, cluster := range wideAxes.clusters {
				name := fmt.Sprintf("path=%s/format=%s/batch=8192/brokers=3/alloc=go/crc=off/cluster=%s", path, format, cluster)
				var reason string
				switch {
				case path == "flink" && cluster == "kafka" && (format == "avro" || format == "protobuf"):
					reason = "timeout after 2m0s"
				case path == "fast" && format == "csv" && cluster == "embedded":
					reason = "crash"
				}
				for rep := range 3 {
					if reason != "" {
						rows = append(rows, results.Row{Cell: name, Rep: rep, Reason: reason, Signal: "killed"})
						continue
					}
					rate := speed[path] * (1 - 0.1*float64(fi)) * (1 - 0.15*float64(ci)) * (1 + 0.01*float64(rep-1+pi))
					ms := []results.Metric{resultstest.Metric("rec/s", rate)}
					if path != "shallow" || format != "json" || cluster != "embedded" {
						ms = append(ms, resultstest.Metric("ns/rec", 1e9/rate))
					}
					rows = append(rows, resultstest.OK(name, rep, ms...))
				}
			}
		}
	}
	dir = resultstest.TempRun(t, "wide", m, rows)
	// The ladder writes the full-width renderings beside the report.
	tables, err := results.BuildTables(results.NewIndex(rows), results.TableOptions{Order: specOrder(spec)})
	if err != nil {
		t.Fatal(err)
	}
	if err := results.WriteTableFiles(dir, tables); err != nil {
		t.Fatal(err)
	}
	return dir, rows
}

// mdCells splits a Markdown table line into its cells (splitCells is what
// the report cuts its tables with; this is the test's own reading).
func mdCells(line string) []string {
	inner := strings.TrimSuffix(strings.TrimPrefix(line, "| "), " |")
	return strings.Split(inner, " | ")
}

// tableParts maps each "###" heading of md's Tables section to the lines
// of the Markdown table under it.
func tableParts(t *testing.T, md string) (headings []string, parts map[string][]string) {
	t.Helper()
	_, sec, ok := strings.Cut(md, "\n## Tables\n")
	if !ok {
		t.Fatal("no Tables section")
	}
	sec, _, _ = strings.Cut(sec, "\n## ")
	parts = map[string][]string{}
	var cur string
	for _, l := range strings.Split(sec, "\n") {
		switch {
		case strings.HasPrefix(l, "### "):
			cur = strings.TrimPrefix(l, "### ")
			headings = append(headings, cur)
		case strings.HasPrefix(l, "|") && cur != "":
			parts[cur] = append(parts[cur], l)
		}
	}
	return headings, parts
}

func TestWideTablesSplit(t *testing.T) {
	dir, rows := wideRun(t)
	md := mustRender(t, mustRun(t, dir), Options{NoPlots: true})
	golden.Check(t, "wide.golden.md", []byte(md))

	// No table of the report is wider than the bound.
	for _, l := range strings.Split(md, "\n") {
		if strings.HasPrefix(l, "|") && len(mdCells(l)) > maxTableColumns {
			t.Errorf("%d columns, more than %d: %s", len(mdCells(l)), maxTableColumns, l)
		}
	}

	// Every column of every table is in exactly one of its parts, every
	// part has all the table's rows, and every split part links the
	// full-width CSV.
	tables, err := results.BuildTables(results.NewIndex(rows), results.TableOptions{})
	if err != nil {
		t.Fatal(err)
	}
	headings, parts := tableParts(t, md)
	split := 0
	for _, tb := range tables {
		seen := map[string]int{}
		var mine []string
		for _, h := range headings {
			if h == tb.Title() || strings.HasPrefix(h, tb.Title()+", column") {
				mine = append(mine, h)
			}
		}
		if len(mine) == 0 {
			t.Errorf("%s: not in the report", tb.Title())
			continue
		}
		for _, h := range mine {
			lines := parts[h]
			if len(lines) != 2+len(tb.Rows) {
				t.Errorf("%s: %d lines, want a header, a rule and %d rows", h, len(lines), len(tb.Rows))
			}
			for _, c := range mdCells(lines[0]) {
				seen[c]++
			}
		}
		for j := range tb.Cols {
			if col := tb.ColLabel(j) + " " + tb.Unit; seen[col] != 1 {
				t.Errorf("%s: column %q is in %d parts, want 1", tb.Title(), col, seen[col])
			}
		}
		if len(mine) > 1 {
			split++
			csv := results.TablesDir + "/" + results.TableFileBase(tb.Unit, tb.Axis) + ".csv"
			if n := strings.Count(md, "]("+csv+")"); n != len(mine) {
				t.Errorf("%s: %d links to %s, want one per part (%d)", tb.Title(), n, csv, len(mine))
			}
			if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(csv))); err != nil {
				t.Errorf("%s: %v", tb.Title(), err)
			}
		}
	}
	if split == 0 {
		t.Error("no table was split: the fixture does not test the bound")
	}

	// One footnote per distinct reason: the gaps of the tables point to
	// exactly the footnotes of wideReasons.
	_, sec, _ := strings.Cut(md, "\n## Tables\n")
	sec, _, _ = strings.Cut(sec, "\n## ")
	got := map[string]bool{}
	for _, ref := range regexp.MustCompile(regexp.QuoteMeta(gapMark)+`\[\^(\d+)\]`).FindAllStringSubmatch(sec, -1) {
		_, def, ok := strings.Cut(md, "\n[^"+ref[1]+"]: ")
		if !ok {
			t.Fatalf("footnote %s has no definition", ref[1])
		}
		def, _, _ = strings.Cut(def, "\n")
		got[def] = true
	}
	if len(got) != len(wideReasons) {
		t.Errorf("%d gap footnotes, want one per reason (%d): %v", len(got), len(wideReasons), got)
	}
	for _, r := range wideReasons {
		if !got[mdText(r)] {
			t.Errorf("no footnote says %q", r)
		}
	}
}

// TestSplitCols: every part is within the bound, the parts cover the
// axis values in order, and a row note stays with the last value.
func TestSplitCols(t *testing.T) {
	for ncols := 1; ncols <= 9; ncols++ {
		for _, note := range []string{"", "regressed"} {
			tb := results.Table{Unit: "rec/s", Axis: "path", Rows: []results.TableRow{{Label: "all", Note: note}}}
			for j := range ncols {
				tb.Cols = append(tb.Cols, fmt.Sprint("p", j))
			}
			parts := splitCols(tb)
			next := 0
			for i, p := range parts {
				width := 1
				for j := p.from; j < p.to; j++ {
					width += groupWidth(j)
				}
				if note != "" && i == len(parts)-1 {
					width++
				}
				if p.from != next || p.to <= p.from || width > maxTableColumns {
					t.Errorf("%d values, note %q: part %d is %v, %d columns", ncols, note, i, p, width)
				}
				next = p.to
			}
			if next != ncols {
				t.Errorf("%d values, note %q: parts %v end at %d", ncols, note, parts, next)
			}
		}
	}
}

// TestSplitNote: a split table with a row note (as Compare marks one)
// prints the note once, after its last value, and no part is wider than
// the bound.
func TestSplitNote(t *testing.T) {
	st := func(v float64) *results.Stat {
		return &results.Stat{Center: v, CI: "1%", CV: 0.01, Delta: &results.Delta{Text: "~", Note: "p=0.100 n=3"}}
	}
	tb := results.Table{Unit: "rec/s", Axis: "batch", Cols: []string{"256", "1024", "8192", "65536"}, RowAxes: []string{"path"},
		Rows: []results.TableRow{{Label: "path=fast", Cells: []*results.Stat{st(1e6), nil, st(2e6), st(3e6)}, Note: "regressed"}}}
	var b strings.Builder
	var n notes
	writeTable(&b, &n, tb, gapIndex{}, tableLook{csv: "[tables/x.csv](tables/x.csv)"})
	md := b.String()
	if got := strings.Count(md, "regressed"); got != 1 {
		t.Errorf("note printed %d times:\n%s", got, md)
	}
	i := strings.LastIndex(md, " of 4")
	if i < 0 || strings.Count(md, " of 4") < 2 {
		t.Fatalf("a table of 4 values is not split:\n%s", md)
	}
	if last := md[i:]; !strings.Contains(last, "| regressed |") {
		t.Errorf("note not in the last part:\n%s", md)
	}
	for _, l := range strings.Split(md, "\n") {
		if strings.HasPrefix(l, "|") && len(mdCells(l)) > maxTableColumns {
			t.Errorf("%d columns: %s", len(mdCells(l)), l)
		}
	}
	if got := strings.Count(md, "full width: [tables/x.csv](tables/x.csv)"); got != 2 {
		t.Errorf("%d links to the full width, want one per part:\n%s", got, md)
	}
	// The empty cell's footnote is registered when its part is printed.
	if len(n.fn.Texts()) != 1 || n.fn.Texts()[0] != whyNotRun {
		t.Errorf("footnotes %q", n.fn.Texts())
	}
}
