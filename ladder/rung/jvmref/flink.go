package jvmref

import (
	"context"
	"io"
	"runtime"
	"strconv"

	"github.com/fastpathlab/fplab/cell"
	"github.com/fastpathlab/fplab/ladder/rung"
	"github.com/fastpathlab/fplab/ladder/rungargs"
)

// FlinkWarmupRuns is how many bounded reads of the topic path=flink-warm
// runs on its JVM's MiniCluster before the measured one. Three: on 1M
// json records (3 embedded brokers, this lab's 2-core host) the first
// read took 2.9-7.1 s, the second 1.3-2.3 s, the third to fifth 0.77-1.1
// s each, so the third is the first at the plateau (docs/references.md,
// "Cold and warm Flink"). The JIT's thresholds count invocations, so a
// topic of fewer records needs more reads; the cell's java-warmup line
// gives what the warm-up read.
const FlinkWarmupRuns = 3

// path=flink: fplab.FlinkBounded, a cold bounded job (a JVM and a
// MiniCluster started for it) decoding the cell's format, with Flink's
// own checkpoints at the cell's interval when it has one; path=flink-warm:
// the same job as the FlinkWarmupRuns+1-th job of one JVM and MiniCluster,
// the earlier ones its warm-up. Both at the cell's parallelism (Par).
// Versions as java/pom.xml pins them. A start-up case runs the cold job as
// its oracle (flinkstart.go).
func init() {
	cold := refPath{
		program: Flink,
		client:  "Flink 2.2.1 KafkaSource (flink-connector-kafka 5.0.0-2.2)",
		set: func(c *rungargs.Cell, o *Opts) {
			o.Format, o.Checkpoint, o.Parallelism = c.Format, c.Ckpt, Par(c.ParN(), c.Partitions)
		},
	}
	rung.Register(cell.PathFlink, func(ctx context.Context, c *rungargs.Cell, b rung.Build, w io.Writer) error {
		if cell.StartCase(c.Case) {
			return cold.runStart(ctx, c, b, w)
		}
		return cold.run(ctx, c, b, w)
	})
	warm := refPath{
		program: Flink,
		client:  cold.client + ", warm: " + strconv.Itoa(FlinkWarmupRuns) + " warm-up reads on the same MiniCluster",
		set: func(c *rungargs.Cell, o *Opts) {
			o.Format, o.Parallelism, o.WarmupRuns = c.Format, Par(c.ParN(), c.Partitions), FlinkWarmupRuns
		},
	}
	rung.Register(cell.PathFlinkWarm, warm.run)
}

// Par is the parallelism a Flink cell runs at: par, or for auto (0) the
// partition count capped at the cores this process may run on (its CPU
// affinity, which the ladder's pinning sets and the JVM inherits), at
// least 1. Each source subtask is a task thread and a Kafka fetcher
// thread; parallelism = partitions, Flink's usual sizing, puts six of
// them on a 2-core host beside the brokers.
func Par(par, partitions int) int {
	if par > 0 {
		return par
	}
	return max(1, min(partitions, runtime.NumCPU()))
}
