package report

import (
	"math"
	"strconv"
	"strings"
)

// mdText keeps text from breaking a table cell or starting markup.
func mdText(s string) string {
	return strings.NewReplacer("|", `\|`, "*", `\*`, "_", `\_`, "<", "&lt;", "\r", "", "\n", " ").Replace(s)
}

// row renders one Markdown table row.
func row(cells ...string) string {
	return "| " + strings.Join(cells, " | ") + " |\n"
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

// si renders v with 4 significant digits and a decimal SI prefix: the units
// are the children's own (MB/s is already scaled), so no binary prefixes.
func si(v float64) string {
	a := math.Abs(v)
	div, suffix := 1.0, ""
	switch {
	case a >= 1e12:
		div, suffix = 1e12, "T"
	case a >= 1e9:
		div, suffix = 1e9, "G"
	case a >= 1e6:
		div, suffix = 1e6, "M"
	case a >= 1e3:
		div, suffix = 1e3, "k"
	}
	return strconv.FormatFloat(v/div, 'g', 4, 64) + suffix
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
