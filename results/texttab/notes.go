package texttab

import "strings"

// Gap is what a table prints where it has no figure; a footnote says why.
const Gap = "—"

// Footnotes numbers distinct texts in order of first use. The zero value
// marks them with superscript digits, as benchstat does.
type Footnotes struct {
	// Mark renders footnote number i (from 1); nil means Superscript.
	Mark func(i int) string

	list []string
	idx  map[string]int
}

// Ref registers text (once) and returns its mark.
func (f *Footnotes) Ref(text string) string {
	if f.idx == nil {
		f.idx = make(map[string]int)
	}
	i, ok := f.idx[text]
	if !ok {
		f.list = append(f.list, text)
		i = len(f.list)
		f.idx[text] = i
	}
	if f.Mark == nil {
		return Superscript(i)
	}
	return f.Mark(i)
}

// Refs returns the marks of texts, each distinct text once, joined by sep.
func (f *Footnotes) Refs(sep string, texts ...string) string {
	var marks []string
	used := make(map[string]bool, len(texts))
	for _, s := range texts {
		if !used[s] {
			used[s] = true
			marks = append(marks, f.Ref(s))
		}
	}
	return strings.Join(marks, sep)
}

// Texts returns the registered texts; footnote i is Texts()[i-1].
func (f *Footnotes) Texts() []string { return f.list }

// Lines renders the legend, one "<mark> <text>" line per footnote.
func (f *Footnotes) Lines() []string {
	out := make([]string, len(f.list))
	for i, s := range f.list {
		mark := Superscript(i + 1)
		if f.Mark != nil {
			mark = f.Mark(i + 1)
		}
		out[i] = mark + " " + s
	}
	return out
}

var superDigits = []rune("⁰¹²³⁴⁵⁶⁷⁸⁹")

// Superscript renders i (>= 1) in superscript digits: "¹", "¹²".
func Superscript(i int) string {
	var r []rune
	for ; i > 0; i /= 10 {
		r = append([]rune{superDigits[i%10]}, r...)
	}
	return string(r)
}
