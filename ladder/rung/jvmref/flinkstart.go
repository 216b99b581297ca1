package jvmref

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/fastpathlab/fplab/cell"
	"github.com/fastpathlab/fplab/ladder/rung"
	"github.com/fastpathlab/fplab/ladder/rungargs"
	"github.com/fastpathlab/fplab/results"
	"github.com/fastpathlab/fplab/source"
)

// Path flink as the oracle of the start-up cases (issue 26,
// docs/parity.md): FlinkBounded's job is given the case's starting
// offsets initializer (OffsetsInitializer.earliest, latest, timestamp or
// committedOffsets with the case's reset strategy) and group, its stop the
// latest offsets as always, and must read exactly where the rung's own
// plan (rung.PlanStart, the one the Go paths are checked against) says,
// or fail as the case says a read must fail.

// Start is FlinkBounded's FPLAB-START line: where the job read each
// partition.
//
//	FPLAB-START first=F0,F1,... count=C0,C1,...
//
// First[p] is the offset of the first record read from partition p, -1
// when none was; Count[p] how many were read.
type Start struct {
	First, Count []int64
}

const startPrefix = "FPLAB-START"

// ParseStart reads the one FPLAB-START line of stdout, for a topic of
// partitions partitions: nil when there is none; an error for two, a
// malformed one, or one whose lists do not have one entry per partition
// or disagree (a first offset without records, or records without one).
func ParseStart(stdout string, partitions int) (*Start, error) {
	line, n := prefixedLine(stdout, startPrefix)
	switch {
	case n == 0:
		return nil, nil
	case n > 1:
		return nil, fmt.Errorf("java reference printed %d %q lines, want at most one", n, startPrefix)
	}
	bad := func(format string, a ...any) (*Start, error) {
		return nil, fmt.Errorf("java reference start line %q: %s", line, fmt.Sprintf(format, a...))
	}
	lists := map[string][]int64{}
	for _, f := range strings.Fields(line)[1:] {
		k, v, ok := strings.Cut(f, "=")
		if !ok || (k != "first" && k != "count") {
			return bad("unknown field %q", f)
		}
		if _, dup := lists[k]; dup {
			return bad("field %s given twice", k)
		}
		var xs []int64
		for _, e := range strings.Split(v, ",") {
			x, err := strconv.ParseInt(e, 10, 64)
			if err != nil || x < -1 || (k == "count" && x < 0) {
				return bad("field %s: %q is not an offset or a count", k, e)
			}
			xs = append(xs, x)
		}
		if len(xs) != partitions {
			return bad("field %s has %d entries, the topic %d partitions", k, len(xs), partitions)
		}
		lists[k] = xs
	}
	s := &Start{First: lists["first"], Count: lists["count"]}
	if s.First == nil || s.Count == nil {
		return bad("want fields first and count")
	}
	for p := range s.First {
		if (s.First[p] < 0) != (s.Count[p] == 0) {
			return bad("partition %d: first offset %d with %d records", p, s.First[p], s.Count[p])
		}
	}
	return s, nil
}

// startModes are the starts FlinkBounded takes, by the lab's mode.
var startModes = map[source.StartMode]string{
	source.StartEarliest: "earliest", source.StartLatest: "latest",
	source.StartTimestamp: "timestamp", source.StartCommitted: "committed",
}

// checkStart refuses a start the program does not take: off flink, with a
// live read, checkpoints or warm-up runs, an unknown mode or reset, a
// timestamp without a time or a time or reset without their mode.
func (o Opts) checkStart() error {
	if o.Start == "" {
		if o.StartMs != 0 || o.Group != "" || o.Reset != "" {
			return fmt.Errorf("java %s: a start time, group or reset without a start mode", o.Program)
		}
		return nil
	}
	switch {
	case o.Program != Flink:
		return fmt.Errorf("java %s takes no start mode (only flink runs the start-up cases)", o.Program)
	case o.Live || o.Checkpoint != 0 || o.WarmupRuns != 0:
		return fmt.Errorf("java flink --start reads once: no live read, checkpoints or warm-up runs")
	case !slices.Contains([]string{"earliest", "latest", "timestamp", "committed"}, o.Start):
		return fmt.Errorf("java flink: unknown start mode %q", o.Start)
	case (o.Start == "timestamp") != (o.StartMs > 0):
		return fmt.Errorf("java flink: start %s with start time %d ms (a timestamp start, and only it, needs one)", o.Start, o.StartMs)
	case o.Reset != "" && o.Start != "committed":
		return fmt.Errorf("java flink: reset %q applies to a committed start only", o.Reset)
	case !slices.Contains([]string{"", "none", "earliest", "latest"}, o.Reset):
		return fmt.Errorf("java flink: unknown reset %q", o.Reset)
	}
	return nil
}

// startArgs are the program's --start arguments for o.
func (o Opts) startArgs() []string {
	if o.Start == "" {
		return nil
	}
	argv := []string{"--start", o.Start}
	if o.StartMs > 0 {
		argv = append(argv, "--start-ms", strconv.FormatInt(o.StartMs, 10))
	}
	if o.Group != "" {
		argv = append(argv, "--group", o.Group)
	}
	if o.Reset != "" {
		argv = append(argv, "--reset", o.Reset)
	}
	return argv
}

// runStart runs start-up case c with the job: the rung's plan on the
// cell's topic (the commits it makes, the broker's timestamp answer) set
// as the job's start, and the job's read checked partition by partition
// against the plan: count stop-Want, the first offset Want. A failure
// case must fail with one line naming the failure (rung.Surfaced).
func (p refPath) runStart(ctx context.Context, c *rungargs.Cell, b rung.Build, w io.Writer) error {
	java, jar, err := javaAndJar(c)
	if err != nil {
		return err
	}
	plan, stop, err := rung.PlanReferenceStart(ctx, c)
	if err != nil {
		return err
	}
	o, cleanup, err := p.opts(ctx, c, c.Topic)
	if err != nil {
		return err
	}
	defer cleanup()
	o.Start, o.Group, o.StartMs = startModes[plan.Mode], plan.Group, plan.TimeMs
	if plan.Mode == source.StartCommitted {
		o.Reset = string(plan.Reset)
		if o.Reset == "" {
			o.Reset = "none"
		}
	}
	o.Records = 0
	for q := range stop {
		o.Records += int(stop[q] - plan.Want[q])
	}
	t0 := time.Now()
	r, err := Run(ctx, java, jar, o)
	took := time.Since(t0)
	if cell.FailureCase(c.Case) {
		return rung.Surfaced(c, b, p.client, err, took, w)
	}
	if err != nil {
		return err
	}
	if err := checkStartRead(r.Start, plan.Want, stop); err != nil {
		return fmt.Errorf("case=%s: path flink %w", c.Case, err)
	}
	return rung.WriteResult(w, c, b, p.client, r.Records, []results.Metric{
		{Value: float64(r.Records), Unit: results.UnitRec},
		{Value: ms(took), Unit: results.UnitFinishMs},
	}, append(p.jvmConfig(r), [2]string{"flink-start", strings.Join(o.startArgs(), " ")})...)
}

// checkStartRead checks the job's read against [want, stop) on every
// partition.
func checkStartRead(s *Start, want, stop []int64) error {
	for q := range want {
		n := stop[q] - want[q]
		switch {
		case s.Count[q] != n:
			return fmt.Errorf("read %d records of partition %d, want %d (from %d to %d)", s.Count[q], q, n, want[q], stop[q])
		case n > 0 && s.First[q] != want[q]:
			return fmt.Errorf("started partition %d at %d, want %d", q, s.First[q], want[q])
		}
	}
	return nil
}
