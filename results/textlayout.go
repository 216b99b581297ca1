package results

import (
	"strings"
	"unicode/utf8"
)

// sub is one sub-column of a text block: its alignment and the margin
// printed before it (only on rows where the cell is not empty).
type sub struct {
	right  bool
	margin string
}

// block lays out a rows x len(subs) matrix of strings. It returns one line
// per row, all of the same width, and the offset at which each sub-column's
// cells start.
func block(cells [][]string, subs []sub) (lines []string, offsets []int, width int) {
	widths := make([]int, len(subs))
	for _, row := range cells {
		for i, c := range row {
			widths[i] = max(widths[i], textWidth(c))
		}
	}
	offsets = make([]int, len(subs))
	for i, s := range subs {
		if widths[i] == 0 {
			continue // an all-empty sub-column takes no room
		}
		offsets[i] = width + textWidth(s.margin)
		width = offsets[i] + widths[i]
	}
	for _, row := range cells {
		var b strings.Builder
		for i, s := range subs {
			if widths[i] == 0 {
				continue
			}
			c := row[i]
			if c == "" {
				b.WriteString(strings.Repeat(" ", textWidth(s.margin)+widths[i]))
				continue
			}
			b.WriteString(s.margin)
			b.WriteString(pad(c, widths[i], s.right))
		}
		lines = append(lines, b.String())
	}
	return lines, offsets, width
}

// place writes labels at the given offsets of a line of width columns.
func place(width int, at []int, labels []string) string {
	line := []rune(strings.Repeat(" ", width))
	for i, l := range labels {
		r := []rune(l)
		for k := 0; k < len(r); k++ {
			if at[i]+k < len(line) {
				line[at[i]+k] = r[k]
			} else {
				line = append(line, r[k])
			}
		}
	}
	return string(line)
}

func textWidth(s string) int { return utf8.RuneCountInString(s) }

func pad(s string, w int, right bool) string {
	n := w - textWidth(s)
	if n <= 0 {
		return s
	}
	if right {
		return strings.Repeat(" ", n) + s
	}
	return s + strings.Repeat(" ", n)
}

var superDigits = []rune("⁰¹²³⁴⁵⁶⁷⁸⁹")

// superscript renders i (>= 1) in superscript digits, as benchstat marks
// its footnotes.
func superscript(i int) string {
	var r []rune
	for ; i > 0; i /= 10 {
		r = append([]rune{superDigits[i%10]}, r...)
	}
	return string(r)
}

// footnotes numbers distinct warning texts in order of first use.
type footnotes struct {
	list []string
	idx  map[string]int
}

// mark returns the superscript marks for msgs, registering new ones.
func (f *footnotes) mark(msgs ...[]string) string {
	if f.idx == nil {
		f.idx = map[string]int{}
	}
	var marks []string
	used := map[string]bool{}
	for _, l := range msgs {
		for _, m := range l {
			if used[m] {
				continue
			}
			used[m] = true
			i, ok := f.idx[m]
			if !ok {
				f.list = append(f.list, m)
				i = len(f.list)
				f.idx[m] = i
			}
			marks = append(marks, superscript(i))
		}
	}
	return strings.Join(marks, " ")
}

// lines renders the footnote legend, one "¹ text" line each.
func (f *footnotes) lines() []string {
	var out []string
	for i, m := range f.list {
		out = append(out, superscript(i+1)+" "+m)
	}
	return out
}
