package results

import (
	"slices"
	"sort"
	"strings"

	"github.com/fastpathlab/fplab/cell"
)

// ParityMatrix is a parity run read as case x path: one line per
// situation (the name parts, path aside, that differ between the run's
// cells, e.g. "case=appended" or "txn=aborts"), one column per path, and
// in each entry whether every repetition of that cell passed, with the
// one-line reason when one did not.
type ParityMatrix struct {
	Cases []string // line labels, in cell order ("clean" for the plain cell)
	Paths []string // least to most native
	// Entries are by case, then path; a missing cell is absent.
	Entries map[string]map[string]ParityEntry
}

// ParityEntry is one cell of the matrix.
type ParityEntry struct {
	Pass bool
	// Reason is the first failed repetition's reason ("" when passed).
	Reason string
	// Surfaced is the error line a failure case's path surfaced (its
	// passing rows record it under ConfigSurfaced).
	Surfaced string
}

// paritySignal are the keys whose presence makes a run a parity run.
var paritySignal = []string{cell.Case, cell.Nulls, cell.Txn}

// Parity builds the matrix of the swept cells (the sweep half of
// Index.SplitAA), or returns nil when no cell names a parity case,
// tombstones or transactions.
func Parity(swept []*CellSamples) *ParityMatrix {
	cells := slices.Clone(swept) // sorted below; the caller's order stands
	found := false
	for _, c := range cells {
		for _, k := range paritySignal {
			if _, ok := c.Dims[k]; ok {
				found = true
			}
		}
	}
	if !found {
		return nil
	}
	// the parts that vary between cells, path aside, label a line
	vary := map[string]bool{}
	for _, c := range cells {
		for k, v := range c.Dims {
			for _, d := range cells {
				if d.Dims[k] != v {
					vary[k] = true
				}
			}
		}
	}
	delete(vary, cell.Path)
	keys := make([]string, 0, len(vary))
	for k := range vary {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		ri, _ := cell.KeyRank(keys[i])
		rj, _ := cell.KeyRank(keys[j])
		return ri < rj
	})
	// the plain case first, then the other cases in cell.Cases order,
	// then the topic shapes
	sort.SliceStable(cells, func(i, j int) bool { return parityRank(cells[i].Dims) < parityRank(cells[j].Dims) })
	m := &ParityMatrix{Entries: map[string]map[string]ParityEntry{}}
	for _, c := range cells {
		var parts []string
		for _, k := range keys {
			if v, ok := c.Dims[k]; ok {
				parts = append(parts, k+"="+v)
			}
		}
		label := strings.Join(parts, "/")
		if label == "" {
			label = "clean"
		}
		path := c.Dims[cell.Path]
		if m.Entries[label] == nil {
			m.Entries[label] = map[string]ParityEntry{}
			m.Cases = append(m.Cases, label)
		}
		if !slices.Contains(m.Paths, path) {
			m.Paths = append(m.Paths, path)
		}
		e := ParityEntry{Pass: c.Failed == 0 && c.OK > 0}
		for _, r := range c.Rows {
			if !r.OK && e.Reason == "" {
				e.Reason = firstLine(r.Reason)
			}
			if r.OK && e.Surfaced == "" {
				e.Surfaced = r.Config[ConfigSurfaced]
			}
		}
		m.Entries[label][path] = e
	}
	sort.SliceStable(m.Paths, func(i, j int) bool { return cell.Less(cell.Path, m.Paths[i], m.Paths[j]) })
	return m
}

// parityRank orders a cell's line: the plain cell, the cases, then the
// shapes (tombstones, transactions, codecs).
func parityRank(d map[string]string) int {
	if c, ok := d[cell.Case]; ok {
		return 100 + slices.Index(cell.Cases(), c)
	}
	switch {
	case d[cell.Nulls] != "":
		return 300
	case d[cell.Txn] != "":
		return 301
	case d[cell.Compression] != "":
		return 310 + slices.Index(cell.Compressions(), d[cell.Compression])
	}
	return 0
}
