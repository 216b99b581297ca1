package plots

import (
	"sort"
	"strings"

	"github.com/fastpathlab/fplab/cell"
	"github.com/fastpathlab/fplab/results"
)

// noValue labels, on an axis figure, the cells whose name lacks that axis's
// part and whose axis has no default: the ladder writes ckpt= only for
// cells with checkpoints on, so "(none)" is the checkpoint-off column of a
// checkpoint sweep.
const noValue = "(none)"

// axisValue is cell c's value on key: its name's, else the axis's
// cell.Default (an optional axis the name leaves out, e.g. size=100), else
// "".
func axisValue(c *cellData, key string) string {
	if v, ok := c.dims[key]; ok {
		return v
	}
	return cell.Default(key)
}

func valueLabel(v string) string {
	if v == "" {
		return noValue
	}
	return v
}

// axisValues lists the distinct values of key among cells, a cell without
// the key counting as "", in value order.
func axisValues(cells []*cellData, key string) []string {
	seen := make(map[string]bool)
	var out []string
	for _, c := range cells {
		if v := axisValue(c, key); !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	sortValues(key, out)
	return out
}

// runAxes returns the axes of a run: the keys that take two or more values
// among its cells (failed cells included, since they were run), in
// cell-name order. These are the axes that get a figure each.
func runAxes(cells []*cellData) []string {
	keys := make(map[string]bool)
	for _, c := range cells {
		for k := range c.dims {
			keys[k] = true
		}
	}
	var out []string
	for k := range keys {
		if len(axisValues(cells, k)) >= 2 {
			out = append(out, k)
		}
	}
	results.SortKeys(out)
	return out
}

// heldSetting is the part of the cell names every cell shares: the keys
// with one value in the whole run, which captions name once instead of
// every label repeating them.
func heldSetting(cells []*cellData) map[string]string {
	held := make(map[string]string)
	if len(cells) == 0 {
		return held
	}
	for k, v := range cells[0].dims {
		same := true
		for _, c := range cells[1:] {
			if w, ok := c.dims[k]; !ok || w != v {
				same = false
				break
			}
		}
		if same {
			held[k] = v
		}
	}
	return held
}

// shortName labels a cell by its values on keys ("path=fast format=json"),
// leaving out what every cell shares; a run of one cell, where nothing
// varies, is labelled with its whole name.
func shortName(c *cellData, keys []string) string {
	var parts []string
	for _, k := range keys {
		if v, ok := c.dims[k]; ok {
			parts = append(parts, k+"="+v)
		}
	}
	if len(parts) == 0 {
		return results.Setting(c.dims)
	}
	return strings.Join(parts, " ")
}

// cellLess orders cells by their names part by part in cell-name key
// order, each value as cell.Less orders it (batch=1024 before
// batch=65536, rowwise before fast), so rows read like the spec.
func cellLess(a, b *cellData) bool {
	keys := make([]string, 0, len(a.dims)+len(b.dims))
	seen := make(map[string]bool)
	for _, d := range []map[string]string{a.dims, b.dims} {
		for k := range d {
			if !seen[k] {
				seen[k] = true
				keys = append(keys, k)
			}
		}
	}
	results.SortKeys(keys)
	for _, k := range keys {
		va, vb := a.dims[k], b.dims[k]
		if va == vb {
			continue
		}
		return cell.Less(k, va, vb)
	}
	return a.name < b.name
}

// axisTitle is the axis label of a key's values.
func axisTitle(key string) string {
	switch key {
	case cell.Path:
		return "consume path"
	case cell.Batch:
		return "batch size (records)"
	case cell.Brokers:
		return "brokers (count)"
	case cell.Alloc:
		return "allocator"
	case cell.CRC:
		return "CRC check (check.crcs)"
	case results.RecordsKey:
		return "records per path (corpus length)"
	}
	return key
}

// noIntervalEntry is the legend entry of the hollow marker, present when
// some stat of the figure has no interval.
func noIntervalEntry(stats []Stat) []LegendEntry {
	for _, st := range stats {
		if st.N > 0 && !st.HasInterval() {
			return []LegendEntry{{Label: "no interval (< 6 reps)", Kind: LegendNoInterval, Style: 6}}
		}
	}
	return nil
}

// intervalCaption says what the markers and error bars of an interval
// figure of rec/s are, for the repetition counts behind stats.
func intervalCaption(what string, stats []Stat) string {
	return unitIntervalCaption(what, results.UnitRecPerSec, stats)
}

// unitIntervalCaption is intervalCaption for a figure of unit.
func unitIntervalCaption(what, unit string, stats []Stat) string {
	s := what + ": median " + unit + " of " + repCount(stats) + "; error bars: 95% interval of the median, the ± of the tables."
	for _, st := range stats {
		if st.N > 0 && !st.HasInterval() {
			return s + " Hollow: too few repetitions for an interval (fewer than 6)."
		}
	}
	return s
}

// sortByKeys orders cells by their values on keys, in the given key order,
// each as cell.Less orders it.
func sortByKeys(cells []*cellData, keys []string) {
	sort.SliceStable(cells, func(i, j int) bool {
		for _, k := range keys {
			a, b := axisValue(cells[i], k), axisValue(cells[j], k)
			if a != b {
				return cell.Less(k, a, b)
			}
		}
		return false
	})
}
