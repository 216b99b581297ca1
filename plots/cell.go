package plots

import (
	"sort"

	"github.com/fastpathlab/fplab/cell"
)

// The cell vocabulary the figures use (the keys cell.Path, cell.Batch, ...,
// the path order) is package cell's. Keys are ordered and a held
// setting rendered by results.SortKeys and results.Setting, the rule
// results.Knee names a knee's line by, so the trade-off figure finds the
// knee of the setting it draws by comparing the two strings.

// sortValues orders the values of one dimension in place (cell.Less:
// numbers numerically, paths from least to most native, anything else
// alphabetically).
func sortValues(key string, vals []string) {
	sort.Slice(vals, func(i, j int) bool { return cell.Less(key, vals[i], vals[j]) })
}
