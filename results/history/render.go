package history

import (
	"fmt"
	"io"
	"strconv"

	"github.com/fastpathlab/fplab/results"
	"github.com/fastpathlab/fplab/results/texttab"
)

// WriteRuns prints the stored runs, one a line.
func WriteRuns(w io.Writer, runs []Run) error {
	t := texttab.New(texttab.AlignLeft, texttab.AlignLeft, texttab.AlignLeft, texttab.AlignLeft, texttab.AlignLeft,
		texttab.AlignRight, texttab.AlignRight, texttab.AlignRight)
	t.Row().Cells("run", "spec", "commit", "host", "arch", "reps", "failed", "values")
	for _, r := range runs {
		commit := ShortCommit(r.Commit)
		if r.Dirty {
			commit += " (dirty)"
		}
		arch := r.Arch
		if r.Emulated {
			arch += " (emulated)"
		}
		spec := r.Spec
		if spec == "" {
			spec = "-"
		}
		t.Row().Cells(r.ID, spec, commit, r.Hostname, arch, strconv.Itoa(r.Reps), strconv.Itoa(r.Failed), strconv.Itoa(r.Samples))
	}
	return t.WriteText(w)
}

// WriteSeries prints one series: a line per run in commit order, with the
// median and interval of its repetitions and its floor on the unit.
func WriteSeries(w io.Writer, cell, unit string, ps []Point) error {
	if _, err := fmt.Fprintf(w, "%s\n%s, in commit order\n\n", cell, unit); err != nil {
		return err
	}
	t := texttab.New(texttab.AlignLeft, texttab.AlignLeft, texttab.AlignRight, texttab.AlignRight, texttab.AlignRight, texttab.AlignRight)
	t.Row().Cells("commit", "run", "median", "±", "n", "A/A floor")
	for _, p := range ps {
		st := results.Summarize(p.Values)
		commit := ShortCommit(p.Run.Commit)
		if p.Run.Dirty {
			commit += " (dirty)"
		}
		t.Row().Cells(commit, p.Run.ID, texttab.Number(st.Center), st.CI, strconv.Itoa(st.N), floorText(p.Floor))
	}
	return t.WriteText(w)
}

func floorText(f results.Floor) string {
	if !f.Known() {
		return "-"
	}
	s := fmt.Sprintf("%.1f%%", 100*f.Detectable)
	if f.Biased {
		s += " (biased)"
	}
	return s
}

// WriteChanges prints change points, a line each: the series, the commit
// range and runs it lies between, the move, its p-value and the floor it
// passed.
func WriteChanges(w io.Writer, cs []Change) error {
	t := texttab.New(texttab.AlignLeft, texttab.AlignLeft, texttab.AlignLeft, texttab.AlignLeft,
		texttab.AlignRight, texttab.AlignRight, texttab.AlignRight, texttab.AlignLeft)
	t.Row().Cells("cell", "unit", "commits", "runs", "change", "p", "floor", "")
	for _, c := range cs {
		verdict := "better"
		switch {
		case c.Worse():
			verdict = "worse"
		case results.Better(c.Unit) == results.Neutral:
			verdict = ""
		}
		t.Row().Cells(c.Cell, c.Unit, ShortCommit(c.Before.Run.Commit)+".."+ShortCommit(c.After.Run.Commit),
			c.Before.Run.ID+".."+c.After.Run.ID,
			fmt.Sprintf("%+.1f%%", 100*c.Forward()), fmt.Sprintf("%.2g", c.P),
			fmt.Sprintf("%.1f%%", 100*c.Threshold), verdict)
	}
	return t.WriteText(w)
}
