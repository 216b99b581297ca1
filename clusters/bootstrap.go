package clusters

import (
	"strings"

	"github.com/fastpathlab/fplab/cell"
)

// parseBootstrapLine reads the line RunEmbedded prints.
func parseBootstrapLine(line string) ([]string, bool, error) {
	rest, ok := strings.CutPrefix(strings.TrimRight(line, "\r\n"), bootstrapPrefix)
	if !ok {
		return nil, false, nil
	}
	addrs, err := cell.ParseBootstrap(rest)
	return addrs, true, err
}
