package kafka

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/sasl/plain"

	"github.com/fastpathlab/fplab/clusters"
)

// pollEvery is the readiness polling interval.
const pollEvery = 250 * time.Millisecond

// waitReady polls metadata until it lists every node as a broker, for as
// long as the start makes progress (progress.go). A node that exits
// meanwhile fails it at once with that node's log line; a start without
// progress for StallTimeout, or past ctx, fails naming the nodes not
// listed.
func (c *Cluster) waitReady(ctx context.Context) error {
	last := "no answer yet"
	var listed []int32
	prog := newStartProgress(time.Now(), c.opt.StallTimeout)
	for {
		for _, n := range c.nodes {
			if !n.running() {
				return n.died()
			}
		}
		qctx, cancel := context.WithTimeout(ctx, 2*time.Second)
		ids, err := c.brokerIDs(qctx)
		cancel()
		switch {
		case err == nil && len(ids) == len(c.nodes):
			return nil
		case err == nil:
			listed = ids
			last = fmt.Sprintf("metadata lists %d", len(ids))
		default:
			last = err.Error()
		}
		if prog.observe(time.Now(), progressMark{logBytes: c.logBytes(), listed: len(listed)}) {
			return stalledError(fmt.Sprintf("%d brokers not listed in metadata", len(c.nodes)), c.opt.StallTimeout, last, c.stuckNodes(listed))
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("%d brokers not listed in metadata before the deadline (%s); %s",
				len(c.nodes), last, c.stuckNodes(listed))
		case <-time.After(pollEvery):
		}
	}
}

// brokerIDs lists the node ids metadata names as brokers.
func (c *Cluster) brokerIDs(ctx context.Context) ([]int32, error) {
	var ids []int32
	err := c.admin(ctx, func(adm *kadm.Client) error {
		m, err := adm.BrokerMetadata(ctx)
		if err != nil {
			return err
		}
		for _, b := range m.Brokers {
			ids = append(ids, b.NodeID)
		}
		return nil
	})
	return ids, err
}

// waitNodeUp polls until node n itself answers a metadata request listing
// every broker: right after a kill the others' metadata still lists the
// dead node for a session timeout, so asking them proves nothing.
func (c *Cluster) waitNodeUp(ctx context.Context, n *node) error {
	last := "no answer yet"
	prog := newStartProgress(time.Now(), c.opt.StallTimeout)
	for {
		if !n.running() {
			return n.died()
		}
		qctx, cancel := context.WithTimeout(ctx, 2*time.Second)
		got, err := clusters.BrokerCount(qctx, c.clientAt([]string{addr(n.port)}))
		cancel()
		switch {
		case err == nil && got == len(c.nodes):
			return nil
		case err == nil:
			last = fmt.Sprintf("it lists %d brokers", got)
		default:
			last = err.Error()
		}
		var logBytes int64
		if st, err := os.Stat(n.logPath); err == nil {
			logBytes = st.Size()
		}
		if prog.observe(time.Now(), progressMark{logBytes: logBytes, listed: max(got, 0)}) {
			return stalledError(fmt.Sprintf("restarted node %d not serving", n.id), c.opt.StallTimeout, last, logProblem(n.logPath))
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("restarted node %d not serving before the deadline (%s): %s", n.id, last, logProblem(n.logPath))
		case <-time.After(pollEvery):
		}
	}
}

// admin runs fn with a kadm client on the cluster (as the super user when
// Options.Auth is set).
func (c *Cluster) admin(ctx context.Context, fn func(*kadm.Client) error) error {
	cl, err := c.superClient()
	if err != nil {
		return err
	}
	defer cl.Close()
	return fn(kadm.NewClient(cl))
}

// superClient is a franz-go client on every node, authenticated as the
// super user when Options.Auth is set.
func (c *Cluster) superClient() (*kgo.Client, error) {
	opts := []kgo.Opt{kgo.SeedBrokers(c.Bootstrap()...), kgo.DialTimeout(2 * time.Second), kgo.RequestRetries(2)}
	if a := c.opt.Auth; a != nil {
		opts = append(opts, kgo.SASL(plain.Auth{User: a.SuperUser, Pass: a.Users[a.SuperUser]}.AsMechanism()))
	}
	cl, err := kgo.NewClient(opts...)
	if err != nil {
		return nil, fmt.Errorf("admin client: %w", err)
	}
	return cl, nil
}

// waitInSync polls until every partition of every topic has all its
// replicas in sync.
func (c *Cluster) waitInSync(ctx context.Context) error {
	last := "no answer yet"
	for {
		err := c.admin(ctx, func(adm *kadm.Client) error {
			m, err := adm.Metadata(ctx)
			if err != nil {
				return err
			}
			for _, t := range m.Topics {
				for _, p := range t.Partitions {
					if len(p.ISR) < len(p.Replicas) {
						return fmt.Errorf("topic %s partition %d has %d of %d replicas in sync", t.Topic, p.Partition, len(p.ISR), len(p.Replicas))
					}
				}
			}
			return nil
		})
		if err == nil {
			return nil
		}
		last = err.Error()
		select {
		case <-ctx.Done():
			return fmt.Errorf("replicas not back in sync before the deadline: %s", last)
		case <-time.After(pollEvery):
		}
	}
}

// Leader returns the node index leading partition of topic.
func (c *Cluster) Leader(ctx context.Context, topic string, partition int32) (int, error) {
	leader := -1
	err := c.admin(ctx, func(adm *kadm.Client) error {
		m, err := adm.Metadata(ctx, topic)
		if err != nil {
			return err
		}
		td, ok := m.Topics[topic]
		if !ok {
			return fmt.Errorf("topic %s not in metadata", topic)
		}
		if td.Err != nil {
			return fmt.Errorf("topic %s not in metadata (%w)", topic, td.Err)
		}
		p, ok := td.Partitions[partition]
		if !ok {
			return fmt.Errorf("topic %s has no partition %d", topic, partition)
		}
		leader = int(p.Leader)
		return nil
	})
	if err != nil {
		return -1, fmt.Errorf("leader of %s/%d: %w", topic, partition, err)
	}
	if leader < 0 || leader >= len(c.nodes) {
		return -1, fmt.Errorf("leader of %s/%d is node %d, not one of this cluster's", topic, partition, leader)
	}
	return leader, nil
}
