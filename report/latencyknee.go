package report

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/fastpathlab/fplab/cell"
	"github.com/fastpathlab/fplab/results"
	"github.com/fastpathlab/fplab/results/texttab"
)

// writeLatencyKnee renders the analysis's latency knee: per format, path
// and setting of the live cells (rate and linger included), the largest
// batch size whose end-to-end p99 stays within the latency budget; then,
// for every line that also has a checkpoint knee (a spec of mode
// [bounded, live] with checkpoints), which batch each budget picks and
// which one binds. A run without mode=live cells has no such section.
func writeLatencyKnee(b *strings.Builder, n *notes, a *results.Analysis) {
	if len(a.LatencyKnee) == 0 {
		return
	}
	fmt.Fprintf(b, "## Latency knee (e2e p99 budget %s ms)\n\n", num(a.LatencyBudgetMs))
	measured := false
	for _, k := range a.LatencyKnee {
		measured = measured || k.Candidates > 0
	}
	if !measured {
		b.WriteString("No live cell reported " + results.UnitE2EP99Ms + ": no latency knee.\n\n")
		return
	}
	b.WriteString("The largest batch size whose median end-to-end p99 stays within the budget, per rate and linger: a bigger batch only helps throughput, so the latency budget caps it from above. Batches is how many batch sizes reported " + results.UnitE2EP99Ms + ".\n\n")
	t := table([]string{"---", "---", "---", "--:", "--:", "--:"}, "format", "path", "setting", "knee batch", "e2e p99 (ms)", "batches")
	for _, k := range a.LatencyKnee {
		setting := mdText(k.Setting)
		if setting == "" {
			setting = "(none)"
		}
		if !k.Found {
			batch := n.gap(k.Reason)
			if strings.HasPrefix(k.Reason, "none within budget") {
				batch = "none within budget" + n.ref(k.Reason)
			}
			t.Row().Cells(mdText(k.Format), mdText(k.Path), setting, batch, gapMark, strconv.Itoa(k.Candidates))
			continue
		}
		t.Row().Cells(mdText(k.Format), mdText(k.Path), setting, strconv.Itoa(k.Batch), texttab.Number(k.E2EP99Ms), strconv.Itoa(k.Candidates))
	}
	putTable(b, t)
	if len(a.KneePairs) == 0 {
		return
	}
	fmt.Fprintf(b, "Both budgets, where the run has both knees for one format, path and setting (the batch a configuration can take is the smaller):\n\n")
	for _, p := range a.KneePairs {
		fmt.Fprintf(b, "- %s\n", pairSentence(p))
	}
	b.WriteString("\n")
}

// pairSentence says which batch each budget picks for one line and which
// binds.
func pairSentence(p results.KneePair) string {
	c, l := p.Checkpoint, p.Latency
	where := c.Format + " " + c.Path
	if p.Shared != "" {
		where += " (" + p.Shared + ")"
	}
	ckpt, live := parts(c.Setting, cell.Ckpt), parts(l.Setting, cell.Rate, cell.Linger)
	batch, which := p.Binding()
	var s string
	switch which {
	case "both":
		s = fmt.Sprintf("%s: the checkpoint budget (%s) and the latency budget (at %s) both pick batch %d.", where, ckpt, live, batch)
	default:
		s = fmt.Sprintf("%s: the checkpoint budget (%s) picks batch %d, the latency budget (at %s) %d; the %s budget binds (batch %d).",
			where, ckpt, c.Batch, live, l.Batch, which, batch)
	}
	return mdText(s)
}

// parts is the "key=value" parts of a knee's setting whose key is one of
// keys, space-separated ("rate=10000 linger=10ms"), or "—" when it has
// none.
func parts(setting string, keys ...string) string {
	var out []string
	for _, p := range strings.Fields(setting) {
		k, _, _ := strings.Cut(p, "=")
		for _, want := range keys {
			if k == want {
				out = append(out, p)
			}
		}
	}
	if len(out) == 0 {
		return gapMark
	}
	return strings.Join(out, " ")
}
