package profile

import "fmt"

// DiffRow is one bucket (or the total) of two profiles side by side.
type DiffRow struct {
	Name           string // bucket name, or "total"
	A, B           float64
	ShareA, ShareB float64
	Delta          float64 // B - A
	Rel            float64 // Delta / A, valid when RelOK
	RelOK          bool    // A != 0
	ShareDelta     float64 // ShareB - ShareA, as a fraction (0.02 is 2 points)
}

// DiffSection compares one value type (cpu, alloc_space, alloc_objects).
type DiffSection struct {
	Value ValueType
	// PerUnit: A, B and Delta are per unit of work (ns/rec, B/rec,
	// allocs/rec), because both breakdowns carry Work; otherwise they
	// are the profiles' absolute totals.
	PerUnit bool
	Rows    []DiffRow // one per bucket, in AllBuckets order
	Total   DiffRow
}

// DiffTable compares two breakdowns of one kind, B against A.
type DiffTable struct {
	Kind           Kind
	LabelA, LabelB string
	WorkA, WorkB   int64
	Sections       []DiffSection // one per value type, in A's order
}

// Diff compares b against a, bucket by bucket. When both carry Work (see
// Breakdown.PerUnit) values are per unit of work, so cells that read
// different record counts compare; otherwise absolute. Breakdowns of
// different kinds (cpu against allocs) do not compare.
func Diff(a, b Breakdown) (DiffTable, error) {
	if a.Kind != b.Kind {
		return DiffTable{}, fmt.Errorf("cannot compare %s and %s profiles", a.Kind, b.Kind)
	}
	d := DiffTable{Kind: a.Kind, LabelA: a.Label, LabelB: b.Label, WorkA: a.Work, WorkB: b.Work}
	perUnit := a.Work > 0 && b.Work > 0
	for i, v := range a.Values {
		j := valueIndex(b, v)
		if j < 0 {
			return DiffTable{}, fmt.Errorf("profile B has no %s values to compare", v.Type)
		}
		sec := DiffSection{Value: v, PerUnit: perUnit}
		for _, k := range AllBuckets() {
			sa, sb := a.Bucket(k), b.Bucket(k)
			sec.Rows = append(sec.Rows, diffRow(k.String(), at(sa.Value, i), at(sb.Value, j), a.Total[i], b.Total[j], perUnit, a.Work, b.Work))
		}
		sec.Total = diffRow("total", a.Total[i], b.Total[j], a.Total[i], b.Total[j], perUnit, a.Work, b.Work)
		d.Sections = append(d.Sections, sec)
	}
	return d, nil
}

func valueIndex(b Breakdown, v ValueType) int {
	for j, w := range b.Values {
		if w.Type == v.Type && w.Unit == v.Unit && j < len(b.Total) {
			return j
		}
	}
	return -1
}

func at(v []int64, i int) int64 {
	if i < len(v) {
		return v[i]
	}
	return 0
}

func diffRow(name string, va, vb, ta, tb int64, perUnit bool, wa, wb int64) DiffRow {
	r := DiffRow{Name: name, A: float64(va), B: float64(vb), ShareA: share(va, ta), ShareB: share(vb, tb)}
	if perUnit {
		r.A /= float64(wa)
		r.B /= float64(wb)
	}
	r.Delta = r.B - r.A
	if r.A != 0 {
		r.Rel, r.RelOK = r.Delta/r.A, true
	}
	r.ShareDelta = r.ShareB - r.ShareA
	return r
}
