package site

import (
	"context"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/fastpathlab/fplab/internal/atomicfile"
	"github.com/fastpathlab/fplab/results/changepoint"
	"github.com/fastpathlab/fplab/results/history"
)

//go:embed assets/site.js assets/site.css
var assets embed.FS

// Options tunes Build.
type Options struct {
	// Dir is where the site is written (created; the pages in it are
	// replaced).
	Dir string
	// RunRoots are the directories run directories are looked for in
	// (results/runs): a stored run found there gets its report rendered.
	RunRoots []string
	// Changes tunes the change points.
	Changes changepoint.Options
	// Now stamps the pages (time.Now when zero).
	Now time.Time
}

// Summary counts what Build wrote.
type Summary struct {
	Cells, Charts, Changes, Reports int
}

// Build writes the site of store (see the package doc).
func Build(ctx context.Context, store *history.Store, opt Options) (Summary, error) {
	if opt.Dir == "" {
		return Summary{}, fmt.Errorf("no site directory given")
	}
	if opt.Now.IsZero() {
		opt.Now = time.Now()
	}
	m, err := load(ctx, store, opt.Changes)
	if err != nil {
		return Summary{}, err
	}
	for _, d := range []string{opt.Dir, filepath.Join(opt.Dir, "cells"), filepath.Join(opt.Dir, "runs")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return Summary{}, err
		}
	}
	for _, name := range []string{"site.js", "site.css"} {
		b, _ := assets.ReadFile("assets/" + name)
		if err := atomicfile.Write(filepath.Join(opt.Dir, name), b); err != nil {
			return Summary{}, err
		}
	}
	var sum Summary
	for _, r := range m.runs {
		ok, err := writeReport(opt.Dir, r.ID, opt.RunRoots)
		if err != nil {
			return Summary{}, err
		}
		if ok {
			m.reports[r.ID] = true
			sum.Reports++
		}
	}
	for _, c := range m.cells {
		page := m.cellPage(c, opt.Now)
		if err := writePage(filepath.Join(opt.Dir, "cells", c.slug+".html"), cellTmpl, page); err != nil {
			return Summary{}, err
		}
		sum.Cells++
		sum.Charts += len(page.Units)
	}
	idx := m.indexPage(opt.Now)
	sum.Changes = len(idx.Changes)
	if err := writePage(filepath.Join(opt.Dir, "index.html"), indexTmpl, idx); err != nil {
		return Summary{}, err
	}
	return sum, nil
}

// model is the store read once: every host's series, grouped by cell.
type model struct {
	hosts   []history.Host
	runs    []history.Run
	cells   []*cellData
	changes []history.Change
	// hostOf names a host key by its index among hosts.
	hostOf  map[string]int
	reports map[string]bool
}

type cellData struct {
	name, slug string
	// series by unit, then one per host
	units  []string
	series map[string][]history.Series
	hosts  map[string][]string // unit -> host key per series
}

func load(ctx context.Context, store *history.Store, opt changepoint.Options) (*model, error) {
	m := &model{hostOf: map[string]int{}, reports: map[string]bool{}}
	var err error
	if m.hosts, err = store.Hosts(ctx); err != nil {
		return nil, err
	}
	if m.runs, err = store.Runs(ctx); err != nil {
		return nil, err
	}
	byCell := map[string]*cellData{}
	for i, h := range m.hosts {
		m.hostOf[h.Key] = i
		all, err := store.AllSeries(ctx, h.Key)
		if err != nil {
			return nil, err
		}
		for _, sr := range all {
			c := byCell[sr.Cell]
			if c == nil {
				c = &cellData{name: sr.Cell, slug: Slug(sr.Cell), series: map[string][]history.Series{}, hosts: map[string][]string{}}
				byCell[sr.Cell] = c
				m.cells = append(m.cells, c)
			}
			if len(c.series[sr.Unit]) == 0 {
				c.units = append(c.units, sr.Unit)
			}
			c.series[sr.Unit] = append(c.series[sr.Unit], sr)
			c.hosts[sr.Unit] = append(c.hosts[sr.Unit], h.Key)
			cs, err := history.SeriesChanges(sr, opt)
			if err != nil {
				return nil, err
			}
			m.changes = append(m.changes, cs...)
		}
	}
	sort.Slice(m.cells, func(i, j int) bool { return m.cells[i].name < m.cells[j].name })
	for _, c := range m.cells {
		sort.Strings(c.units)
	}
	return m, nil
}

var unsafeChars = regexp.MustCompile(`[^A-Za-z0-9.-]+`)

// Slug is a cell's page name: its name with every run of characters other
// than letters, digits, dots and dashes made one underscore, and 8 hex
// digits of its SHA-256, so two names alike but for those characters get
// pages of their own.
func Slug(cell string) string {
	sum := sha256.Sum256([]byte(cell))
	s := strings.Trim(unsafeChars.ReplaceAllString(cell, "_"), "_")
	if len(s) > 120 {
		s = s[:120]
	}
	return s + "-" + hex.EncodeToString(sum[:4])
}
