package report

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/fastpathlab/fplab/results"
	"github.com/fastpathlab/fplab/results/texttab"
)

// writeKnee renders the analysis's knee: per format, path and setting,
// the batch size with the highest throughput whose checkpoint p99 stays
// within the budget.
// kneeMeasured reports whether any cell of the run reported a checkpoint
// p99, so that the knee is an answer the report opens with rather than a
// sentence saying there is none.
func kneeMeasured(a *results.Analysis) bool {
	for _, k := range a.Knee {
		if k.Candidates > 0 {
			return true
		}
	}
	return false
}

func writeKnee(b *strings.Builder, n *notes, a *results.Analysis) {
	fmt.Fprintf(b, "## Knee (checkpoint p99 budget %s ms)\n\n", num(a.BudgetMs))
	kps := a.Knee
	if !kneeMeasured(a) {
		b.WriteString("No cell reported " + results.UnitCkptP99 + " (checkpoints off in this run): no knee.\n\n")
		return
	}
	b.WriteString("The batch size with the highest median throughput whose median checkpoint p99 stays within the budget; ties go to the lower p99, then the smaller batch.\n\n")
	t := table([]string{"---", "---", "---", "--:", "--:", "--:"}, "format", "path", "setting", "knee batch", results.UnitRecPerSec, "ckpt p99 (ms)")
	for _, k := range kps {
		setting := mdText(k.Setting)
		if setting == "" {
			setting = "(none)"
		}
		if !k.Found {
			batch := n.gap(k.Reason)
			if strings.HasPrefix(k.Reason, "none within budget") {
				batch = "none within budget" + n.ref(k.Reason)
			}
			t.Row().Cells(mdText(k.Format), mdText(k.Path), setting, batch, gapMark, gapMark)
			continue
		}
		// The knee's figures are medians the tables also print: the same
		// formatter prints them the same way.
		t.Row().Cells(mdText(k.Format), mdText(k.Path), setting, strconv.Itoa(k.Batch), texttab.Number(k.RecPerSec), texttab.Number(k.CkptP99Ms))
	}
	putTable(b, t)
}

// num prints a budget (a setting, not a measured figure) compactly.
func num(v float64) string {
	if v >= 100 || v == float64(int64(v)) {
		return strconv.FormatFloat(v, 'f', 0, 64)
	}
	return strconv.FormatFloat(v, 'g', 3, 64)
}
