package site

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html/template"
	"sort"
	"time"

	"github.com/fastpathlab/fplab/internal/atomicfile"
	"github.com/fastpathlab/fplab/results"
	"github.com/fastpathlab/fplab/results/history"
	"github.com/fastpathlab/fplab/results/texttab"
)

// changeRow is a change point as the pages list it.
type changeRow struct {
	Cell, CellHref, Unit, Host string
	From, To                   runLink
	Change, P, Floor, Verdict  string
	after                      time.Time
	worse                      bool
}

type runLink struct {
	ID, Commit, Href string
}

type pointRow struct {
	Host, Median, CI, Floor string
	N                       int
	Run                     runLink
	Dirty                   bool
}

type unitView struct {
	Unit    string
	Series  string // the chart's JSON, in the chart div's data-series
	Hosts   []string
	Changes []changeRow
	Points  []pointRow
}

type cellPage struct {
	Cell, Generated string
	Units           []unitView
}

type indexPage struct {
	Generated string
	Hosts     []history.Host
	Changes   []changeRow
	Runs      []runRow
	Cells     []cellLink
}

type runRow struct {
	Run                 runLink
	Host, Arch, Started string
	Reps, Failed        int
	Dirty, Emulated     bool
}

type cellLink struct {
	Name, Href     string
	Units, Changes int
}

// chart is what site.js draws.
type chart struct {
	Commits []string    `json:"commits"`
	Hosts   []chartHost `json:"hosts"`
}

type chartHost struct {
	Name    string        `json:"name"`
	Points  []chartPoint  `json:"points"`
	Changes []chartChange `json:"changes"`
}

type chartPoint struct {
	X      int     `json:"x"`
	Y      float64 `json:"y"`
	Run    string  `json:"run"`
	Commit string  `json:"commit"`
}

type chartChange struct {
	From  int    `json:"from"`
	To    int    `json:"to"`
	Label string `json:"label"`
}

func (m *model) hostName(key string) string {
	h := m.hosts[m.hostOf[key]]
	return fmt.Sprintf("%s (%s)", h.Hostname, h.Arch)
}

// link is a run as a page names it; prefix leads from the page to the
// site's root.
func (m *model) link(r history.Run, prefix string) runLink {
	l := runLink{ID: r.ID, Commit: history.ShortCommit(r.Commit)}
	if m.reports[r.ID] {
		l.Href = prefix + "runs/" + r.ID + "/report.html"
	}
	return l
}

func (m *model) changeRow(c history.Change, prefix string) changeRow {
	verdict := "better"
	switch {
	case c.Worse():
		verdict = "worse"
	case results.Better(c.Unit) == results.Neutral:
		verdict = ""
	}
	return changeRow{
		Cell: c.Cell, CellHref: prefix + "cells/" + Slug(c.Cell) + ".html", Unit: c.Unit,
		Host: m.hostName(c.After.Run.HostKey),
		From: m.link(c.Before.Run, prefix), To: m.link(c.After.Run, prefix),
		Change: fmt.Sprintf("%+.1f%%", 100*c.Forward()), P: fmt.Sprintf("%.2g", c.P),
		Floor: fmt.Sprintf("%.1f%%", 100*c.Threshold), Verdict: verdict,
		after: c.After.Run.Order(), worse: c.Worse(),
	}
}

func (m *model) cellPage(c *cellData, now time.Time) cellPage {
	p := cellPage{Cell: c.name, Generated: now.UTC().Format(time.RFC3339)}
	for _, unit := range c.units {
		v := unitView{Unit: unit}
		// One x position per run, over every host, in commit order.
		var runs []history.Run
		seen := map[string]bool{}
		for _, sr := range c.series[unit] {
			for _, pt := range sr.Points {
				if !seen[pt.Run.ID] {
					seen[pt.Run.ID] = true
					runs = append(runs, pt.Run)
				}
			}
		}
		sort.SliceStable(runs, func(i, j int) bool { return runs[i].Before(runs[j]) })
		x := map[string]int{}
		var ch chart
		for i, r := range runs {
			x[r.ID] = i
			ch.Commits = append(ch.Commits, history.ShortCommit(r.Commit))
		}
		for k, sr := range c.series[unit] {
			host := m.hostName(c.hosts[unit][k])
			v.Hosts = append(v.Hosts, host)
			ch2 := chartHost{Name: host, Points: []chartPoint{}, Changes: []chartChange{}}
			for _, pt := range sr.Points {
				st := results.Summarize(pt.Values)
				ch2.Points = append(ch2.Points, chartPoint{X: x[pt.Run.ID], Y: st.Center, Run: pt.Run.ID, Commit: history.ShortCommit(pt.Run.Commit)})
				floor := "-"
				if pt.Floor.Known() {
					floor = fmt.Sprintf("%.1f%%", 100*pt.Floor.Detectable)
				}
				v.Points = append(v.Points, pointRow{Host: host, Median: texttab.Number(st.Center), CI: st.CI, N: st.N,
					Floor: floor, Run: m.link(pt.Run, "../"), Dirty: pt.Run.Dirty})
			}
			for _, cg := range m.changes {
				if cg.Cell == c.name && cg.Unit == unit && cg.After.Run.HostKey == c.hosts[unit][k] {
					ch2.Changes = append(ch2.Changes, chartChange{From: x[cg.Before.Run.ID], To: x[cg.After.Run.ID],
						Label: fmt.Sprintf("%+.1f%% (%s..%s)", 100*cg.Forward(), history.ShortCommit(cg.Before.Run.Commit), history.ShortCommit(cg.After.Run.Commit))})
					v.Changes = append(v.Changes, m.changeRow(cg, "../"))
				}
			}
			ch.Hosts = append(ch.Hosts, ch2)
		}
		b, _ := json.Marshal(ch)
		v.Series = string(b)
		p.Units = append(p.Units, v)
	}
	return p
}

func (m *model) indexPage(now time.Time) indexPage {
	p := indexPage{Generated: now.UTC().Format(time.RFC3339), Hosts: m.hosts}
	for _, c := range m.changes {
		p.Changes = append(p.Changes, m.changeRow(c, ""))
	}
	// The latest first; at one time, the worse first.
	sort.SliceStable(p.Changes, func(i, j int) bool {
		a, b := p.Changes[i], p.Changes[j]
		if !a.after.Equal(b.after) {
			return a.after.After(b.after)
		}
		return a.worse && !b.worse
	})
	for i := len(m.runs) - 1; i >= 0; i-- {
		r := m.runs[i]
		p.Runs = append(p.Runs, runRow{Run: m.link(r, ""), Host: r.Hostname, Arch: r.Arch,
			Started: r.Started.UTC().Format("2006-01-02 15:04"), Reps: r.Reps, Failed: r.Failed, Dirty: r.Dirty, Emulated: r.Emulated})
	}
	changes := map[string]int{}
	for _, c := range m.changes {
		changes[c.Cell]++
	}
	for _, c := range m.cells {
		p.Cells = append(p.Cells, cellLink{Name: c.name, Href: "cells/" + c.slug + ".html", Units: len(c.units), Changes: changes[c.name]})
	}
	return p
}

func writePage(path string, t *template.Template, data any) error {
	var b bytes.Buffer
	if err := t.Execute(&b, data); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return atomicfile.Write(path, b.Bytes())
}
