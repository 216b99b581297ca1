package headline

import (
	"slices"
	"strings"

	"github.com/fastpathlab/fplab/cell"
	"github.com/fastpathlab/fplab/results"
)

// pair is a numerator cell and a denominator cell equal on every axis but
// the compared one, or a group's lack of one (num or den nil).
type pair struct {
	label    []cell.Part
	num, den *results.CellSamples
	// How many cells each side of the group offers the pair: 1 and 1 for
	// a pair; 0 for a group's empty side (the other side's cell is num or
	// den when it is the only one).
	nNum, nDen int
	// A numerator cell without a partner: its parts on which the nearest
	// denominator cell differs, and that cell's.
	want, have []cell.Part
}

// pairs selects the numerator and denominator cells among cells (the
// sweep's, failed ones included: a failed reference is reported, not
// skipped), splits them into the by groups present, in value order, and
// pairs each group. A comparison with no cell on either side is one pair
// with neither.
func (r resolved) pairs(cells []*results.CellSamples) []pair {
	type group struct {
		values   []string
		num, den []*results.CellSamples
	}
	var groups []*group
	byKey := map[string]*group{}
	for _, c := range cells {
		if !r.kept(c.Dims) {
			continue
		}
		isNum, isDen := r.isNum(c.Dims), r.isDen(c.Dims)
		if !isNum && !isDen {
			continue
		}
		values := make([]string, len(r.By))
		for i, k := range r.By {
			values[i] = valueOf(c.Dims, k)
		}
		k := strings.Join(values, "\x00")
		g := byKey[k]
		if g == nil {
			g = &group{values: values}
			byKey[k] = g
			groups = append(groups, g)
		}
		if isNum {
			g.num = append(g.num, c)
		} else {
			g.den = append(g.den, c)
		}
	}
	if len(groups) == 0 {
		return []pair{{}}
	}
	// A group one side has no cell in, while other groups have both,
	// is one the spec did not run that side in (a spec that excludes
	// flink on raw): no row. A side that ran and failed has its cell,
	// so it stays, as a Missing row that says so; and a comparison
	// without any group of both keeps its groups to say what it lacks.
	both := slices.ContainsFunc(groups, func(g *group) bool { return len(g.num) > 0 && len(g.den) > 0 })
	if both {
		groups = slices.DeleteFunc(groups, func(g *group) bool { return len(g.num) == 0 || len(g.den) == 0 })
	}
	slices.SortStableFunc(groups, func(x, y *group) int { return compareValues(r.By, x.values, y.values) })
	var out []pair
	for _, g := range groups {
		by := make([]cell.Part, len(r.By))
		for i, k := range r.By {
			by[i] = cell.Part{Key: k, Value: g.values[i]}
		}
		out = append(out, r.pairGroup(by, g.num, g.den)...)
	}
	return out
}

// kept reports whether a cell passes every on filter.
func (r resolved) kept(dims map[string]string) bool {
	for _, p := range r.on {
		if valueOf(dims, p.Key) != p.Value {
			return false
		}
	}
	return true
}

// isNum and isDen: with A and B on one axis, that axis's value; with B
// changing an axis of A's cells (a twin), A's value and then B's value
// absent (numerator) or present (denominator).
func (r resolved) isNum(dims map[string]string) bool {
	if valueOf(dims, r.a.Key) != r.a.Value {
		return false
	}
	return !r.twin() || valueOf(dims, r.b.Key) != r.b.Value
}

func (r resolved) isDen(dims map[string]string) bool {
	if r.twin() && valueOf(dims, r.a.Key) != r.a.Value {
		return false
	}
	return valueOf(dims, r.b.Key) == r.b.Value
}

