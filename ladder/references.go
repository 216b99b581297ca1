package ladder

import (
	"fmt"

	"github.com/fastpathlab/fplab/cell"
	"github.com/fastpathlab/fplab/clusters/kafka"
)

// checkReferences refuses, before anything starts, a schedule whose JVM
// reference cells could not run on this machine: every JVM path needs a
// java binary and the Java references' jar (`make java-refs`; java-perf
// runs Kafka's tool through the jar's fplab.PerfWrap, which measures the
// JVM's memory), java-perf the Kafka distribution too (`make kafka-dist`). Without the check every such
// cell would fail one by one after the brokers and corpora were set up.
func checkReferences(cells []cell.Cell) error {
	var jar, dist, jvm bool
	for _, c := range cells {
		switch c.Path {
		case cell.PathJava, cell.PathFlink, cell.PathFlinkWarm:
			jar, jvm = true, true
		case cell.PathJavaPerf:
			jar, dist, jvm = true, true, true
		}
	}
	if jvm {
		if _, err := kafka.FindJava(); err != nil {
			return fmt.Errorf("the spec has JVM reference cells: %w", err)
		}
	}
	if jar {
		if err := kafka.CheckRefJar(kafka.RefJar()); err != nil {
			return fmt.Errorf("the spec has JVM reference cells (java, flink, flink-warm, java-perf): %w", err)
		}
	}
	if dist {
		if err := kafka.CheckDist(kafka.DistDir()); err != nil {
			return fmt.Errorf("the spec has path java-perf cells: %w", err)
		}
	}
	return nil
}
