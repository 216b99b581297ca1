package ladder

import (
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/fastpathlab/fplab/cell"
)

// Expand turns a spec into its cells: the full product of the axes in axis
// order (path outermost), minus every cell matching an exclusion; with
// Covering, a small subset of those in which every value of every axis that
// survives the exclusions appears at least once. An empty result is an error.
func Expand(s *Spec) ([]cell.Cell, error) {
	all := product(s)
	var cells []cell.Cell
	for _, c := range all {
		if !excluded(c, s.Exclude) {
			cells = append(cells, c)
		}
	}
	if len(cells) == 0 {
		return nil, errors.New("every cell is excluded (empty matrix)")
	}
	if s.Covering {
		cells = covering(cells)
	}
	markBrokerKill(s, cells)
	return cells, nil
}

// markBrokerKill sets Fault on the cells the spec's broker_kill selects
// (checkBrokerKill, limits.go, refuses a selection no cell can run).
func markBrokerKill(s *Spec, cells []cell.Cell) {
	if len(s.BrokerKill) == 0 {
		return
	}
	for i := range cells {
		if cells[i].Matches(s.BrokerKill) {
			cells[i].Fault = cell.FaultKill
		}
	}
}

// product is the full product of the spec's axes, checkpoint values (and
// commit_offsets x rescale for the checkpointing ones), wake and pause
// intervals, discovery intervals (mode=live cells only) and profile
// settings, in axis order (path outermost). The live axes multiply
// only the cells of a mode that has them (cell.AxisOf; mode comes before
// them): a mode=live cell takes every rate x linger, a maxrate cell every
// linger and rate 0 (it searches for its rate), a bounded cell 0 for both,
// once. A live or maxrate cell does not checkpoint, so it takes
// checkpoint 0 only, whatever checkpoint lists, and a maxrate cell wake and pause
// 0 only (checkSizes counts the same product).
func product(s *Spec) []cell.Cell {
	ckpts := s.Checkpoint
	if len(ckpts) == 0 {
		ckpts = []time.Duration{0}
	}
	profs := s.Profile
	if len(profs) == 0 {
		profs = []bool{false}
	}
	wakes := s.Wake
	if len(wakes) == 0 {
		wakes = []time.Duration{0}
	}
	pauses := s.Pause
	if len(pauses) == 0 {
		pauses = []time.Duration{0}
	}
	discovers := s.Discover
	if len(discovers) == 0 {
		discovers = []time.Duration{0}
	}
	cells := []cell.Cell{{}}
	for _, k := range cell.Axes() { // path outermost
		var next []cell.Cell
		for _, c := range cells {
			vs := s.Axis(k)
			if !cell.AxisOf(c.Value(cell.Mode), k) {
				vs = []string{cell.Default(k)}
			}
			for _, v := range vs {
				if err := c.Set(k, v); err != nil {
					panic("ladder: a checked spec holds " + err.Error()) // checkBounds let it through
				}
				next = append(next, c)
			}
		}
		cells = next
	}
	var out []cell.Cell
	for _, c := range cells {
		cks := ckpts
		if c.Live() {
			cks = []time.Duration{0}
		}
		wks, pss, dss := wakes, pauses, discovers
		if c.MaxRate() {
			wks, pss = []time.Duration{0}, []time.Duration{0}
		}
		if c.Mode != cell.ModeLive {
			dss = []time.Duration{0}
		}
		tunes, stats := []cell.Cell{{}}, []time.Duration{0}
		if cell.RdkPath(c.Path) {
			tunes = rdkTunings(s, c.Path == cell.PathFast)
			if !c.Live() && len(s.RdkStats) > 0 {
				stats = s.RdkStats
			}
		}
		for _, ck := range cks {
			for _, cv := range ckptVariants(s, ck) {
				for _, wk := range wks {
					for _, ps := range pss {
						for _, ds := range dss {
							for _, tu := range tunes {
								for _, st := range stats {
									for _, pr := range profs {
										c.Ckpt, c.Commit, c.Rescale, c.Wake, c.Pause, c.Discover, c.Prof = ck, cv.commit, cv.rescale, wk, ps, ds, pr
										c.Drain, c.PartFetch, c.QueueMin, c.FetchWait, c.RdkStats = tu.Drain, tu.PartFetch, tu.QueueMin, tu.FetchWait, st
										out = append(out, c)
									}
								}
							}
						}
					}
				}
			}
		}
	}
	return out
}

