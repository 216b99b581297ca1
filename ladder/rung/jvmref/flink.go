package jvmref

import (
	"context"
	"io"

	"github.com/fastpathlab/fplab/cell"
	"github.com/fastpathlab/fplab/ladder/rung"
	"github.com/fastpathlab/fplab/ladder/rungargs"
)

// path=flink: fplab.FlinkBounded, a cold bounded job at parallelism =
// partitions (FlinkBounded's default) decoding the cell's format, with
// Flink's own checkpoints at the cell's interval when it has one; versions
// as java/pom.xml pins them. A start-up case runs the job as its oracle
// (flinkstart.go).
func init() {
	p := refPath{
		program: Flink,
		client:  "Flink 2.2.1 KafkaSource (flink-connector-kafka 5.0.0-2.2)",
		set:     func(c *rungargs.Cell, o *Opts) { o.Format, o.Checkpoint = c.Format, c.Ckpt },
	}
	rung.Register(cell.PathFlink, func(ctx context.Context, c *rungargs.Cell, b rung.Build, w io.Writer) error {
		if cell.StartCase(c.Case) {
			return p.runStart(ctx, c, b, w)
		}
		return p.run(ctx, c, b, w)
	})
}
