package ladder

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"github.com/fastpathlab/fplab/cell"
	"github.com/fastpathlab/fplab/clusters"
	"github.com/fastpathlab/fplab/clusters/kafka"
)

// startRealKafka starts a cluster=kafka shape: real Apache Kafka nodes
// (package clusters/kafka) with their configs, data and broker logs under
// <run>/kafka/brokers=N, plus the fault socket a broker_kill cell's child
// dials. The corpus is loaded like any cluster's (kafkaCluster.Load); topics
// get the nodes' default replication factor (min(N, 3)). Stopping the
// cluster removes the nodes' data (every corpus, replicated: gigabytes per
// run at the ladder's sizes, which filled this machine's disk after a dozen
// runs); the configs and broker logs stay in the run directory.
func startRealKafka(ctx context.Context, c ClusterSpec) (Cluster, error) {
	base := c.Dir
	if base == "" {
		var err error
		if base, err = os.MkdirTemp("", "fplab-kafka-"); err != nil {
			return nil, err
		}
	}
	dir := filepath.Join(base, "kafka", "brokers="+strconv.Itoa(c.Shape.Brokers))
	opt := kafka.Options{Brokers: c.Shape.Brokers, Dir: dir, Partitions: c.Partitions}
	if c.Auth {
		users, err := newUsers()
		if err != nil {
			return nil, fmt.Errorf("start %s: %w", c.Shape, err)
		}
		opt.Auth = &kafka.Auth{Users: users, SuperUser: userAdmin}
	}
	kc, err := kafka.Start(ctx, opt)
	if err != nil {
		return nil, fmt.Errorf("start %s: %w", c.Shape, err)
	}
	// A unix socket path is limited to 108 bytes: keep it short.
	scratch := c.Scratch
	if scratch == "" {
		scratch = os.TempDir()
	}
	sock := filepath.Join(scratch, fmt.Sprintf("fplab-faults-%d-%d.sock", os.Getpid(), c.Shape.Brokers))
	stopFaults, err := kc.ServeFaults(sock)
	if err != nil {
		_ = kc.Stop()
		return nil, fmt.Errorf("start %s: %w", c.Shape, err)
	}
	stop := func() error {
		stopFaults()
		err := kc.Stop()
		if rmErr := removeNodeData(dir); err == nil {
			err = rmErr
		}
		if c.Dir == "" {
			_ = os.RemoveAll(base)
		}
		return err
	}
	r := &realKafka{kafkaCluster: kafkaCluster{c: clusters.Cluster{Bootstrap: kc.Bootstrap()}, shape: c.Shape, stop: stop}, sock: sock}
	if c.Auth {
		r.kc = kc
		r.c.Props = kc.ClientProps(userAdmin) // loads, probes and read-backs
		// The reader may describe and read any topic ("*"), so a missing
		// topic is unknown to it, not unauthorized (Kafka answers a topic
		// a user may not describe with an authorization error).
		if err := kc.AllowRead(ctx, userReader, "*"); err != nil {
			_ = stop()
			return nil, fmt.Errorf("start %s: %w", c.Shape, err)
		}
	}
	return r, nil
}

// removeNodeData removes the data directories of the stopped nodes under
// dir (node-<i>/data), keeping their configs and logs.
// removeStaleNodeData removes the node data a ladder that died left in its
// run directory (every cluster=kafka shape's): a resume starts its nodes
// afresh, and a run never resumed should not hold gigabytes of corpora.
func removeStaleNodeData(runDir string) error {
	shapes, err := filepath.Glob(filepath.Join(runDir, "kafka", "brokers=*"))
	if err != nil {
		return err
	}
	for _, d := range shapes {
		if err := removeNodeData(d); err != nil {
			return err
		}
	}
	return nil
}

func removeNodeData(dir string) error {
	data, err := filepath.Glob(filepath.Join(dir, "node-*", "data"))
	if err != nil {
		return err
	}
	for _, d := range data {
		if err := os.RemoveAll(d); err != nil {
			return fmt.Errorf("remove broker data: %w", err)
		}
	}
	return nil
}

// The users of a cluster=kafka shape started with ClusterSpec.Auth.
const (
	userAdmin  = "admin"  // super user: loads the corpora
	userReader = "reader" // may read every corpus topic: the cells
	userDenied = "denied" // no ACL: the case=denied cells
)

// newUsers gives each user a random password for this run.
func newUsers() (map[string]string, error) {
	users := map[string]string{}
	for _, u := range []string{userAdmin, userReader, userDenied} {
		b := make([]byte, 16)
		if _, err := rand.Read(b); err != nil {
			return nil, err
		}
		users[u] = hex.EncodeToString(b)
	}
	return users, nil
}

// realKafka is a cluster=kafka shape: a kafkaCluster plus its fault socket
// and, with Auth, its users.
type realKafka struct {
	kafkaCluster
	sock string
	kc   *kafka.Cluster // set with Auth
}

// Load implements Cluster; with Auth, the reader may also write to the
// topic of a case=appended cell, which appends to it.
func (r *realKafka) Load(ctx context.Context, c CorpusSpec) (string, error) {
	topic, err := r.kafkaCluster.Load(ctx, c)
	if err != nil || r.kc == nil || c.Topic.Case != cell.CaseAppended {
		return topic, err
	}
	return topic, r.kc.AllowWrite(ctx, userReader, topic)
}

// CellProps implements cellProper: with Auth, a case=denied cell reads as
// the user without ACLs, every other cell as the reader; without, nothing.
func (r *realKafka) CellProps(c cell.Cell) map[string]string {
	switch {
	case r.kc == nil:
		return nil
	case c.Case == cell.CaseDenied:
		return r.kc.ClientProps(userDenied)
	}
	return r.kc.ClientProps(userReader)
}

// FaultSocket is the unix socket of the cluster's fault server.
func (r *realKafka) FaultSocket() string { return r.sock }
