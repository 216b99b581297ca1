package clusters

import (
	"fmt"
	"net"
	"strings"
)

// ParseBootstrap splits a comma-separated bootstrap list ("h1:p1,h2:p2")
// and checks that every entry is a host:port. Blank entries are ignored.
func ParseBootstrap(list string) ([]string, error) {
	var addrs []string
	for _, a := range strings.Split(list, ",") {
		a = strings.TrimSpace(a)
		if a == "" {
			continue
		}
		host, port, err := net.SplitHostPort(a)
		if err != nil || host == "" || port == "" {
			return nil, fmt.Errorf("clusters: bootstrap entry %q is not host:port", a)
		}
		addrs = append(addrs, a)
	}
	if len(addrs) == 0 {
		return nil, fmt.Errorf("clusters: empty bootstrap list")
	}
	return addrs, nil
}

// parseBootstrapLine reads the line RunEmbedded prints.
func parseBootstrapLine(line string) ([]string, bool, error) {
	rest, ok := strings.CutPrefix(strings.TrimRight(line, "\r\n"), bootstrapPrefix)
	if !ok {
		return nil, false, nil
	}
	addrs, err := ParseBootstrap(rest)
	return addrs, true, err
}
