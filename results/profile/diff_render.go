package profile

import (
	"fmt"
	"io"
	"strings"
)

// WriteDiffText writes d as plain-text tables, one per value type.
func WriteDiffText(w io.Writer, d DiffTable) error {
	var sb strings.Builder
	sb.WriteString(d.title() + "\n")
	for _, s := range d.Sections {
		sb.WriteString("\n")
		if err := s.grid().writeText(&sb); err != nil {
			return err
		}
	}
	sb.WriteString("\nnote: " + d.Kind.note() + "\n")
	_, err := io.WriteString(w, sb.String())
	return err
}

// WriteDiffMarkdown writes d as Markdown, one table per value type.
func WriteDiffMarkdown(w io.Writer, d DiffTable) error {
	var sb strings.Builder
	sb.WriteString("### " + d.title() + "\n")
	for _, s := range d.Sections {
		sb.WriteString("\n")
		if err := s.grid().writeMarkdown(&sb); err != nil {
			return err
		}
	}
	sb.WriteString("\n> " + d.Kind.note() + "\n")
	_, err := io.WriteString(w, sb.String())
	return err
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

func (s DiffSection) grid() *grid {
	unit := s.Value.column()
	format := func(x float64) string { return s.Value.formatValue(x) }
	if s.PerUnit {
		unit = s.Value.perUnitName()
		format = formatNum
	}
	g := &grid{header: []string{"bucket", "A " + unit, "A share", "B " + unit, "B share", "delta", "delta %", "share delta"}}
	for _, r := range append(append([]DiffRow(nil), s.Rows...), s.Total) {
		rel := "-"
		switch {
		case r.RelOK:
			rel = signed(r.Rel, fmt.Sprintf("%.1f%%", 100*r.Rel))
		case r.B != 0:
			rel = "new"
		}
		g.add(r.Name, format(r.A), formatShare(r.ShareA), format(r.B), formatShare(r.ShareB),
			signed(r.Delta, format(r.Delta)), rel, signed(r.ShareDelta, fmt.Sprintf("%.1fpp", 100*r.ShareDelta)))
	}
	return g
}
