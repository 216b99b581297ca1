package results

import (
	"sort"

	"github.com/fastpathlab/fplab/cell"
)

// kneeLine is one line a knee is found on: the swept cells of one format,
// path and setting (KneeSetting: every dimension but those and the
// batch), one cell per batch size and repetition set.
type kneeLine struct {
	format, path, setting string
	cells                 []*CellSamples
}

// kneeLines groups the swept cells keep accepts into lines, ordered by
// format, path (least to most native) and setting: the order Knee and
// LatencyKnee report in.
func kneeLines(swept []*CellSamples, keep func(*CellSamples) bool) []*kneeLine {
	byID := make(map[string]*kneeLine)
	var lines []*kneeLine
	for _, c := range swept {
		if !keep(c) {
			continue
		}
		l := &kneeLine{format: c.Dims[cell.Format], path: c.Dims[cell.Path], setting: KneeSetting(c.Dims)}
		id := l.format + "\x00" + l.path + "\x00" + l.setting
		if have := byID[id]; have != nil {
			l = have
		} else {
			byID[id] = l
			lines = append(lines, l)
		}
		l.cells = append(l.cells, c)
	}
	sort.SliceStable(lines, func(i, j int) bool {
		a, b := lines[i], lines[j]
		if a.format != b.format {
			return a.format < b.format
		}
		if a.path != b.path {
			return cell.Less(cell.Path, a.path, b.path)
		}
		return a.setting < b.setting
	})
	return lines
}
