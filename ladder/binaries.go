package ladder

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/fastpathlab/fplab/cell"
)

// binaryName is the child binary of each allocator, and makeTarget the make
// target that builds it.
func binaryName(alloc string) string {
	if alloc == "go" {
		return "fplab"
	}
	return "fplab-" + alloc
}

func makeTarget(alloc string) string {
	if alloc == "go" {
		return "build"
	}
	return "build-" + alloc
}

// resolveBinaries maps every allocator the cells use (and "go" for the
// broker when a cluster is embedded) to an executable in dir, or fails
// naming the missing file and the make target that builds it.
func resolveBinaries(dir string, cells []cell.Cell) (map[string]string, error) {
	need := []string{}
	seen := map[string]bool{}
	add := func(a string) {
		if !seen[a] {
			seen[a] = true
			need = append(need, a)
		}
	}
	for _, c := range cells {
		if c.Cluster == cell.ClusterEmbedded {
			add("go")
		}
		add(c.Alloc)
	}
	out := map[string]string{}
	for _, a := range need {
		p := filepath.Join(dir, binaryName(a))
		st, err := os.Stat(p)
		if err != nil || st.IsDir() || st.Mode()&0o111 == 0 {
			return nil, fmt.Errorf("alloc %s: binary %s not found or not executable (run \"make %s\")", a, p, makeTarget(a))
		}
		out[a] = p
	}
	return out, nil
}
