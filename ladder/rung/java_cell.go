package rung

import (
	"fmt"

	"github.com/fastpathlab/fplab/source"
)

// PathJava is the Java reference rung: Kafka's own Java consumer measured
// by its ConsumerPerformance tool in a child JVM. It is consume-only: the
// records are counted, not decoded into Arrow or checked against the
// corpus (docs/kafka.md).
const PathJava source.Path = "java"

// ParsePath accepts the source paths plus java; cmd/fplab parses --path
// with it.
func ParsePath(s string) (source.Path, error) {
	if s == string(PathJava) {
		return PathJava, nil
	}
	p, err := source.ParsePath(s)
	if err != nil {
		return "", fmt.Errorf("rung: unknown path %q (want rowwise, shallow, fast, franz or java)", s)
	}
	return p, nil
}

// validateKafka checks what the java path and broker kills can do.
func (c *Cell) validateKafka() error {
	switch {
	case c.Path == PathJava && c.CkptInterval > 0:
		return fmt.Errorf("rung: path=java cannot checkpoint (it only counts records)")
	case c.Path == PathJava && c.FaultSocket != "":
		return fmt.Errorf("rung: path=java cannot take a mid-cell broker kill (use a Go path)")
	case c.Path == PathJava && len(c.Props) > 0:
		return fmt.Errorf("rung: path=java takes no cluster props (they are librdkafka names)")
	case c.FaultSocket != "" && c.CkptInterval > 0:
		return fmt.Errorf("rung: a broker kill cell cannot also checkpoint")
	}
	return nil
}
