package clusters

import (
	"sort"
	"strings"

	"github.com/fastpathlab/fplab/cell"
)

// Cluster is a Kafka cluster to consume from: a bootstrap list and
// librdkafka-style client properties (security.protocol, sasl.mechanism,
// sasl.username, sasl.password, ssl.ca.location, ...). Props may hold
// secrets: print a Cluster with %v or %s (String), or print Redacted(),
// never Props itself.
type Cluster struct {
	Bootstrap []string
	Props     map[string]string
}

// Redacted returns a copy of Props with the values of secret keys replaced
// by "REDACTED".
func (c Cluster) Redacted() map[string]string {
	out := make(map[string]string, len(c.Props))
	for k, v := range c.Props {
		if cell.IsSecretKey(k) {
			v = cell.Redacted
		}
		out[k] = v
	}
	return out
}

// String renders the cluster on one line with secrets redacted, e.g.
// "bootstrap=h1:9092,h2:9092 props={sasl.password=REDACTED security.protocol=SASL_SSL}".
func (c Cluster) String() string {
	red := c.Redacted()
	keys := make([]string, 0, len(red))
	for k := range red {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	b.WriteString("bootstrap=")
	b.WriteString(strings.Join(c.Bootstrap, ","))
	b.WriteString(" props={")
	for i, k := range keys {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(k)
		b.WriteByte('=')
		b.WriteString(red[k])
	}
	b.WriteByte('}')
	return b.String()
}

// GoString keeps %#v redacted too.
func (c Cluster) GoString() string { return "clusters.Cluster{" + c.String() + "}" }
