package report

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/fastpathlab/fplab/results"
)

// writeFailures lists every cell with a failed repetition: how many of its
// repetitions failed, why, with which signal, and each stderr tail in a
// collapsed block.
func writeFailures(b *strings.Builder, rows []results.Row) {
	b.WriteString("## Failed cells\n\n")
	type cell struct {
		name    string
		total   int
		failed  []results.Row
		reasons []string
		signals []string
	}
	byName := make(map[string]*cell)
	var order []*cell
	for _, r := range rows {
		c := byName[r.Cell]
		if c == nil {
			c = &cell{name: r.Cell}
			byName[r.Cell] = c
			order = append(order, c)
		}
		c.total++
		if r.OK {
			continue
		}
		c.failed = append(c.failed, r)
		c.reasons = addOnce(c.reasons, orDefault(r.Reason, "no reason recorded"))
		if r.Signal != "" {
			c.signals = addOnce(c.signals, r.Signal)
		}
	}
	sort.SliceStable(order, func(i, j int) bool { return order[i].name < order[j].name })
	any := false
	for _, c := range order {
		if len(c.failed) == 0 {
			continue
		}
		if !any {
			b.WriteString(row("cell", "failed reps", "reason", "signal"))
			b.WriteString(row("---", "--:", "---", "---"))
			any = true
		}
		sig := strings.Join(c.signals, ", ")
		if sig == "" {
			sig = "none"
		}
		b.WriteString(row("`"+c.name+"`", fmt.Sprintf("%d of %d", len(c.failed), c.total),
			mdText(strings.Join(c.reasons, "; ")), mdText(sig)))
	}
	if !any {
		b.WriteString("None: every repetition of every cell succeeded.\n\n")
		return
	}
	b.WriteString("\n")
	for _, c := range order {
		sort.SliceStable(c.failed, func(i, j int) bool { return c.failed[i].Rep < c.failed[j].Rep })
		for _, r := range c.failed {
			tail := strings.TrimRight(r.StderrTail, "\n")
			if tail == "" {
				continue
			}
			f := fence(tail)
			fmt.Fprintf(b, "<details><summary>stderr tail: %s rep %s</summary>\n\n%s\n%s\n%s\n\n</details>\n\n",
				mdText(c.name), strconv.Itoa(r.Rep), f, tail, f)
		}
	}
}

func addOnce(list []string, s string) []string {
	for _, x := range list {
		if x == s {
			return list
		}
	}
	return append(list, s)
}

func orDefault(s, def string) string {
	if strings.TrimSpace(s) == "" {
		return def
	}
	return s
}
