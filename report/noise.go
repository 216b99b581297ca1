package report

import (
	"fmt"
	"math"
	"strings"

	"github.com/fastpathlab/fplab/results"
)

// writeNoise renders the analysis's A/A noise floor: for every
// calibration pair (cell+"/aa=a", cell+"/aa=b") and every unit both sides
// report, how far apart two runs of one configuration landed. Without a
// pair the section says so.
func writeNoise(b *strings.Builder, n *notes, a *results.Analysis) {
	b.WriteString("## Noise floor (A/A calibration)\n\n")
	pairs := a.Noise
	if len(pairs) == 0 {
		if len(a.AA.Rows()) > 0 {
			b.WriteString("A/A calibration cells ran, but no pair has successful repetitions on both sides (see Failed cells): ")
		} else {
			b.WriteString("No A/A calibration pair in this run: ")
		}
		b.WriteString("differences between cells cannot be set against the harness's own noise.\n\n")
		return
	}
	b.WriteString("One cell run under two names. *b/a* is the ratio of medians; the interval is Moses' distribution-free 95% interval for the b/a shift, the one that matches the U test the tables use. A real difference smaller than *detectable* cannot be told from noise with these repetitions; *biased* means the interval excludes 1 (a harness bias between the two names).\n\n")
	for _, p := range pairs {
		fmt.Fprintf(b, "Pair `%s` (`aa=a` / `aa=b`):\n\n", p.Base)
		t := table([]string{"---", "--:", "--:", "--:", "--:", ":-:", "--:"}, "unit", "reps a/b", "b/a", "95% interval", "detectable", "biased", "CV a / b")
		for _, u := range p.Units {
			unit, nf, err := u.Unit, u.Noise, u.Err
			if err != nil {
				t.Row().Cells(mdText(unit), n.gap(err.Error()), gapMark, gapMark, gapMark, gapMark, gapMark)
				continue
			}
			why := strings.Join(nf.Warnings, "; ")
			if why == "" {
				why = "too few repetitions for a 95% interval"
			}
			interval, detect := n.gap(why), n.gap(why)
			if !math.IsInf(nf.Hi, 0) {
				interval = fmt.Sprintf("[%.4f, %.4f]", nf.Lo, nf.Hi)
				detect = pct(nf.Detectable)
			}
			biased := "no"
			if nf.Biased {
				biased = "**yes**"
			}
			t.Row().Cells(mdText(unit), fmt.Sprintf("%d/%d", nf.NA, nf.NB), fmt.Sprintf("%.4f", nf.Ratio),
				interval, detect, biased, cvText(n, nf.CVA)+" / "+cvText(n, nf.CVB))
		}
		putTable(b, t)
	}
}

func cvText(n *notes, cv float64) string {
	if math.IsNaN(cv) {
		return n.gap(results.WhyNoCV)
	}
	return pct(cv)
}