// pairGroup pairs one by group's cells: each numerator cell with every
// denominator cell equal to it on the match keys, every key the group's
// cells write but the compared axis and the on and by axes, less those no
// denominator cell carries (a reference without the path's knobs). A
// group without any pair is one lack: the group itself when a side is
// empty, else each numerator cell without a partner. Cells left unpaired
// in a group that has pairs (a path's twins in fast/flink) are no part of
// the comparison.
func (r resolved) pairGroup(by []cell.Part, num, den []*results.CellSamples) []pair {
	if len(num) == 0 || len(den) == 0 {
		return []pair{{label: by, num: only(num), den: only(den), nNum: len(num), nDen: len(den)}}
	}
	skip := []string{r.b.Key, cell.AA}
	skip = append(skip, r.By...)
	for _, p := range r.on {
		skip = append(skip, p.Key)
	}
	var match []string
	for _, k := range unionKeys(num, den) {
		if slices.Contains(skip, k) {
			continue
		}
		if slices.ContainsFunc(den, func(d *results.CellSamples) bool { return valueOf(d.Dims, k) != "" }) {
			match = append(match, k)
		}
	}
	var found, lone []pair
	for _, n := range num {
		paired := false
		for _, d := range den {
			if sameOn(match, n.Dims, d.Dims) {
				found = append(found, pair{num: n, den: d, nNum: 1, nDen: 1})
				paired = true
			}
		}
		if !paired {
			want, have := nearest(match, n, den)
			lone = append(lone, pair{num: n, nNum: 1, nDen: len(den), want: want, have: have})
		}
	}
	if len(found) == 0 {
		found = lone
	}
	labelPairs(by, skip, found)
	slices.SortStableFunc(found, func(x, y pair) int { return compareParts(x.label, y.label) })
	return found
}

// labelPairs labels each pair with by and then the parts (skip aside) on
// which the pairs' cells differ, in name order: the numerator's value, or
// the denominator's where the numerator has none.
func labelPairs(by []cell.Part, skip []string, ps []pair) {
	var cells []*results.CellSamples
	for _, p := range ps {
		cells = append(cells, p.num)
		if p.den != nil {
			cells = append(cells, p.den)
		}
	}
	var vary []string
	for _, k := range unionKeys(cells) {
		if slices.Contains(skip, k) {
			continue
		}
		v := func(p pair) string {
			if s := valueOf(p.num.Dims, k); s != "" || p.den == nil {
				return s
			}
			return valueOf(p.den.Dims, k)
		}
		if slices.ContainsFunc(ps, func(p pair) bool { return v(p) != v(ps[0]) }) {
			vary = append(vary, k)
		}
	}
	for i := range ps {
		label := slices.Clone(by)
		for _, k := range vary {
			v := valueOf(ps[i].num.Dims, k)
			if v == "" && ps[i].den != nil {
				v = valueOf(ps[i].den.Dims, k)
			}
			label = append(label, cell.Part{Key: k, Value: v})
		}
		ps[i].label = label
	}
}

// unionKeys are the keys the cells' names write, in name order.
func unionKeys(sets ...[]*results.CellSamples) []string {
	var keys []string
	for _, cs := range sets {
		for _, c := range cs {
			for k := range c.Dims {
				if !slices.Contains(keys, k) {
					keys = append(keys, k)
				}
			}
		}
	}
	slices.SortFunc(keys, keyOrder)
	return keys
}

func sameOn(keys []string, a, b map[string]string) bool {
	for _, k := range keys {
		if valueOf(a, k) != valueOf(b, k) {
			return false
		}
	}
	return true
}

// only is the one cell of cs, nil when it has none or several.
func only(cs []*results.CellSamples) *results.CellSamples {
	if len(cs) != 1 {
		return nil
	}
	return cs[0]
}

// nearest finds the denominator cell that differs from n on the fewest
// match keys (the first in name order on a tie), and returns n's parts and
// its parts on those keys.
func nearest(match []string, n *results.CellSamples, den []*results.CellSamples) (want, have []cell.Part) {
	best := -1
	for _, d := range den {
		var w, h []cell.Part
		for _, k := range match {
			if a, b := valueOf(n.Dims, k), valueOf(d.Dims, k); a != b {
				w = append(w, cell.Part{Key: k, Value: a})
				h = append(h, cell.Part{Key: k, Value: b})
			}
		}
		if best < 0 || len(w) < best {
			best, want, have = len(w), w, h
		}
	}
	return want, have
}

// compareValues orders two by groups value by value.
func compareValues(keys, a, b []string) int {
	for i, k := range keys {
		switch {
		case less(k, a[i], b[i]):
			return -1
		case less(k, b[i], a[i]):
			return 1
		}
	}
	return 0
}

// compareParts orders two labels of one group (the same keys) by value.
func compareParts(a, b []cell.Part) int {
	for i := range min(len(a), len(b)) {
		switch {
		case less(a[i].Key, a[i].Value, b[i].Value):
			return -1
		case less(a[i].Key, b[i].Value, a[i].Value):
			return 1
		}
	}
	return len(a) - len(b)
}
