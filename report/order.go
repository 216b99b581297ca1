package report

import (
	"encoding/json"
	"strconv"

	"github.com/fastpathlab/fplab/cell"
	"github.com/fastpathlab/fplab/results"
)

// specOrder reads the axis value lists from the manifest's spec so the
// tables list values as the spec did: its first value is each table's
// baseline column. Anything unreadable is ignored (the tables then use
// results' default order).
func specOrder(spec json.RawMessage) map[string][]string {
	var fields map[string]json.RawMessage
	spec = results.SpecBody(spec)
	if len(spec) == 0 || json.Unmarshal(spec, &fields) != nil {
		return nil
	}
	order := make(map[string][]string)
	for _, axis := range cell.Axes() {
		raw, ok := fields[axis]
		if !ok {
			continue
		}
		var strs []string
		if json.Unmarshal(raw, &strs) == nil {
			order[axis] = strs
			continue
		}
		var nums []int64
		if json.Unmarshal(raw, &nums) == nil {
			strs = strs[:0] // a failed decode may have filled it
			for _, v := range nums {
				strs = append(strs, strconv.FormatInt(v, 10))
			}
			order[axis] = strs
		}
	}
	return order
}
