package report

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/fastpathlab/fplab/results"
	"github.com/fastpathlab/fplab/results/texttab"
)

// writeFailures lists every cell with a failed repetition as
// results.Index counts them (a repetition resumed after a failure counts
// by its last row): how many of its repetitions failed, why, with which
// signal, and each stderr tail in a collapsed block.
func writeFailures(b *strings.Builder, x *results.Index) {
	b.WriteString("## Failed cells\n\n")
	var t *texttab.Table
	cells := x.Cells()
	for _, c := range cells {
		if c.Failed == 0 {
			continue
		}
		var reasons, signals []string
		for _, r := range c.Rows {
			if r.OK {
				continue
			}
			reasons = addOnce(reasons, orDefault(r.Reason, "no reason recorded"))
			if r.Signal != "" {
				signals = addOnce(signals, r.Signal)
			}
		}
		if t == nil {
			t = table([]string{"---", "--:", "---", "---"}, "cell", "failed reps", "reason", "signal")
		}
		sig := strings.Join(signals, ", ")
		if sig == "" {
			sig = "none"
		}
		t.Row().Cells("`"+c.Name+"`", fmt.Sprintf("%d of %d", c.Failed, c.OK+c.Failed),
			mdText(strings.Join(reasons, "; ")), mdText(sig))
	}
	if t == nil {
		b.WriteString("None: every repetition of every cell succeeded.\n\n")
		return
	}
	putTable(b, t)
	for _, c := range cells {
		var failed []results.Row
		for _, r := range c.Rows {
			if !r.OK {
				failed = append(failed, r)
			}
		}
		sort.SliceStable(failed, func(i, j int) bool { return failed[i].Rep < failed[j].Rep })
		for _, r := range failed {
			tail := strings.TrimRight(r.StderrTail, "\n")
			if tail == "" {
				continue
			}
			f := fence(tail)
			fmt.Fprintf(b, "<details><summary>stderr tail: %s rep %s</summary>\n\n%s\n%s\n%s\n\n</details>\n\n",
				mdText(c.Name), strconv.Itoa(r.Rep), f, tail, f)
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
