package consume

import (
	"fmt"

	"github.com/fastpathlab/fplab/cell"
)

// Path names a consume path. Its values are the lab's path names from
// cell, the one vocabulary a cell name, a spec and a table share.
type Path string

// The consume paths package source implements, from least to most native,
// plus the franz-go peer. The references (cell.CountingPath: java,
// java-perf, flink, ceiling) have no Path: they count records, build no
// Arrow batch and are not Readers.
const (
	PathRowwise Path = cell.PathRowwise
	PathShallow Path = cell.PathShallow
	PathFast    Path = cell.PathFast
	PathFranz   Path = cell.PathFranz
)

// Paths lists every path package source implements, in cell.Paths' order.
func Paths() []Path { return []Path{PathRowwise, PathShallow, PathFast, PathFranz} }

// ParsePath checks a path name.
func ParsePath(s string) (Path, error) {
	for _, p := range Paths() {
		if string(p) == s {
			return p, nil
		}
	}
	return "", fmt.Errorf("unknown path %q (want rowwise, shallow, fast or franz)", s)
}
