package results

import (
	"fmt"
	"strings"
)

// Part is one key=value element of a cell name.
type Part struct {
	Key, Value string
}

// ParseCell splits a cell name ("path=fast/format=json/batch=8192") into its
// key=value parts, in order. Keys must be unique and usable as benchproc
// sub-name keys.
func ParseCell(cell string) ([]Part, error) {
	if err := checkCellName(cell); err != nil {
		return nil, err
	}
	var parts []Part
	seen := map[string]bool{}
	for _, p := range strings.Split(cell, "/") {
		k, v, ok := strings.Cut(p, "=")
		if !ok || k == "" {
			return nil, fmt.Errorf("results: cell %s: part %q is not key=value", cell, p)
		}
		if strings.ContainsAny(k, `():@,"*`) || strings.HasPrefix(k, "-") {
			return nil, fmt.Errorf("results: cell %s: key %q has a character reserved by benchproc", cell, k)
		}
		if seen[k] {
			return nil, fmt.Errorf("results: cell %s: key %q appears twice", cell, k)
		}
		seen[k] = true
		parts = append(parts, Part{k, v})
	}
	return parts, nil
}

// CellDims splits a cell name into key -> value. Unlike ParseCell it
// rejects nothing: a part without '=' is kept under its own text with an
// empty value, so plots and reports can show any name they are given.
func CellDims(cell string) map[string]string {
	dims := make(map[string]string)
	for _, p := range strings.Split(cell, "/") {
		if p == "" {
			continue
		}
		k, v, _ := strings.Cut(p, "=")
		dims[k] = v
	}
	return dims
}
