package results

import (
	"strings"

	"github.com/fastpathlab/fplab/cell"
)

// KneePair sets a line's checkpoint knee (Knee) beside a latency knee
// (LatencyKnee) of the same format, path and shared setting: a spec of
// mode [bounded, live] with checkpoints sweeps the batch in both kinds of
// cell, and each budget then picks a batch for the same configuration.
type KneePair struct {
	Checkpoint KneePoint
	Latency    LatencyKneePoint
	// Shared is the setting both lines hold, the part of each line's
	// Setting that names neither the checkpoint interval nor the live
	// axes (mode, rate, linger), e.g. "brokers=1 alloc=go crc=off".
	Shared string
}

// Binding is the batch both budgets allow, the smaller of the two knees,
// and which budget sets it: "checkpoint", "latency", or "both" when they
// pick the same batch.
func (p KneePair) Binding() (batch int, which string) {
	c, l := p.Checkpoint.Batch, p.Latency.Batch
	switch {
	case c < l:
		return c, "checkpoint"
	case l < c:
		return l, "latency"
	}
	return c, "both"
}

// KneePairs pairs every found checkpoint knee with every found latency
// knee of its format, path and shared setting (one latency knee per rate
// and linger the run swept), in Knee's order, then LatencyKnee's. Lines where either budget found no batch pair with
// nothing.
func KneePairs(ckpt []KneePoint, lat []LatencyKneePoint) []KneePair {
	var out []KneePair
	for _, c := range ckpt {
		if !c.Found {
			continue
		}
		shared := sharedSetting(c.Setting)
		for _, l := range lat {
			if l.Found && l.Format == c.Format && l.Path == c.Path && sharedSetting(l.Setting) == shared {
				out = append(out, KneePair{Checkpoint: c, Latency: l, Shared: shared})
			}
		}
	}
	return out
}

// sharedSetting drops from a knee's Setting the parts only one kind of
// cell has: the checkpoint interval (bounded cells) and the mode and live
// axes (live cells). Setting's parts are "key=value" separated by single
// spaces, and no cell-name value holds a space.
func sharedSetting(setting string) string {
	drop := map[string]bool{cell.Ckpt: true, cell.Mode: true}
	for _, k := range cell.LiveAxes() {
		drop[k] = true
	}
	var keep []string
	for _, part := range strings.Fields(setting) {
		k, _, _ := strings.Cut(part, "=")
		if !drop[k] {
			keep = append(keep, part)
		}
	}
	return strings.Join(keep, " ")
}
