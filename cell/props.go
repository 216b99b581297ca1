package cell

import (
	"fmt"
	"net"
	"strings"
)

// ParseProps turns repeated `--cluster-prop k=v` values into a map. Keys
// are trimmed and must be non-empty and unique; values are kept as given
// (they may contain '='). Errors never quote a secret value.
func ParseProps(kvs []string) (map[string]string, error) {
	props := make(map[string]string, len(kvs))
	for i, kv := range kvs {
		k, v, ok := strings.Cut(kv, "=")
		k = strings.TrimSpace(k)
		switch {
		case !ok:
			shown := fmt.Sprintf("%q", kv)
			if IsSecretKey(kv) {
				shown = "(" + Redacted + ")"
			}
			return nil, fmt.Errorf("cluster prop #%d %s is not key=value", i+1, shown)
		case k == "":
			return nil, fmt.Errorf("cluster prop #%d has an empty key", i+1)
		}
		if _, dup := props[k]; dup {
			return nil, fmt.Errorf("cluster prop %q given twice", k)
		}
		props[k] = v
	}
	return props, nil
}

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
			return nil, fmt.Errorf("bootstrap entry %q is not host:port", a)
		}
		addrs = append(addrs, a)
	}
	if len(addrs) == 0 {
		return nil, fmt.Errorf("empty bootstrap list")
	}
	return addrs, nil
}
