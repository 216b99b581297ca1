package results

import (
	"fmt"
	"math"
	"strconv"

	"github.com/fastpathlab/fplab/cell"
	"github.com/fastpathlab/fplab/results/texttab"
)

// DefaultLatencyBudgetMs is the end-to-end p99 budget LatencyKnee uses when
// given none: 100 ms, the maxrate spec's p99 budget
// (ladder/specs/maxrate.yaml, max_rate.p99), the e2e p99 a trial must stay
// within for its rate to count as sustained. The latency knee and the
// max-rate search so hold a live path to one bar.
const DefaultLatencyBudgetMs = 100

// LatencyBudgetMs checks a latency knee budget given as an option: 0 is
// DefaultLatencyBudgetMs, and a negative, NaN or larger than MaxBudgetMs
// value (an end-to-end p99 over a minute is past any live cell the lab
// runs, so a unit mistake) an error naming the bound, for the caller to
// prefix with its field's name.
func LatencyBudgetMs(v float64) (float64, error) {
	switch {
	case math.IsNaN(v) || v < 0 || v > MaxBudgetMs:
		return v, fmt.Errorf("is %v, want 0 (default %v) to %v", v, DefaultLatencyBudgetMs, MaxBudgetMs)
	case v == 0:
		return DefaultLatencyBudgetMs, nil
	}
	return v, nil
}

// LatencyKneePoint is the latency knee of one (format, path, setting) line
// of live cells: the largest batch size whose median end-to-end p99 stays
// within the budget. When Found is false, Batch and E2EP99Ms are zero and
// Reason says why ("none within budget ...", "no e2e-p99-ms samples", ...),
// in the words of KneePoint.
type LatencyKneePoint struct {
	Format string
	Path   string
	// Setting is the cell's other dimensions but the batch, rate and
	// linger included, e.g. "brokers=1 alloc=go crc=off mode=live
	// rate=10000 linger=10ms" (Setting's rendering, as KneePoint.Setting).
	Setting string
	Found   bool
	Batch   int
	// E2EP99Ms is the median across repetitions of the knee cell's
	// e2e-p99-ms.
	E2EP99Ms float64
	// Candidates is the number of batch sizes that had e2e-p99-ms samples.
	Candidates int
	Reason     string
}

// LatencyKnee finds, for every (format, path, setting) line of the swept
// mode=live cells (the rate and the linger are part of the setting), the
// largest batch size whose median e2e-p99-ms is within budgetMs (<= 0 or
// NaN means DefaultLatencyBudgetMs; a p99 at the budget is within it).
// Largest, because in a bounded drain a bigger batch only helps
// throughput (each crossing and each Arrow batch pays off over more rows),
// while live it holds rows back longer: the latency budget caps the batch
// from above, as the checkpoint budget caps it in Knee. mode=maxrate
// cells are left out: each reports its p99 at the rate its search ended
// on, not at one rate. Failed repetitions are ignored; a cell without a
// positive integer batch size is no candidate. Results are ordered by
// format, path (least to most native) and setting, as Knee's.
func LatencyKnee(swept []*CellSamples, budgetMs float64) []LatencyKneePoint {
	if !(budgetMs > 0) {
		budgetMs = DefaultLatencyBudgetMs
	}
	lines := kneeLines(swept, func(c *CellSamples) bool { return c.Dims[cell.Mode] == cell.ModeLive })
	out := make([]LatencyKneePoint, 0, len(lines))
	for _, l := range lines {
		out = append(out, latencyKneeOfLine(LatencyKneePoint{Format: l.format, Path: l.path, Setting: l.setting}, l.cells, budgetMs))
	}
	return out
}

// KneeSetting is the setting a knee's line is named by: every dimension of
// a cell but its format, path and batch, rendered by Setting. Knee and
// LatencyKnee name their lines so, and plots finds a line's knee by it.
func KneeSetting(dims map[string]string) string {
	rest := make(map[string]string, len(dims))
	for k, v := range dims {
		if k != cell.Format && k != cell.Path && k != cell.Batch {
			rest[k] = v
		}
	}
	return Setting(rest)
}

func latencyKneeOfLine(kp LatencyKneePoint, cells []*CellSamples, budgetMs float64) LatencyKneePoint {
	type cand struct {
		batch int
		p99   float64
	}
	var cands []cand
	ok := 0
	for _, c := range cells {
		ok += c.OK
		b, err := strconv.Atoi(c.Dims[cell.Batch])
		p99s := c.Samples[UnitE2EP99Ms]
		if err != nil || b <= 0 || len(p99s) == 0 {
			continue
		}
		cands = append(cands, cand{b, Summarize(p99s).Center})
	}
	kp.Candidates = len(cands)
	switch {
	case ok == 0:
		kp.Reason = "no successful repetitions"
		return kp
	case len(cands) == 0:
		kp.Reason = "no " + UnitE2EP99Ms + " samples"
		return kp
	}
	best, lowest := -1, 0
	for i, c := range cands {
		if c.p99 < cands[lowest].p99 || (c.p99 == cands[lowest].p99 && c.batch < cands[lowest].batch) {
			lowest = i
		}
		if c.p99 <= budgetMs && (best < 0 || c.batch > cands[best].batch) {
			best = i
		}
	}
	if best < 0 {
		lo := cands[lowest]
		kp.Reason = fmt.Sprintf("none within budget (%s ms): lowest p99 %s ms at batch %d",
			texttab.Compact(budgetMs), texttab.Compact(lo.p99), lo.batch)
		return kp
	}
	kp.Found, kp.Batch, kp.E2EP99Ms = true, cands[best].batch, cands[best].p99
	return kp
}
