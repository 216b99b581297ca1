package report

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/fastpathlab/fplab/cell"
	"github.com/fastpathlab/fplab/plots"
	"github.com/fastpathlab/fplab/results"
)

// writeTables renders the analysis's tables (results.BuildTables of the
// swept cells, values in the spec's order) as Markdown:
// the throughput (rec/s) tables and its shares of the references measured
// in the same run (results.UnitPctCeiling, UnitPctTwin, UnitPctTwinExVerify) in full, every
// other unit folded in a <details> block. A table wider than
// maxTableColumns is split by its columns (writeTable). A cell without data
// is a gap with a footnote saying why; cells that are gaps for the same
// reason share the footnote.
// An emulated run's tables carry plots.EmulatedLabel in every heading.
func writeTables(b *strings.Builder, n *notes, runDir string, a *results.Analysis, emulated bool, link func(string) string) {
	b.WriteString("## Tables\n\n")
	tables, err := a.Tables, a.TablesErr
	if err != nil {
		fmt.Fprintf(b, "Tables unavailable: %s\n\n", mdText(err.Error()))
		return
	}
	if len(tables) == 0 {
		writeCells(b, n, a.Sweep)
		return
	}
	b.WriteString("Each cell: median ± 95% confidence interval of the repetitions (distribution-free, as benchstat); CV = standard deviation / mean, `!` above 5%; *vs base* = change against the first column with the Mann-Whitney U test's p-value, `~` when not significant at α = 0.05.")
	if st, err := os.Stat(filepath.Join(runDir, results.TablesDir)); err == nil && st.IsDir() {
		fmt.Fprintf(b, " Text and CSV renderings: [%s/](%s).", results.TablesDir, link(results.TablesDir+"/"))
	}
	b.WriteString("\n\n")
	gi := gapIndex{rows: a.Sweep.Rows()}
	var units []string
	byUnit := make(map[string][]results.Table)
	for _, t := range tables {
		if _, ok := byUnit[t.Unit]; !ok {
			units = append(units, t.Unit)
		}
		byUnit[t.Unit] = append(byUnit[t.Unit], t)
	}
	var look tableLook
	if emulated {
		look.suffix = " — " + plots.EmulatedLabel
	}
	for _, u := range units {
		// Throughput and its shares of the run's references (the serving
		// ceiling, the consume-only twin) are the headline; the rest folds.
		folded := u != plotsPrimaryUnit && u != results.UnitPctCeiling && u != results.UnitPctTwin && u != results.UnitPctTwinExVerify
		if folded {
			fmt.Fprintf(b, "<details><summary>%s (%d tables)</summary>\n\n", mdText(u), len(byUnit[u]))
		}
		for _, t := range byUnit[u] {
			// A split table links its full width: the CSV the ladder (or
			// a merge) wrote beside the report, when it is there.
			look.csv = ""
			rel := results.TablesDir + "/" + results.TableFileBase(t.Unit, t.Axis) + ".csv"
			if st, err := os.Stat(filepath.Join(runDir, filepath.FromSlash(rel))); err == nil && st.Mode().IsRegular() {
				look.csv = fmt.Sprintf("[%s](%s)", mdText(rel), link(rel))
			}
			writeTable(b, n, t, gi, look)
		}
		if folded {
			b.WriteString("</details>\n\n")
		}
	}
}

// plotsPrimaryUnit is the unit whose tables are shown unfolded.
const plotsPrimaryUnit = results.UnitRecPerSec

// tableNotes is the report's results.Notes.
type tableNotes struct {
	n  *notes
	t  results.Table
	gi gapIndex
}

func (tn tableNotes) Ref(warnings []string) string { return tn.n.refs(warnings) }

func (tn tableNotes) Gap(g results.Gap) string {
	if g.Kind == results.GapCell {
		return tn.n.gap(tn.gi.why(tn.t, tn.t.Rows[g.Row], g.Col))
	}
	return tn.n.gap(g.Why)
}

// gapIndex explains why a table cell is empty, from the journal rows as
// results.Index counts them.
type gapIndex struct {
	rows []results.Row
}

// why finds the cells matching the empty table cell's dimensions and says
// what happened to them. The text leaves the cell's name out: the table's
// heading, row and column already say which cell it is (and Failed cells
// names it), so every gap with the same reason shares one footnote instead
// of one per cell.
func (g gapIndex) why(t results.Table, tr results.TableRow, j int) string {
	want := make(map[string]string)
	for _, f := range t.Fixed {
		k, v, _ := strings.Cut(f, "=")
		want[k] = v
	}
	for _, a := range t.RowAxes {
		want[a] = "" // absent unless the label names it
	}
	if tr.Label != "all" && tr.Label != "-" {
		for _, p := range strings.Split(tr.Label, "/") {
			k, v, _ := strings.Cut(p, "=")
			want[k] = v
		}
	}
	want[t.Axis] = t.Cols[j]
	reps, failed := 0, 0
	var reasons []string
	for _, r := range g.rows {
		if !dimsMatch(cell.Dims(r.Cell), want) {
			continue
		}
		reps++
		if !r.OK {
			failed++
			reason := r.Reason
			if reason == "" {
				reason = "no reason recorded"
			}
			if !slices.Contains(reasons, reason) {
				reasons = append(reasons, reason)
			}
		}
	}
	switch {
	case reps == 0:
		return whyNotRun
	case failed == reps:
		// Sorted, so cells whose repetitions failed for the same reasons
		// in another order still share a footnote.
		sortStrings(reasons)
		return fmt.Sprintf("all %d repetitions failed (%s); see Failed cells", reps, strings.Join(reasons, "; "))
	default:
		return fmt.Sprintf("no %s samples in its successful repetitions", t.Unit)
	}
}

// whyNotRun is the footnote of a table cell no journal row matches: the
// spec left the combination out, or the run stopped before it.
const whyNotRun = "not in the run: the journal has no cell for this row and column"

func dimsMatch(dims, want map[string]string) bool {
	for k, v := range want {
		got, ok := dims[k]
		if v == "" && ok || v != "" && got != v {
			return false
		}
	}
	return true
}
