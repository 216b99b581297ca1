package history

import (
	"context"
	"fmt"
	"io"
	"math"
	"sort"
	"strings"

	"github.com/fastpathlab/fplab/results"
	"github.com/fastpathlab/fplab/results/texttab"
)

// Standing is one figure of a run against the same cell's last runs on
// the same host: where "compared with the last 10 runs" comes from.
type Standing struct {
	Cell, Unit string
	// Now is the run's median; Past the medians of the runs before it.
	Now  float64
	Past []float64
	// Median, Min and Max summarise Past.
	Median, Min, Max float64
	// Threshold is how far outside [Min, Max] Now must lie to be Outside:
	// the larger of the run's A/A floor on the unit and MinChange.
	Threshold float64
	// Outside is set when Now lies beyond Min or Max by more than
	// Threshold; Worse says whether that is for the worse by the unit's
	// direction.
	Outside, Worse bool
}

// Delta is Now against the past median (0.05: 5% above it).
func (s Standing) Delta() float64 { return s.Now/s.Median - 1 }

// AgainstOptions tunes Against.
type AgainstOptions struct {
	// Last is how many past runs each figure is held to (default 10).
	Last int
	// MinPast is the fewest past runs a figure needs to be held to them at
	// all (default 3).
	MinPast int
	// MinChange is the least relative distance outside the past range that
	// counts where the run's floor is lower (default 0.01).
	MinChange float64
}

// Against holds every figure of run with a direction (results.Better) to
// the last runs of its cell on the run's host that the store holds from
// before it (the run itself left out, when stored), in cell and unit
// order. A figure with fewer past runs than MinPast is left out; skipped
// counts them.
func (s *Store) Against(ctx context.Context, run results.Run, opt AgainstOptions) (out []Standing, skipped int, err error) {
	if opt.Last == 0 {
		opt.Last = 10
	}
	if opt.MinPast == 0 {
		opt.MinPast = 3
	}
	if opt.MinChange == 0 {
		opt.MinChange = 0.01
	}
	id := RunID(run.Dir)
	all, err := s.AllSeries(ctx, run.Manifest.Host.Key())
	if err != nil {
		return nil, 0, err
	}
	bySeries := map[[2]string][]Point{}
	for _, sr := range all {
		bySeries[[2]string{sr.Cell, sr.Unit}] = sr.Points
	}
	x := results.NewIndex(run.Rows)
	floors := map[string]float64{}
	for _, f := range x.Floors() {
		if f.Known() {
			floors[f.Unit] = f.Detectable
		}
	}
	for _, c := range x.Cells() {
		for _, unit := range c.Units {
			if results.Better(unit) == results.Neutral {
				continue
			}
			var past []float64
			for _, p := range bySeries[[2]string{c.Name, unit}] {
				if p.Run.ID != id && p.Run.Started.Before(run.Manifest.Start) {
					past = append(past, results.Summarize(p.Values).Center)
				}
			}
			if len(past) > opt.Last {
				past = past[len(past)-opt.Last:]
			}
			if len(past) < opt.MinPast {
				skipped++
				continue
			}
			st := Standing{Cell: c.Name, Unit: unit, Now: results.Summarize(c.Samples[unit]).Center, Past: past,
				Median: results.Summarize(past).Center, Min: math.Inf(1), Max: math.Inf(-1),
				Threshold: math.Max(floors[unit], opt.MinChange)}
			for _, v := range past {
				st.Min, st.Max = math.Min(st.Min, v), math.Max(st.Max, v)
			}
			above, below := st.Now > st.Max*(1+st.Threshold), st.Now < st.Min*(1-st.Threshold)
			st.Outside = above || below
			st.Worse = (above && results.Better(unit) == results.LowerIsBetter) || (below && results.Better(unit) == results.HigherIsBetter)
			out = append(out, st)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Cell != out[j].Cell {
			return out[i].Cell < out[j].Cell
		}
		return out[i].Unit < out[j].Unit
	})
	return out, skipped, nil
}

// StandingsTable lays out the figures outside their past range, the worse
// first; the caller renders it as text or Markdown.
func StandingsTable(ss []Standing) *texttab.Table {
	var outside []Standing
	for _, s := range ss {
		if s.Outside {
			outside = append(outside, s)
		}
	}
	sort.SliceStable(outside, func(i, j int) bool { return outside[i].Worse && !outside[j].Worse })
	t := texttab.New(texttab.AlignLeft, texttab.AlignLeft, texttab.AlignRight, texttab.AlignRight, texttab.AlignRight, texttab.AlignRight, texttab.AlignLeft)
	t.Row().Cells("cell", "unit", "this run", "last runs: median", "range", "vs median", "")
	for _, s := range outside {
		verdict := "better"
		switch {
		case s.Worse:
			verdict = "worse"
		case results.Better(s.Unit) == results.Neutral:
			verdict = ""
		}
		t.Row().Cells(s.Cell, s.Unit, texttab.Number(s.Now), texttab.Number(s.Median)+fmt.Sprintf(" (%d runs)", len(s.Past)),
			texttab.Number(s.Min)+" .. "+texttab.Number(s.Max), fmt.Sprintf("%+.1f%%", 100*s.Delta()), verdict)
	}
	return t
}

// StandingsSummary is the sentence over a table of standings.
func StandingsSummary(ss []Standing, skipped, last int) string {
	outside, worse := 0, 0
	for _, s := range ss {
		if s.Outside {
			outside++
			if s.Worse {
				worse++
			}
		}
	}
	return fmt.Sprintf("Against the last %d runs of each cell on this host: %d of %d figures lie outside the range of those runs by more than the run's A/A floor (or 1%%), %d of them for the worse; %d figures have fewer than 3 past runs and are left out.",
		last, outside, len(ss), worse, skipped)
}

// WriteStandings prints the summary and the figures outside their range.
func WriteStandings(w io.Writer, ss []Standing, skipped, last int) error {
	if _, err := fmt.Fprintln(w, StandingsSummary(ss, skipped, last)); err != nil {
		return err
	}
	for _, s := range ss {
		if s.Outside {
			fmt.Fprintln(w)
			return StandingsTable(ss).WriteText(w)
		}
	}
	return nil
}

// StandingsMarkdown is the report's section on the standings: a heading,
// the summary, and the figures outside their range in a table.
func StandingsMarkdown(ss []Standing, skipped, last int, store string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "## Against the history\n\n%s The store: `%s`; every cell's figures over commits are on the history site (`fplab history site`).\n\n",
		texttab.Escape(StandingsSummary(ss, skipped, last)), store)
	for _, s := range ss {
		if s.Outside {
			StandingsTable(ss).WriteMarkdown(&b)
			b.WriteString("\n")
			break
		}
	}
	return b.String()
}
