package rung

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/fastpathlab/fplab/cell"
	"github.com/fastpathlab/fplab/clusters"
	"github.com/fastpathlab/fplab/ladder/rungargs"
	"github.com/fastpathlab/fplab/results"
	"github.com/fastpathlab/fplab/workloads"
)

// What a reference path (jvmref's path flink, Flink's KafkaSource as the
// oracle) needs of the rung to run a start-up case (startcase.go) as the
// Go paths run it (runCase): the checked topic and its layout's bounds for
// PlanStart, the Go paths' judgement of a surfaced failure, and their
// check that a read without a group left none.

// referenceMarks are, per start-up failure case, words of the Java
// client's own wording of the failure, accepted beside surfaceMarks':
// Flink's builder names the property (group.id), kafka-clients'
// NoOffsetForPartitionException says "Undefined offset with no reset
// policy for partitions: [...]".
var referenceMarks = map[string][]string{
	cell.CaseCommittedNoGroup:    {"group.id"},
	cell.CaseCommittedAbsentNone: {"no reset policy"},
}

// StartRefTopic checks a counting reference cell of a start-up case
// before it reads, as CheckCountedTopic checks a plain one: the broker
// count, a clean topic (no transactions, no tombstones, so that the
// records from a start to the stop are exactly stop-start), holding the
// corpus as its layout places it (case deleted's topic, which the
// committed-below cases read, from the layout's DeletedBelow), and the
// stored codec. It returns the cluster and the layout's bounds, what
// PlanStart takes.
func StartRefTopic(ctx context.Context, c *rungargs.Cell) (cl clusters.Cluster, start, stop []int64, err error) {
	if !cell.StartCase(c.Case) {
		return cl, nil, nil, fmt.Errorf("case=%s is not a start-up case", c.Case)
	}
	if c.Txn || c.Nulls > 0 {
		return cl, nil, nil, fmt.Errorf("path=%s counts records, so case=%s needs a clean topic (no transactions, no tombstones), but cell %s has txn=%v nulls=%g",
			c.Path, c.Case, c.Name(), c.Txn, c.Nulls)
	}
	if cl, err = checkBrokers(ctx, c); err != nil {
		return cl, nil, nil, err
	}
	l, err := workloads.NewLayout(c.Seed, c.Records, c.Partitions, workloads.ShapeOf(c.Cell))
	if err != nil {
		return cl, nil, nil, err
	}
	var from []int64
	if cell.TopicCase(c.Case) == cell.CaseDeleted {
		from = l.DeletedBelow()
	}
	holds, err := clusters.TopicHoldsFrom(ctx, cl, c.Topic, l, from)
	if err != nil {
		return cl, nil, nil, err
	}
	if !holds {
		return cl, nil, nil, fmt.Errorf("topic %q does not hold the %d-record corpus in %d partitions as its layout places it (log starts %v)",
			c.Topic, c.Records, c.Partitions, from)
	}
	if err := checkCompression(ctx, cl, c); err != nil {
		return cl, nil, nil, err
	}
	start, stop = l.Bounds()
	return cl, start, stop, nil
}

// SurfacedRef judges a reference path's failure case as surfaced judges a
// Go path's: the read must have failed, before the cell's deadline, with
// one line naming the failure set up, in the Go paths' words
// (surfaceMarks) or the Java client's (referenceMarks); the result is the
// Go paths' (the line under results.ConfigSurfaced, fail-ms).
func SurfacedRef(c *rungargs.Cell, b Build, client string, err error, took time.Duration, w io.Writer) error {
	if err == nil {
		return fmt.Errorf("case=%s: the read finished without an error; it must fail", c.Case)
	}
	line := err.Error()
	switch {
	case errors.Is(err, context.DeadlineExceeded) || took >= c.Timeout:
		return fmt.Errorf("case=%s: no failure surfaced within the cell's timeout %v (last error: %s)", c.Case, c.Timeout, firstLine(line))
	case strings.Contains(line, "\n"):
		return fmt.Errorf("case=%s: the failure is not one line: %q", c.Case, line)
	}
	marks := slices.Concat(surfaceMarks[c.Case], referenceMarks[c.Case])
	low := strings.ToLower(line)
	if slices.ContainsFunc(marks, func(m string) bool { return strings.Contains(low, m) }) {
		return WriteResult(w, c, b, client, 0, []results.Metric{{Value: ms(took), Unit: results.UnitFailMs}},
			[2]string{results.ConfigSurfaced, line})
	}
	return fmt.Errorf("case=%s: failed, but not for the reason set up (want one of %q): %s", c.Case, marks, line)
}

// NoGroupLeft is the Go paths' check after a start-up case read without a
// group (noGroupLeft): the path left no group on the broker.
func NoGroupLeft(ctx context.Context, c *rungargs.Cell, cl clusters.Cluster) error {
	return noGroupLeft(ctx, c, cl)
}
