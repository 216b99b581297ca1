package report

import (
	"strconv"
	"strings"

	"github.com/fastpathlab/fplab/results/texttab"
)

// mdText keeps text from breaking a table cell or starting markup
// (texttab.Escape).
func mdText(s string) string { return texttab.Escape(s) }

// table starts one of the report's Markdown tables: one column per entry
// of rules, aligned as that delimiter-row entry says ("---", ":--", "--:",
// ":-:"), and head as its header row.
func table(rules []string, head ...string) *texttab.Table {
	aligns := make([]texttab.Align, len(rules))
	for i, r := range rules {
		aligns[i] = texttab.AlignOf(r)
	}
	t := texttab.New(aligns...)
	t.Row().Cells(head...)
	return t
}

// putTable writes t and the blank line that ends it.
func putTable(b *strings.Builder, t *texttab.Table) {
	t.WriteMarkdown(b) // a strings.Builder does not fail
	b.WriteString("\n")
}

// fence returns a code fence longer than any backtick run in s, so a
// stderr tail cannot close its block early.
func fence(s string) string {
	longest, run := 0, 0
	for _, r := range s {
		if r == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	return strings.Repeat("`", max(3, longest+1))
}

// pct renders a fraction as a percentage with one decimal.
func pct(f float64) string {
	return strconv.FormatFloat(100*f, 'f', 1, 64) + "%"
}

// plural renders "1 cell", "3 cells".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}
