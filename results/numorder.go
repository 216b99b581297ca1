package results

import (
	"sync"

	"golang.org/x/perf/benchfmt"
	"golang.org/x/perf/benchproc"
)

// numProjection projects a one-key benchmark name onto its value in
// benchproc's "num" order: numbers (SI and IEC prefixes included)
// numerically and first, the rest alphabetically. It is the order
// benchstat's "@num" projections give, so tables order an axis's values
// as a benchstat user expects.
var numProjection = sync.OnceValue(func() *benchproc.Projection {
	var pp benchproc.ProjectionParser
	proj, err := pp.Parse("/v@num", nil)
	if err != nil {
		panic("results: the constant projection /v@num: " + err.Error())
	}
	return proj
})

// numSorted returns distinct values in benchproc's "num" order, sorted by
// benchproc itself (one projected name per distinct value, not per row).
// "" stands for a cell without the axis.
func numSorted(vals []string) []string {
	proj := numProjection()
	keys := make([]benchproc.Key, len(vals))
	value := make(map[benchproc.Key]string, len(vals))
	for i, v := range vals {
		name := BenchName + "/w=1"
		if v != "" {
			name = BenchName + "/v=" + v
		}
		keys[i] = proj.Project(&benchfmt.Result{Name: benchfmt.Name(name), Iters: 1})
		value[keys[i]] = v
	}
	benchproc.SortKeys(keys)
	out := make([]string, len(keys))
	for i, k := range keys {
		out[i] = value[k]
	}
	return out
}
