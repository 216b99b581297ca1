package plots

import (
	"sort"

	"github.com/fastpathlab/fplab/cell"
	"github.com/fastpathlab/fplab/results"
)

// selection is the set of cells one figure draws. A figure fixes some
// dimensions (format=json), varies some (path and batch), and must hold every
// other dimension (brokers, alloc, crc, ...) at one setting so that its
// lines compare like with like.
type selection struct {
	// held is the chosen setting of the held dimensions.
	held map[string]string
	// cells match the fixed dimensions and the held setting and have
	// samples of the selecting unit.
	cells []*cellData
}

// selectCells picks the held setting for a figure: among cells that match
// fixed and have samples of unit, the setting of the remaining dimensions
// (all but fixed and vary) with the most cells wins; ties go to the setting
// that agrees with prefer on more dimensions, then to the first in name
// order. ok is false when no cell qualifies.
func selectCells(cells []*cellData, fixed map[string]string, vary []string, unit string, prefer map[string]string) (selection, bool) {
	skip := make(map[string]bool, len(fixed)+len(vary))
	for k := range fixed {
		skip[k] = true
	}
	for _, k := range vary {
		skip[k] = true
	}
	type group struct {
		held  map[string]string
		name  string
		cells []*cellData
	}
	groups := make(map[string]*group)
	for _, c := range cells {
		if !matches(c.dims, fixed) || !c.has(unit) {
			continue
		}
		held := make(map[string]string)
		for k, v := range c.dims {
			if !skip[k] {
				held[k] = v
			}
		}
		name := results.Setting(held)
		g := groups[name]
		if g == nil {
			g = &group{held: held, name: name}
			groups[name] = g
		}
		g.cells = append(g.cells, c)
	}
	if len(groups) == 0 {
		return selection{}, false
	}
	all := make([]*group, 0, len(groups))
	for _, g := range groups {
		all = append(all, g)
	}
	agree := func(g *group) int {
		n := 0
		for k, v := range prefer {
			if g.held[k] == v {
				n++
			}
		}
		return n
	}
	sort.Slice(all, func(i, j int) bool {
		a, b := all[i], all[j]
		if len(a.cells) != len(b.cells) {
			return len(a.cells) > len(b.cells)
		}
		if pa, pb := agree(a), agree(b); pa != pb {
			return pa > pb
		}
		return a.name < b.name
	})
	return selection{held: all[0].held, cells: all[0].cells}, true
}

// matches reports whether dims has every key=value of want.
func matches(dims, want map[string]string) bool {
	for k, v := range want {
		if dims[k] != v {
			return false
		}
	}
	return true
}

// cellsMatching returns the cells whose dimensions agree with every given
// key=value map and have no dimension outside them, the varied ones aside.
func cellsMatching(cells []*cellData, held, fixed map[string]string) []*cellData {
	var out []*cellData
	for _, c := range cells {
		if !matches(c.dims, fixed) || !matches(c.dims, held) {
			continue
		}
		extra := false
		for k := range c.dims {
			_, h := held[k]
			_, f := fixed[k]
			if !h && !f && k != cell.Path && k != cell.Batch {
				extra = true
			}
		}
		if !extra {
			out = append(out, c)
		}
	}
	return out
}
