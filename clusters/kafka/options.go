package kafka

import (
	"fmt"
	"time"
)

// Options configures Start.
type Options struct {
	// Brokers is the node count, 1..9 (default 1). Every node is a
	// combined broker+controller; all are controller-quorum voters.
	Brokers int
	// Dir holds the nodes' configs, data and logs (broker-<i>.log); it is
	// created if missing and kept after Stop. Required.
	Dir string
	// Partitions is num.partitions, for topics created without a count
	// (default 6).
	Partitions int
	// Ports are the client listener ports, one per node (default: free
	// ports chosen at start). A port already in use is an error.
	Ports []int
	// Dist is the distribution directory (default DistDir()).
	Dist string
	// Java is the java binary (default FindJava()).
	Java string
	// HeapMB is each node's JVM heap, -Xms and -Xmx (default 1024).
	HeapMB int
	// StartTimeout bounds formatting plus waiting for every broker to be
	// listed in metadata (default 90s).
	StartTimeout time.Duration
	// StopGrace is the SIGTERM -> SIGKILL delay of Stop (default 10s).
	StopGrace time.Duration
}

const (
	maxBrokers          = 9
	defaultPartitions   = 6
	defaultHeapMB       = 1024
	defaultStartTimeout = 90 * time.Second
	defaultStopGrace    = 10 * time.Second
)

// withDefaults fills the zero fields and validates the rest.
func (o Options) withDefaults() (Options, error) {
	if o.Brokers == 0 {
		o.Brokers = 1
	}
	if o.Partitions == 0 {
		o.Partitions = defaultPartitions
	}
	if o.HeapMB == 0 {
		o.HeapMB = defaultHeapMB
	}
	if o.StartTimeout == 0 {
		o.StartTimeout = defaultStartTimeout
	}
	if o.StopGrace == 0 {
		o.StopGrace = defaultStopGrace
	}
	switch {
	case o.Brokers < 1 || o.Brokers > maxBrokers:
		return o, fmt.Errorf("clusters/kafka: brokers must be 1..%d, got %d", maxBrokers, o.Brokers)
	case o.Dir == "":
		return o, fmt.Errorf("clusters/kafka: no directory for configs, data and logs")
	case o.Partitions < 1:
		return o, fmt.Errorf("clusters/kafka: partitions must be > 0, got %d", o.Partitions)
	case len(o.Ports) != 0 && len(o.Ports) != o.Brokers:
		return o, fmt.Errorf("clusters/kafka: %d ports given for %d brokers", len(o.Ports), o.Brokers)
	case o.HeapMB < 128:
		return o, fmt.Errorf("clusters/kafka: heap must be >= 128 MB, got %d", o.HeapMB)
	case o.StartTimeout < 0 || o.StopGrace < 0:
		return o, fmt.Errorf("clusters/kafka: negative timeout")
	}
	if o.Dist == "" {
		o.Dist = DistDir()
	}
	if err := CheckDist(o.Dist); err != nil {
		return o, err
	}
	if o.Java == "" {
		j, err := FindJava()
		if err != nil {
			return o, err
		}
		o.Java = j
	}
	return o, nil
}
