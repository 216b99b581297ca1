package jvmref

import (
	"github.com/fastpathlab/fplab/cell"
	"github.com/fastpathlab/fplab/clusters/kafka"
	"github.com/fastpathlab/fplab/ladder/rung"
	"github.com/fastpathlab/fplab/ladder/rungargs"
)

// path=java: fplab.SteadyConsumer, kafka-clients reading the corpus after
// one full warm-up pass (the program's own default); versions as
// java/pom.xml pins them.
func init() {
	rung.Register(cell.PathJava, refPath{
		program: Steady,
		client:  "kafka-clients " + kafka.Version + " (fplab SteadyConsumer)",
		set:     func(c *rungargs.Cell, o *Opts) { o.WarmupRecords = c.Records },
	}.run)
}
