package kafka

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/fastpathlab/fplab/clusters"
)

// Cluster is a running Kafka cluster started by Start.
type Cluster struct {
	opt   Options
	nodes []*node

	mu       sync.Mutex // serialises Kill/Restart/Stop
	stopped  bool
	stopOnce sync.Once
}

// Start provisions and starts a cluster of o.Brokers nodes and returns once
// cluster metadata lists every broker. On any failure, including ctx ending
// or o.StartTimeout passing, every process it started is killed before it
// returns the one-line error. When Start chose the ports itself and a node
// lost one of them to another listener before it bound, it starts the
// cluster again on new ports, up to startAttempts times in all.
func Start(ctx context.Context, o Options) (*Cluster, error) {
	o, err := o.withDefaults()
	if err != nil {
		return nil, err
	}
	for _, p := range o.Ports {
		if err := checkFree(p); err != nil {
			return nil, err
		}
	}
	ctx, cancel := context.WithTimeout(ctx, o.StartTimeout)
	defer cancel()
	for attempt := 1; ; attempt++ {
		c, err := startOnce(ctx, o)
		if err == nil || len(o.Ports) > 0 || attempt == startAttempts || !c.lostBind() || ctx.Err() != nil {
			if err != nil {
				return nil, err
			}
			return c, nil
		}
		if err := c.removeNodes(); err != nil {
			return nil, err
		}
	}
}

const startAttempts = 3

// startOnce is one attempt of Start. On failure it returns the cluster (its
// processes gone) beside the error, for lostBind.
func startOnce(ctx context.Context, o Options) (*Cluster, error) {
	ports := o.Ports
	var err error
	if len(ports) == 0 {
		if ports, err = freePorts(o.Brokers); err != nil {
			return nil, err
		}
	}
	ctrl, err := freePorts(o.Brokers)
	if err != nil {
		return nil, err
	}
	c := &Cluster{opt: o}
	jvm := []string{
		fmt.Sprintf("-Xms%dm", o.HeapMB), fmt.Sprintf("-Xmx%dm", o.HeapMB),
		"-XX:+UseG1GC", "-XX:MaxGCPauseMillis=20", "-XX:InitiatingHeapOccupancyPercent=35",
		"-XX:+ExplicitGCInvokesConcurrent", "-Djava.awt.headless=true",
		"-cp", Classpath(o.Dist),
	}
	for i := range o.Brokers {
		n := &node{
			id: i, port: ports[i], ctrlPort: ctrl[i],
			dir:     filepath.Join(o.Dir, fmt.Sprintf("node-%d", i)),
			logPath: filepath.Join(o.Dir, fmt.Sprintf("broker-%d.log", i)),
			java:    o.Java, jvmArgs: jvm,
		}
		props := serverProps(nodeConfig{
			id: i, port: n.port, ctrlPort: n.ctrlPort, dataDir: filepath.Join(n.dir, "data"),
			voters: voters(ctrl), brokers: o.Brokers, partitions: o.Partitions, auth: o.Auth,
		})
		mode := os.FileMode(0o644)
		if o.Auth != nil {
			mode = 0o600 // holds the passwords
		}
		if err := writeFileMode(n.propsPath(), props, mode); err != nil {
			return nil, err
		}
		log4j := log4jProps
		if o.RequestLog {
			log4j += requestLog
		}
		if err := writeFile(n.log4jPath(), log4j); err != nil {
			return nil, err
		}
		c.nodes = append(c.nodes, n)
	}
	if err := c.formatAll(ctx); err != nil {
		return c, err
	}
	for _, n := range c.nodes {
		if err := n.start(); err != nil {
			c.killAll()
			return c, err
		}
	}
	if err := c.waitReady(ctx); err != nil {
		c.killAll()
		return c, err
	}
	return c, nil
}

// lostBind reports whether a node of a failed start could not bind its
// port.
func (c *Cluster) lostBind() bool {
	if c == nil {
		return false
	}
	for _, n := range c.nodes {
		if lostBind(n.logPath) {
			return true
		}
	}
	return false
}

// removeNodes deletes a failed start's node directories and logs, so the
// next attempt formats afresh.
func (c *Cluster) removeNodes() error {
	for _, n := range c.nodes {
		if err := os.RemoveAll(n.dir); err != nil {
			return fmt.Errorf("remove node %d after a lost port: %w", n.id, err)
		}
		if err := os.Remove(n.logPath); err != nil && !os.IsNotExist(err) {
			return fmt.Errorf("remove node %d's log after a lost port: %w", n.id, err)
		}
	}
	return nil
}

