package ceiling

import (
	"fmt"
	"strings"
	"time"

	"github.com/fastpathlab/fplab/cell"
)

// Config is one ceiling read: which topic, on which cluster, with which
// fetch sizes.
type Config struct {
	// Bootstrap is the cluster's host:port list.
	Bootstrap []string
	// Props are client properties by their librdkafka names. Only a
	// SASL_PLAINTEXT cluster's PLAIN ones are taken: security.protocol
	// (SASL_PLAINTEXT), sasl.mechanism or sasl.mechanisms (PLAIN),
	// sasl.username and sasl.password. Anything else is an error.
	Props map[string]string
	// Topic is read from its log start to its high watermark.
	Topic string
	// Partitions is the topic's partition count; a topic with another
	// count is an error.
	Partitions int

	// The fetch sizes. Zero means librdkafka's default, which is what the
	// lab's librdkafka paths run with.

	// FetchMaxBytes bounds one Fetch response (fetch.max.bytes, default
	// 52428800).
	FetchMaxBytes int32
	// PartitionMaxBytes bounds one partition in a Fetch response
	// (max.partition.fetch.bytes, default 1048576).
	PartitionMaxBytes int32
	// MaxWait is how long a broker may hold a Fetch for data
	// (fetch.wait.max.ms, default 500 ms).
	MaxWait time.Duration

	// Timeout is the stall timeout: opening (metadata, offsets) and the
	// read fail when no step makes progress for this long. Required.
	Timeout time.Duration
}

// The defaults of Config's fetch sizes: librdkafka's.
const (
	DefaultFetchMaxBytes     int32 = 52428800 // fetch.max.bytes
	DefaultPartitionMaxBytes int32 = 1048576  // max.partition.fetch.bytes
	DefaultMaxWait                 = 500 * time.Millisecond
)

// limits is the table validate checks Config against.
var limits = struct {
	minParts, maxParts int
	maxBytes           int32
	maxWait            time.Duration
}{1, cell.MaxPartitions, 1 << 30, 5 * time.Minute} // librdkafka caps fetch.wait.max.ms at 300000

// withDefaults returns c with its zero fetch sizes set to the defaults.
func (c Config) withDefaults() Config {
	if c.FetchMaxBytes == 0 {
		c.FetchMaxBytes = DefaultFetchMaxBytes
	}
	if c.PartitionMaxBytes == 0 {
		c.PartitionMaxBytes = DefaultPartitionMaxBytes
	}
	if c.MaxWait == 0 {
		c.MaxWait = DefaultMaxWait
	}
	return c
}

// validate checks a Config after withDefaults. It needs no network.
func (c *Config) validate() error {
	switch {
	case len(c.Bootstrap) == 0:
		return fmt.Errorf("no bootstrap servers")
	case c.Topic == "":
		return fmt.Errorf("no topic")
	case c.Partitions < limits.minParts || c.Partitions > limits.maxParts:
		return fmt.Errorf("partitions must be %d..%d, got %d", limits.minParts, limits.maxParts, c.Partitions)
	case c.FetchMaxBytes <= 0 || c.FetchMaxBytes > limits.maxBytes:
		return fmt.Errorf("fetch max bytes must be 1..%d, got %d", limits.maxBytes, c.FetchMaxBytes)
	case c.PartitionMaxBytes <= 0 || c.PartitionMaxBytes > limits.maxBytes:
		return fmt.Errorf("partition max bytes must be 1..%d, got %d", limits.maxBytes, c.PartitionMaxBytes)
	case c.MaxWait < time.Millisecond || c.MaxWait > limits.maxWait:
		return fmt.Errorf("max wait must be 1ms..%v, got %v", limits.maxWait, c.MaxWait)
	case c.Timeout <= 0:
		return fmt.Errorf("timeout must be > 0, got %v", c.Timeout)
	}
	for _, b := range c.Bootstrap {
		if strings.TrimSpace(b) == "" {
			return fmt.Errorf("empty bootstrap server in %q", c.Bootstrap)
		}
	}
	_, err := saslOpt(c.Props)
	return err
}
