package plots

import (
	"sort"
	"strconv"
	"strings"
)

// Cell-name keys the plots know by name. Any other key=value part of a cell
// name is carried along as one more dimension.
const (
	keyPath    = "path"
	keyFormat  = "format"
	keyBatch   = "batch"
	keyBrokers = "brokers"
	keyAlloc   = "alloc"
	keyCRC     = "crc"
	keyAA      = "aa"
)

// keyOrder is the cell-name order of the known keys; unknown keys sort after
// them, alphabetically.
var keyOrder = map[string]int{
	keyPath: 0, keyFormat: 1, keyBatch: 2, keyBrokers: 3, keyAlloc: 4, keyCRC: 5, "cluster": 6,
}

// pathOrder ranks the consume paths from least to most native.
var pathOrder = map[string]int{"rowwise": 0, "shallow": 1, "fast": 2, "franz": 3}

// sortKeys orders dimension keys as they appear in a cell name.
func sortKeys(keys []string) {
	sort.Slice(keys, func(i, j int) bool {
		oi, iok := keyOrder[keys[i]]
		oj, jok := keyOrder[keys[j]]
		switch {
		case iok && jok:
			return oi < oj
		case iok != jok:
			return iok
		}
		return keys[i] < keys[j]
	})
}

// lessValue orders the values of one dimension: numbers numerically, paths
// from least to most native, anything else alphabetically.
func lessValue(key, a, b string) bool {
	fa, errA := strconv.ParseFloat(a, 64)
	fb, errB := strconv.ParseFloat(b, 64)
	if errA == nil && errB == nil {
		return fa < fb
	}
	if key == keyPath {
		ra, aok := pathOrder[a]
		rb, bok := pathOrder[b]
		switch {
		case aok && bok:
			return ra < rb
		case aok != bok:
			return aok
		}
	}
	return a < b
}

// sortValues orders the values of one dimension in place.
func sortValues(key string, vals []string) {
	sort.Slice(vals, func(i, j int) bool { return lessValue(key, vals[i], vals[j]) })
}

// joinDims renders the given keys of dims as "k=v k=v" in cell-name order,
// skipping keys dims lacks.
func joinDims(dims map[string]string, sep string) string {
	keys := make([]string, 0, len(dims))
	for k := range dims {
		keys = append(keys, k)
	}
	sortKeys(keys)
	parts := make([]string, 0, len(keys))
	for _, k := range keys {
		parts = append(parts, k+"="+dims[k])
	}
	return strings.Join(parts, sep)
}
