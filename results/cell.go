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
