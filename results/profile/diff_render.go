package profile

import "fmt"

func (d DiffTable) document(f format) document {
	doc := document{title: d.title(), note: d.Kind.note()}
	for _, s := range d.Sections {
		doc.sections = append(doc.sections, section{grid: s.grid(f)})
	}
	return doc
}

func (d DiffTable) title() string {
	side := func(label string, work int64) string {
		if label == "" {
			label = "(unlabelled)"
		}
		if work > 0 {
			return fmt.Sprintf("%s (%d %s)", label, work, WorkUnit)
		}
		return label
	}
	s := fmt.Sprintf("%s profile diff: A = %s, B = %s", d.Kind, side(d.LabelA, d.WorkA), side(d.LabelB, d.WorkB))
	switch {
	case d.WorkA > 0 && d.WorkB > 0:
		s += "; values per " + WorkUnit
	case d.WorkA > 0 || d.WorkB > 0:
		s += "; absolute values (work known for one side only)"
	default:
		s += "; absolute values (work unknown)"
	}
	return s
}

func (s DiffSection) grid(f format) *grid {
	unit := s.Value.column()
	value := func(x float64) string { return s.Value.formatValue(x) }
	if s.PerUnit {
		unit = s.Value.perUnitName()
		value = formatNum
	}
	g := newGrid(f, 1, "bucket", "A "+unit, "A share", "B "+unit, "B share", "delta", "delta %", "share delta")
	for _, r := range append(append([]DiffRow(nil), s.Rows...), s.Total) {
		rel := "-"
		switch {
		case r.RelOK:
			rel = signed(r.Rel, fmt.Sprintf("%.1f%%", 100*r.Rel))
		case r.B != 0:
			rel = "new"
		}
		g.add(r.Name, value(r.A), formatShare(r.ShareA), value(r.B), formatShare(r.ShareB),
			signed(r.Delta, value(r.Delta)), rel, signed(r.ShareDelta, fmt.Sprintf("%.1fpp", 100*r.ShareDelta)))
	}
	return g
}
