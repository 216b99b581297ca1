package kafka

import (
	"context"
	"fmt"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/sasl/plain"

	"github.com/fastpathlab/fplab/clusters"
)

// pollEvery is the readiness polling interval.
const pollEvery = 250 * time.Millisecond

// waitReady polls metadata until it lists every node as a broker. A node
// that exits meanwhile fails it at once with that node's log line.
func (c *Cluster) waitReady(ctx context.Context) error {
	last := "no answer yet"
	for {
		for _, n := range c.nodes {
			if !n.running() {
				return n.died()
			}
		}
		qctx, cancel := context.WithTimeout(ctx, 2*time.Second)
		got, err := clusters.BrokerCount(qctx, c.client())
		cancel()
		switch {
		case err == nil && got == len(c.nodes):
			return nil
		case err == nil:
			last = fmt.Sprintf("metadata lists %d", got)
		default:
			last = err.Error()
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("%d brokers not listed in metadata before the deadline (%s); node 0: %s",
				len(c.nodes), last, logProblem(c.nodes[0].logPath))
		case <-time.After(pollEvery):
		}
	}
}

// waitNodeUp polls until node n itself answers a metadata request listing
// every broker: right after a kill the others' metadata still lists the
// dead node for a session timeout, so asking them proves nothing.
func (c *Cluster) waitNodeUp(ctx context.Context, n *node) error {
	last := "no answer yet"
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
