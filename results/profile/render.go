package profile

import (
	"fmt"
	"io"
	"strings"
)

// WriteText writes b as a plain-text table of buckets, the top functions
// of each non-empty bucket, and the profile's limits.
func WriteText(w io.Writer, b Breakdown) error {
	var sb strings.Builder
	sb.WriteString(b.title() + "\n\n")
	if err := b.summaryGrid().writeText(&sb); err != nil {
		return err
	}
	if g := b.topGrid("", false); len(g.rows) > 0 {
		sb.WriteString("\ntop functions per bucket (share of the whole profile):\n")
		if err := g.writeText(&sb); err != nil {
			return err
		}
	}
	sb.WriteString("\nnote: " + b.Kind.note() + "\n")
	_, err := io.WriteString(w, sb.String())
	return err
}

// WriteMarkdown writes b as Markdown: a heading, the bucket table, the top
// functions table and the profile's limits as a quote.
func WriteMarkdown(w io.Writer, b Breakdown) error {
	var sb strings.Builder
	sb.WriteString("### " + b.title() + "\n\n")
	if err := b.summaryGrid().writeMarkdown(&sb); err != nil {
		return err
	}
	if g := b.topGrid("`", true); len(g.rows) > 0 {
		sb.WriteString("\nTop functions per bucket (share of the whole profile):\n\n")
		if err := g.writeMarkdown(&sb); err != nil {
			return err
		}
	}
	sb.WriteString("\n> " + b.Kind.note() + "\n")
	_, err := io.WriteString(w, sb.String())
	return err
}

// title is the one-line description of the profile.
func (b Breakdown) title() string {
	s := b.Kind.String() + " profile"
	if b.Label != "" {
		s += " of " + b.Label
	}
	var parts []string
	for i, v := range b.Values {
		parts = append(parts, v.formatValue(float64(b.Total[i]))+" "+v.Type)
	}
	s += ": " + strings.Join(parts, ", ")
	if b.Duration > 0 {
		s += fmt.Sprintf(" over %s", formatDuration(float64(b.Duration)))
	}
	if b.Work > 0 {
		s += fmt.Sprintf(", %d %s", b.Work, WorkUnit)
	}
	return s
}

func (b Breakdown) summaryGrid() *grid {
	g := &grid{header: []string{"bucket"}}
	for _, v := range b.Values {
		g.header = append(g.header, v.column(), "share")
		if b.Work > 0 {
			g.header = append(g.header, v.perUnitName())
		}
	}
	row := func(name string, val []int64, frac []float64) {
		cells := []string{name}
		for i, v := range b.Values {
			cells = append(cells, v.formatValue(float64(val[i])), formatShare(frac[i]))
			if b.Work > 0 {
				cells = append(cells, formatNum(float64(val[i])/float64(b.Work)))
			}
		}
		g.add(cells...)
	}
	for _, s := range b.Buckets {
		row(s.Bucket.String(), s.Value, s.Fraction)
	}
	whole := make([]float64, len(b.Values))
	for i := range whole {
		if b.Total[i] != 0 {
			whole[i] = 1
		}
	}
	row("total", b.Total, whole)
	return g
}

// topGrid lists each non-empty bucket's top functions; quote wraps
// function names (a backtick for Markdown); repeat names the bucket on
// every row instead of its first only.
func (b Breakdown) topGrid(quote string, repeat bool) *grid {
	g := &grid{header: []string{"bucket", "function"}, left: 2}
	for _, v := range b.Values {
		g.header = append(g.header, v.column(), "share")
	}
	for _, s := range b.Buckets {
		for j, f := range s.Top {
			name := s.Bucket.String()
			if j > 0 && !repeat {
				name = ""
			}
			cells := []string{name, quote + f.Name + quote}
			for i, v := range b.Values {
				cells = append(cells, v.formatValue(float64(f.Value[i])), formatShare(share(f.Value[i], b.Total[i])))
			}
			g.add(cells...)
		}
		if more := s.Funcs - len(s.Top); more > 0 && len(s.Top) > 0 {
			name := s.Bucket.String()
			if !repeat {
				name = ""
			}
			g.add(name, fmt.Sprintf("(%d more)", more))
		}
	}
	return g
}

func share(v, total int64) float64 {
	if total == 0 {
		return 0
	}
	return float64(v) / float64(total)
}
