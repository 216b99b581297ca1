package rung

import (
	"context"
	"fmt"
	"time"

	"github.com/fastpathlab/fplab/clusters/kafka"
	"github.com/fastpathlab/fplab/ladder/rungargs"
	"github.com/fastpathlab/fplab/results"
)

// faultPlan is a broker_kill cell's side of the fault protocol: after the
// first verified batch it has the leader of partition 0 killed, and once
// half the corpus is verified it has that broker restarted (the request
// returns when every replica is back in sync, so the next cell finds a
// whole cluster). A nil plan does nothing.
type faultPlan struct {
	fc        *kafka.FaultConn
	topic     string
	half      int64
	killed    bool
	restarted bool
	node      int
	pause     time.Duration // time spent waiting for the kill and restart
}

func openFault(ctx context.Context, c *rungargs.Cell) (*faultPlan, error) {
	if c.FaultSocket == "" {
		return nil, nil
	}
	fc, err := kafka.DialFaults(ctx, c.FaultSocket)
	if err != nil {
		return nil, fmt.Errorf("broker kill: %w", err)
	}
	return &faultPlan{fc: fc, topic: c.Topic, half: int64(c.Records+1) / 2}, nil
}

// after runs the plan's steps that are due once rows records are verified.
func (f *faultPlan) after(ctx context.Context, rows int64) error {
	if f == nil {
		return nil
	}
	t0 := time.Now()
	defer func() { f.pause += time.Since(t0) }()
	if !f.killed {
		n, err := f.fc.Kill(ctx, f.topic, 0)
		if err != nil {
			return fmt.Errorf("broker kill: %w", err)
		}
		f.killed, f.node = true, n
	}
	if !f.restarted && rows >= f.half {
		if _, err := f.fc.Restart(ctx); err != nil {
			return fmt.Errorf("broker restart after kill of node %d: %w", f.node, err)
		}
		f.restarted = true
	}
	return nil
}

// done fails a cell whose plan did not run to the end.
func (f *faultPlan) done() error {
	if f == nil || (f.killed && f.restarted) {
		return nil
	}
	return fmt.Errorf("broker kill cell ended with kill=%v restart=%v", f.killed, f.restarted)
}

// metrics are the fault figures a broker_kill cell adds to its result.
func (f *faultPlan) metrics() []results.Metric {
	if f == nil {
		return nil
	}
	return []results.Metric{{Value: 1, Unit: "broker-kills"}, {Value: ms(f.pause), Unit: "fault-pause-ms"}}
}

func (f *faultPlan) close() {
	if f != nil {
		f.fc.Close()
	}
}
