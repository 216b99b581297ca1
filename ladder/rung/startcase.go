package rung

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/fastpathlab/fplab/cell"
	"github.com/fastpathlab/fplab/clusters"
	"github.com/fastpathlab/fplab/ladder/rungargs"
	"github.com/fastpathlab/fplab/source"
	"github.com/fastpathlab/fplab/workloads"
)

// StartPlan is how a start-up case (cell.StartCases) starts a read: the
// mode, the timestamp, the group and the reset strategy the case names,
// and Want, where the read must start on every partition: the rung's own
// answer, which a reader's records are verified against (for a failure
// case, the layout's start: its read must fail instead).
type StartPlan struct {
	Mode   source.StartMode
	TimeMs int64
	Group  string
	Reset  source.Reset
	Want   []int64
}

// PlanStart sets up a start-up case on c's topic, whose layout bounds are
// [start, stop): for the committed cases it commits the group's offsets
// before any reader opens. The group is new for every call, so a case
// that expects no commits finds none. A reference path (jvmref) runs the
// same plan through its own client.
func PlanStart(ctx context.Context, c *rungargs.Cell, cl clusters.Cluster, start, stop []int64) (StartPlan, error) {
	mid := make([]int64, len(start))
	for p := range mid {
		mid[p] = start[p] + (stop[p]-start[p])/2
	}
	group := fmt.Sprintf("fplab-case-%s-%s-%d", c.Path, c.Case, time.Now().UnixNano())
	committed := func(reset source.Reset, want []int64) StartPlan {
		return StartPlan{Mode: source.StartCommitted, Group: group, Reset: reset, Want: want}
	}
	commit := func(p StartPlan, offsets []int64) (StartPlan, error) {
		if err := clusters.CommitOffsets(ctx, cl, group, c.Topic, offsets); err != nil {
			return StartPlan{}, fmt.Errorf("case=%s: %w", c.Case, err)
		}
		return p, nil
	}
	switch c.Case {
	case cell.CaseStartLatest:
		return StartPlan{Mode: source.StartLatest, Want: stop}, nil
	case cell.CaseStartTimestamp:
		return startAtTimestamp(ctx, c, cl, mid)
	case cell.CaseCommitted:
		return commit(committed(source.ResetNone, mid), mid)
	case cell.CaseCommittedNoGroup:
		p := committed(source.ResetNone, start)
		p.Group = ""
		return p, nil
	case cell.CaseCommittedAbsentNone:
		return committed(source.ResetNone, start), nil
	case cell.CaseCommittedAbsentEarliest:
		return committed(source.ResetEarliest, start), nil
	case cell.CaseCommittedAbsentLatest:
		return committed(source.ResetLatest, stop), nil
	case cell.CaseCommittedAboveNone, cell.CaseCommittedAboveLatest:
		above := make([]int64, len(stop))
		for p := range above {
			above[p] = stop[p] + appendedPerPartition
		}
		reset := source.ResetNone
		if c.Case == cell.CaseCommittedAboveLatest {
			reset = source.ResetLatest
		}
		return commit(committed(reset, stop), above)
	case cell.CaseCommittedBelowNone, cell.CaseCommittedBelowEarliest:
		// case deleted's topic: the records below DeletedBelow are gone,
		// and a commit at 0 lies below the log start where any were
		from, err := clusters.LogStart(ctx, cl, c.Topic, c.Partitions)
		if err != nil {
			return StartPlan{}, fmt.Errorf("case=%s: %w", c.Case, err)
		}
		if !slices.ContainsFunc(from, func(o int64) bool { return o > 0 }) {
			return StartPlan{}, fmt.Errorf("case=%s: topic %s starts at %v: no records deleted, so no commit can lie below its log start", c.Case, c.Topic, from)
		}
		reset := source.ResetNone
		if c.Case == cell.CaseCommittedBelowEarliest {
			reset = source.ResetEarliest
		}
		return commit(committed(reset, from), make([]int64, c.Partitions))
	}
	return StartPlan{}, fmt.Errorf("case=%s is not a start-up case", c.Case)
}

// PlanReferenceStart is PlanStart for a reference path running a start-up
// case (path flink, jvmref): the cell's claims checked (its broker count,
// the topic's stored codec), and the plan on its topic's layout, whose
// stop it returns: the read must cover [Want, stop) on every partition.
func PlanReferenceStart(ctx context.Context, c *rungargs.Cell) (StartPlan, []int64, error) {
	cl, err := checkBrokers(ctx, c)
	if err != nil {
		return StartPlan{}, nil, err
	}
	if err := checkCompression(ctx, cl, c); err != nil {
		return StartPlan{}, nil, err
	}
	layout, err := workloads.NewLayout(c.Seed, c.Records, c.Partitions, workloads.ShapeOf(c.Cell))
	if err != nil {
		return StartPlan{}, nil, err
	}
	start, stop := layout.Bounds()
	plan, err := PlanStart(ctx, c, cl, start, stop)
	return plan, stop, err
}

// apply sets the plan on a reader's config.
func (p StartPlan) apply(cfg *source.Config) {
	cfg.StartAt, cfg.Group, cfg.Reset = p.Mode, p.Group, p.Reset
	if p.Mode == source.StartTimestamp {
		cfg.StartTime = time.UnixMilli(p.TimeMs)
	}
}

// startAtTimestamp plans a start at the timestamp of the record in the
// middle of partition 0, Want where the broker says that timestamp
// starts on every partition (ListOffsets by timestamp): the loader stamps
// records with the time it wrote them, so the rung cannot know the
// boundary from the layout, and the broker's index is the authority a
// reader must agree with.
func startAtTimestamp(ctx context.Context, c *rungargs.Cell, cl clusters.Cluster, mid []int64) (StartPlan, error) {
	ms, err := clusters.TimestampAt(ctx, cl, c.Topic, 0, mid[0])
	if err != nil {
		return StartPlan{}, fmt.Errorf("case=%s: %w", c.Case, err)
	}
	want, err := clusters.OffsetsAfter(ctx, cl, c.Topic, c.Partitions, ms)
	if err != nil {
		return StartPlan{}, fmt.Errorf("case=%s: %w", c.Case, err)
	}
	return StartPlan{Mode: source.StartTimestamp, TimeMs: ms, Want: want}, nil
}

// noGroupLeft checks, after a start-up case read without a group, that
// the path left no group on the broker: it neither joined one nor
// committed. The librdkafka paths run with a group.id all the same
// (source.Config's groupID says why), named fplab-<path>-<time>; a group
// of that name on the broker is membership the upstream issue forbids in
// these modes. It cannot see the coordinator lookups librdkafka makes for
// that group.id, which create nothing (docs/parity.md).
func noGroupLeft(ctx context.Context, c *rungargs.Cell, cl clusters.Cluster) error {
	groups, err := clusters.Groups(ctx, cl)
	if err != nil {
		return fmt.Errorf("case=%s: %w", c.Case, err)
	}
	prefix := "fplab-" + c.Path + "-"
	for _, g := range groups {
		if strings.HasPrefix(g, prefix) {
			return fmt.Errorf("case=%s: the read left group %s on the broker; a read without a group id must not join or commit", c.Case, g)
		}
	}
	return nil
}
