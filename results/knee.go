package results

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/fastpathlab/fplab/cell"
	"github.com/fastpathlab/fplab/results/texttab"
)

// DefaultBudgetMs is the checkpoint p99 budget Knee uses when given none.
const DefaultBudgetMs = 100

// MaxBudgetMs bounds a knee budget: a checkpoint p99 budget over a minute
// is past any cell the lab runs, so a larger value is a unit mistake.
const MaxBudgetMs = 60_000

// BudgetMs checks a knee budget given as an option: 0 is DefaultBudgetMs,
// and a negative, NaN or larger than MaxBudgetMs value an error naming the
// bound, for the caller to prefix with its field's name.
func BudgetMs(v float64) (float64, error) {
	switch {
	case math.IsNaN(v) || v < 0 || v > MaxBudgetMs:
		return v, fmt.Errorf("is %v, want 0 (default %v) to %v", v, DefaultBudgetMs, MaxBudgetMs)
	case v == 0:
		return DefaultBudgetMs, nil
	}
	return v, nil
}

// KneePoint is the knee of one (format, path, setting) line: the batch size
// with the highest median throughput whose median checkpoint p99 stays
// within the budget. When Found is false, Batch and the figures are zero and
// Reason says why ("none within budget ...", "no ckpt-p99-ms samples", ...).
type KneePoint struct {
	Format string
	Path   string
	// Setting is the cell's other dimensions, e.g. "brokers=3 alloc=go crc=off".
	Setting string
	Found   bool
	Batch   int
	// RecPerSec and CkptP99Ms are the medians across repetitions of the knee
	// cell.
	RecPerSec float64
	CkptP99Ms float64
	// Candidates is the number of batch sizes that had both metrics.
	Candidates int
	Reason     string
}

// Knee finds, for every (format, path, setting) of the swept cells (the
// sweep half of Index.SplitAA), the knee under a checkpoint p99 budget in
// milliseconds (<= 0 or NaN means DefaultBudgetMs). Throughput ties go to
// the lower checkpoint p99, then to the smaller batch. Failed repetitions
// are ignored; a cell without an integer batch size cannot be a knee.
// Live and maxrate cells take no checkpoints and are left to LatencyKnee.
// Results are ordered by format, path (least to most native) and setting.
func Knee(swept []*CellSamples, budgetMs float64) []KneePoint {
	if !(budgetMs > 0) {
		budgetMs = DefaultBudgetMs
	}
	lines := kneeLines(swept, func(c *CellSamples) bool {
		m := c.Dims[cell.Mode]
		return m != cell.ModeLive && m != cell.ModeMaxRate // no checkpoints live: LatencyKnee's cells
	})
	out := make([]KneePoint, 0, len(lines))
	for _, l := range lines {
		out = append(out, kneeOfLine(KneePoint{Format: l.format, Path: l.path, Setting: l.setting}, l.cells, budgetMs))
	}
	return out
}

func kneeOfLine(kp KneePoint, cells []*CellSamples, budgetMs float64) KneePoint {
	type cand struct {
		batch     int
		rate, p99 float64
	}
	var cands []cand
	ok := 0
	for _, c := range cells {
		ok += c.OK
		b, err := strconv.Atoi(c.Dims[cell.Batch])
		rates, p99s := c.Samples[UnitRecPerSec], c.Samples[UnitCkptP99]
		if err != nil || b <= 0 || len(p99s) == 0 || len(rates) == 0 {
			continue
		}
		cands = append(cands, cand{b, Summarize(rates).Center, Summarize(p99s).Center})
	}
	kp.Candidates = len(cands)
	switch {
	case ok == 0:
		kp.Reason = "no successful repetitions"
		return kp
	case len(cands) == 0:
		kp.Reason = "no " + UnitCkptP99 + " samples"
		return kp
	}
	best := -1
	lowest := 0
	for i, c := range cands {
		if c.p99 < cands[lowest].p99 || (c.p99 == cands[lowest].p99 && c.batch < cands[lowest].batch) {
			lowest = i
		}
		if c.p99 > budgetMs {
			continue
		}
		if best < 0 || better(c.rate, c.p99, c.batch, cands[best].rate, cands[best].p99, cands[best].batch) {
			best = i
		}
	}
	if best < 0 {
		lo := cands[lowest]
		kp.Reason = fmt.Sprintf("none within budget (%s ms): lowest p99 %s ms at batch %d",
			texttab.Compact(budgetMs), texttab.Compact(lo.p99), lo.batch)
		return kp
	}
	b := cands[best]
	kp.Found, kp.Batch, kp.RecPerSec, kp.CkptP99Ms = true, b.batch, b.rate, b.p99
	return kp
}

// better reports whether candidate a beats b: higher throughput, then lower
// p99, then smaller batch.
func better(rateA, p99A float64, batchA int, rateB, p99B float64, batchB int) bool {
	if rateA != rateB {
		return rateA > rateB
	}
	if p99A != p99B {
		return p99A < p99B
	}
	return batchA < batchB
}

// Setting renders dims as "k=v k=v", keys in cell-name order (SortKeys):
// KneePoint.Setting, and the way plots names the setting a figure holds,
// so the trade-off figure finds a line's knee by comparing the two.
func Setting(dims map[string]string) string {
	keys := make([]string, 0, len(dims))
	for k := range dims {
		keys = append(keys, k)
	}
	SortKeys(keys)
	parts := make([]string, 0, len(keys))
	for _, k := range keys {
		parts = append(parts, k+"="+dims[k])
	}
	return strings.Join(parts, " ")
}

// SortKeys orders cell-name keys as a name holds them (cell.KeyRank); keys
// a cell cannot hold sort after the known ones, alphabetically.
func SortKeys(keys []string) {
	sort.Slice(keys, func(i, j int) bool {
		ri, iok := cell.KeyRank(keys[i])
		rj, jok := cell.KeyRank(keys[j])
		switch {
		case iok && jok:
			return ri < rj
		case iok != jok:
			return iok
		}
		return keys[i] < keys[j]
	})
}
