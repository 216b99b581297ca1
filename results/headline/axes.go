package headline

import (
	"slices"

	"github.com/fastpathlab/fplab/cell"
	"github.com/fastpathlab/fplab/results"
)

// valueOf is a cell's value under key as its name writes it: the part's
// value; the axis's cell.Default when the name leaves an optional axis
// out; off for a name-only part (ckpt, prof, ...) the name leaves out; ""
// for a key the lab does not know, or an axis every name states, that the
// name lacks.
func valueOf(dims map[string]string, key string) string {
	if v, ok := dims[key]; ok {
		return v
	}
	if d := cell.Default(key); d != "" {
		return d
	}
	if nameOnly(key) {
		return cell.Off
	}
	return ""
}

// nameOnly reports whether key is a part a name writes only when it is
// set (ckpt, wake, ..., fault): a setting of the cell, no axis of the
// matrix, and off when absent. aa is no setting (it names the A/A side).
func nameOnly(key string) bool {
	_, known := cell.KeyRank(key)
	return known && key != cell.AA && !slices.Contains(cell.Axes(), key)
}

// axisValues are the values of key in axes, and when axes has no entry
// for it, the one value every cell then has (its Default, or off).
func axisValues(axes map[string][]string, key string) []string {
	if vs, ok := axes[key]; ok {
		return vs
	}
	if v := valueOf(nil, key); v != "" {
		return []string{v}
	}
	return nil
}

// RunAxes is the axes map of a run, as Check takes a spec's: for every key
// some cell of x writes (aa aside), the values its cells take, as valueOf
// reads them (so a run with ckpt=1s cells and cells without has ckpt
// [1s, off]), in the vocabulary's order. Pass the Analysis's Sweep.
func RunAxes(x *results.Index) map[string][]string {
	var dims []map[string]string
	for _, c := range x.Cells() {
		dims = append(dims, c.Dims)
	}
	return axesOf(dims)
}

// NameAxes is RunAxes of cell names: a spec's cells before any run (the
// ladder holds a spec's headline against the cells it expands to). The
// A/A copies' aa part is left out, as RunAxes leaves it.
func NameAxes(names []string) map[string][]string {
	dims := make([]map[string]string, 0, len(names))
	for _, n := range names {
		dims = append(dims, cell.Dims(n))
	}
	return axesOf(dims)
}

// axesOf is the axes map of cells given by their parts.
func axesOf(cells []map[string]string) map[string][]string {
	axes := map[string][]string{}
	var keys []string
	for _, d := range cells {
		for k := range d {
			if _, ok := axes[k]; !ok && k != cell.AA {
				axes[k] = nil
				keys = append(keys, k)
			}
		}
	}
	for _, k := range keys {
		for _, d := range cells {
			if v := valueOf(d, k); !slices.Contains(axes[k], v) {
				axes[k] = append(axes[k], v)
			}
		}
		sortValues(k, axes[k])
	}
	return axes
}

// less orders two values of key: in the vocabulary's order where it lists
// both (formats as cell.Formats: json, avro, protobuf, ...), else as
// cell.Less (paths least to most native, numbers numerically, durations
// by length).
func less(key, a, b string) bool {
	vs := cell.Values(key)
	if ia, ib := slices.Index(vs, a), slices.Index(vs, b); ia >= 0 && ib >= 0 {
		return ia < ib
	}
	return cell.Less(key, a, b)
}

func sortValues(key string, vs []string) {
	slices.SortStableFunc(vs, func(a, b string) int {
		switch {
		case less(key, a, b):
			return -1
		case less(key, b, a):
			return 1
		}
		return 0
	})
}

// keyOrder orders keys as names write them, unknown keys last.
func keyOrder(a, b string) int {
	ra, okA := cell.KeyRank(a)
	rb, okB := cell.KeyRank(b)
	switch {
	case okA && okB:
		return ra - rb
	case okA != okB:
		if okA {
			return -1
		}
		return 1
	}
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