// formatAll formats every node's storage with one cluster id, in parallel
// (each is a JVM start).
func (c *Cluster) formatAll(ctx context.Context) error {
	id, err := newClusterID()
	if err != nil {
		return err
	}
	errs := make([]error, len(c.nodes))
	var wg sync.WaitGroup
	for i, n := range c.nodes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = n.format(ctx, id)
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// newClusterID is a random KRaft cluster id (a base64url UUID, 22 chars).
func newClusterID() (string, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("cluster id: %w", err)
	}
	// The first base64url character comes from b[0]'s top six bits; with
	// the top bit clear it is a letter, never '-', which kafka-storage's
	// argument parser would take for an option (1 format in 64 failed).
	b[0] &= 0x7f
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return base64.RawURLEncoding.EncodeToString(b[:]), nil
}

// Bootstrap returns every node's client address.
func (c *Cluster) Bootstrap() []string {
	out := make([]string, len(c.nodes))
	for i, n := range c.nodes {
		out[i] = addr(n.port)
	}
	return out
}

// Brokers is the node count.
func (c *Cluster) Brokers() int { return len(c.nodes) }

// Dir is the directory holding the nodes' configs, data and logs.
func (c *Cluster) Dir() string { return c.opt.Dir }

// BrokerLogs are the nodes' log files (broker-<i>.log), node 0 first.
func (c *Cluster) BrokerLogs() []string {
	out := make([]string, len(c.nodes))
	for i, n := range c.nodes {
		out[i] = n.logPath
	}
	return out
}

// Pids returns the process id of every running node (-1 for a stopped
// one); tests use it to look for leftovers.
func (c *Cluster) Pids() []int {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([]int, len(c.nodes))
	for i, n := range c.nodes {
		out[i] = -1
		if n.cmd != nil && n.cmd.Process != nil {
			out[i] = n.cmd.Process.Pid
		}
	}
	return out
}

// Stop stops every node: SIGTERM to each node's process group at once (a
// KRaft node shutting down alone may wait for a quorum that is gone),
// SIGKILL after the grace. It returns once every node process has exited;
// calling it again does nothing.
func (c *Cluster) Stop() error {
	c.stopOnce.Do(func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		c.stopped = true
		for _, n := range c.nodes {
			n.signal(syscall.SIGTERM)
		}
		deadline := time.After(c.opt.StopGrace)
		for _, n := range c.nodes {
			if n.cmd == nil {
				continue
			}
			select {
			case <-n.exited:
			case <-deadline:
			}
		}
		c.killAll()
	})
	return nil
}

// killAll SIGKILLs every node and waits for it.
func (c *Cluster) killAll() {
	for _, n := range c.nodes {
		n.kill()
	}
}

func (c *Cluster) nodeAt(i int) (*node, error) {
	if i < 0 || i >= len(c.nodes) {
		return nil, fmt.Errorf("broker %d does not exist (cluster of %d)", i, len(c.nodes))
	}
	if c.stopped {
		return nil, fmt.Errorf("cluster is stopped")
	}
	return c.nodes[i], nil
}

// KillBroker SIGKILLs node i (its whole process group) and waits for it to
// be gone. Its data stays for RestartBroker.
func (c *Cluster) KillBroker(i int) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	n, err := c.nodeAt(i)
	if err != nil {
		return err
	}
	if !n.running() {
		return fmt.Errorf("broker %d is not running", i)
	}
	n.kill()
	return nil
}

// RestartBroker starts node i again on its ports and data and waits, bounded
// by ctx and the start timeout, until metadata lists every broker and every
// partition's in-sync replicas are all its replicas again.
func (c *Cluster) RestartBroker(ctx context.Context, i int) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	n, err := c.nodeAt(i)
	if err != nil {
		return err
	}
	if n.running() {
		return fmt.Errorf("broker %d is already running", i)
	}
	if err := checkFree(n.port); err != nil {
		return err
	}
	if err := n.start(); err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, c.opt.StartTimeout)
	defer cancel()
	if err := c.waitNodeUp(ctx, n); err != nil {
		return err
	}
	if err := c.waitReady(ctx); err != nil {
		return err
	}
	return c.waitInSync(ctx)
}

// clientAt is the clusters.Cluster view of this cluster at bootstrap, as
// the super user when Options.Auth is set.
func (c *Cluster) clientAt(bootstrap []string) clusters.Cluster {
	cl := clusters.Cluster{Bootstrap: bootstrap}
	if c.opt.Auth != nil {
		cl.Props = c.ClientProps(c.opt.Auth.SuperUser)
	}
	return cl
}

// String names the cluster for messages (never a password).
func (c *Cluster) String() string {
	s := fmt.Sprintf("kafka %s brokers=%d bootstrap=%s", Version, len(c.nodes), strings.Join(c.Bootstrap(), ","))
	if c.opt.Auth != nil {
		s += " auth=SASL_PLAINTEXT/PLAIN+ACLs"
	}
	return s
}
