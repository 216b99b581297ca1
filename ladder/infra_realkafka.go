package ladder

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/fastpathlab/fplab/clusters"
	"github.com/fastpathlab/fplab/clusters/kafka"
	"github.com/fastpathlab/fplab/results/cell"
)

// startRealKafka starts a cluster=kafka shape: real Apache Kafka nodes
// (package clusters/kafka) with their configs, data and broker logs under
// <run>/kafka/brokers=N, plus the fault socket a broker_kill cell's child
// dials. The corpus is loaded like any cluster's (kafkaCluster.Load); topics
// get the nodes' default replication factor (min(N, 3)).
func startRealKafka(ctx context.Context, c ClusterSpec) (Cluster, error) {
	base := c.Dir
	if base == "" {
		var err error
		if base, err = os.MkdirTemp("", "fplab-kafka-"); err != nil {
			return nil, err
		}
	}
	dir := filepath.Join(base, "kafka", "brokers="+strconv.Itoa(c.Shape.Brokers))
	kc, err := kafka.Start(ctx, kafka.Options{Brokers: c.Shape.Brokers, Dir: dir, Partitions: c.Partitions})
	if err != nil {
		return nil, fmt.Errorf("start %s: %w", c.Shape, err)
	}
	// A unix socket path is limited to 108 bytes: keep it short.
	sock := filepath.Join(os.TempDir(), fmt.Sprintf("fplab-faults-%d-%d.sock", os.Getpid(), c.Shape.Brokers))
	stopFaults, err := kc.ServeFaults(sock)
	if err != nil {
		_ = kc.Stop()
		return nil, fmt.Errorf("start %s: %w", c.Shape, err)
	}
	stop := func() error {
		stopFaults()
		return kc.Stop()
	}
	return &realKafka{kafkaCluster: kafkaCluster{c: clusters.Cluster{Bootstrap: kc.Bootstrap()}, shape: c.Shape, stop: stop}, sock: sock}, nil
}

// realKafka is a cluster=kafka shape: a kafkaCluster plus its fault socket.
type realKafka struct {
	kafkaCluster
	sock string
}

// FaultSocket is the unix socket of the cluster's fault server.
func (r *realKafka) FaultSocket() string { return r.sock }

// markBrokerKill sets Fault on the cells the spec's broker_kill selects.
func markBrokerKill(s *Spec, cells []cell.Cell) {
	if len(s.BrokerKill) == 0 {
		return
	}
	for i := range cells {
		if cells[i].Matches(s.BrokerKill) {
			cells[i].Fault = "kill"
		}
	}
}

// checkBrokerKill fails a broker_kill that selects no cell, or a cell that
// cannot lose a broker: only cluster=kafka with 3+ brokers keeps its data
// (replication factor 3) and its controller quorum through one death, and
// only the Go paths can request the kill mid-cell.
func checkBrokerKill(s *Spec, cells []cell.Cell) error {
	if len(s.BrokerKill) == 0 {
		return nil
	}
	n := 0
	for _, c := range cells {
		if c.Fault == "" {
			continue
		}
		n++
		switch {
		case c.Cluster != cell.ClusterKafka || c.Brokers < 3:
			return fmt.Errorf("selects %s, but a broker can only be killed on cluster kafka with 3 or more brokers", c.Name())
		case c.Path == cell.PathJava:
			return fmt.Errorf("selects %s, but path java cannot be told when it is mid-cell (use a Go path)", c.Name())
		case c.Ckpt > 0:
			return fmt.Errorf("selects %s, but a broker kill cell cannot also checkpoint (rung refuses it; checkpoint is not an axis to exclude)", c.Name())
		}
	}
	if n == 0 {
		return fmt.Errorf("selects no cell of the expansion (%s)", strings.TrimSpace(mapString(s.BrokerKill)))
	}
	return nil
}