// rdkTunings is the product of the spec's librdkafka tunings, drain
// outermost (for the fast path only: the others poll), as cells holding
// only those parts; the lab's own setting of each is 0 or "" (cell.Set's
// rule).
func rdkTunings(s *Spec, fast bool) []cell.Cell {
	out := []cell.Cell{{}}
	drains := s.Drain
	if !fast {
		drains = nil
	}
	for _, ax := range []struct {
		key string
		vs  []string
	}{{cell.Drain, drains}, {cell.PartFetch, ints(s.PartFetch)}, {cell.QueueMin, ints(s.QueueMin)}, {cell.FetchWait, durs(s.FetchWait)}} {
		if len(ax.vs) == 0 {
			continue
		}
		var next []cell.Cell
		for _, t := range out {
			for _, v := range ax.vs {
				if err := t.Set(ax.key, v); err != nil {
					panic("ladder: a checked spec holds " + err.Error()) // checkRdkBounds let it through
				}
				next = append(next, t)
			}
		}
		out = next
	}
	return out
}

func ints(ns []int) []string {
	out := make([]string, len(ns))
	for i, n := range ns {
		out[i] = strconv.Itoa(n)
	}
	return out
}

// durs writes durations as a name does; 0 (off) is the lab's own
// fetch.wait.max.ms.
func durs(ds []time.Duration) []string {
	out := make([]string, len(ds))
	for i, d := range ds {
		if d == 0 {
			d = cell.LabFetchWait
		}
		out[i] = d.String()
	}
	return out
}

// ckptVariant is what a checkpointing cell adds to its checkpoint
// interval: offsets committed or not, and its change of parallelism.
type ckptVariant struct {
	commit  bool
	rescale cell.Rescale
}

// ckptVariants is commit_offsets x rescale for a checkpointing cell, and
// neither for a cell that does not checkpoint (ck 0).
func ckptVariants(s *Spec, ck time.Duration) []ckptVariant {
	if ck == 0 {
		return []ckptVariant{{}}
	}
	commits, rescales := s.CommitOffsets, s.Rescale
	if len(commits) == 0 {
		commits = []bool{false}
	}
	if len(rescales) == 0 {
		rescales = []cell.Rescale{{}}
	}
	var out []ckptVariant
	for _, cm := range commits {
		for _, rs := range rescales {
			out = append(out, ckptVariant{commit: cm, rescale: rs})
		}
	}
	return out
}

// excluded reports whether c matches every key of one exclusion, where a
// value "!v" matches any value but v.
func excluded(c cell.Cell, ex []map[string]string) bool {
	for _, m := range ex {
		if matchesAll(c, m) {
			return true
		}
	}
	return false
}

func matchesAll(c cell.Cell, m map[string]string) bool {
	for k, v := range m {
		if not, ok := strings.CutPrefix(v, "!"); ok {
			if c.Value(k) == not {
				return false
			}
		} else if c.Value(k) != v {
			return false
		}
	}
	return true
}

// covering picks cells greedily: each step takes the candidate that covers
// the most axis values not yet covered, ties going to the candidate closest
// to the first cell (the base), then to the earliest. The result covers every
// value present among the candidates and is at most as long as the total
// number of values (in practice about the length of the longest axis).
func covering(cands []cell.Cell) []cell.Cell {
	need := map[string]bool{}
	for _, c := range cands {
		for _, a := range cell.Axes() {
			need[a+"="+c.Value(a)] = true
		}
	}
	base := cands[0]
	used := make([]bool, len(cands))
	var out []cell.Cell
	for len(need) > 0 {
		best, bestGain, bestDist := -1, 0, 0
		for i, c := range cands {
			if used[i] {
				continue
			}
			gain, dist := 0, 0
			for _, a := range cell.Axes() {
				if need[a+"="+c.Value(a)] {
					gain++
				}
				if c.Value(a) != base.Value(a) {
					dist++
				}
			}
			if gain > bestGain || (gain == bestGain && gain > 0 && dist < bestDist) {
				best, bestGain, bestDist = i, gain, dist
			}
		}
		used[best] = true
		out = append(out, cands[best])
		for _, a := range cell.Axes() {
			delete(need, a+"="+cands[best].Value(a))
		}
	}
	return out
}

// calibrationCell picks the A/A cell: the first cell matching s.Calibrate,
// looked for in the expansion and then (for a covering expansion) among all
// cells the exclusions keep; the first cell when none is configured.
func calibrationCell(s *Spec, cells []cell.Cell) (cell.Cell, error) {
	if len(s.Calibrate) == 0 {
		return cells[0], nil
	}
	for _, c := range cells {
		if c.Matches(s.Calibrate) {
			return c, nil
		}
	}
	for _, c := range product(s) {
		if c.Matches(s.Calibrate) && !excluded(c, s.Exclude) {
			return c, nil
		}
	}
	return cell.Cell{}, errors.New("no cell of the expansion matches " + mapString(s.Calibrate))
}

func mapString(m map[string]string) string {
	out := ""
	for _, a := range cell.Axes() {
		if v, ok := m[a]; ok {
			if out != "" {
				out += ", "
			}
			out += a + "=" + v
		}
	}
	return "{" + out + "}"
}
