package profile

import (
	"fmt"
	"strings"
)

// document lays b out: the bucket grid, then the top functions of each
// non-empty bucket (in Markdown a function is `code` and every row names
// its bucket).
func (b Breakdown) document(f format) document {
	d := document{title: b.title(), note: b.Kind.note()}
	d.sections = append(d.sections, section{grid: b.summaryGrid(f)})
	if g := b.topGrid(f); g.rows > 0 {
		d.sections = append(d.sections, section{caption: "top functions per bucket (share of the whole profile)", grid: g})
	}
	return d
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

func (b Breakdown) summaryGrid(f format) *grid {
	header := []string{"bucket"}
	for _, v := range b.Values {
		header = append(header, v.column(), "share")
		if b.Work > 0 {
			header = append(header, v.perUnitName())
		}
	}
	g := newGrid(f, 1, header...)
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

// topGrid lists each non-empty bucket's top functions. In Markdown a
// function name is `code` and every row names its bucket; in text only a
// bucket's first row does.
func (b Breakdown) topGrid(f format) *grid {
	quote, repeat := "", false
	if f == asMarkdown {
		quote, repeat = "`", true
	}
	header := []string{"bucket", "function"}
	for _, v := range b.Values {
		header = append(header, v.column(), "share")
	}
	g := newGrid(f, 2, header...)
	for _, s := range b.Buckets {
		for j, fn := range s.Top {
			name := s.Bucket.String()
			if j > 0 && !repeat {
				name = ""
			}
			cells := []string{name, quote + fn.Name + quote}
			for i, v := range b.Values {
				cells = append(cells, v.formatValue(float64(fn.Value[i])), formatShare(share(fn.Value[i], b.Total[i])))
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
