package clusters

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kversion"
)

// EmbeddedOpt configures RunEmbedded.
type EmbeddedOpt func(*embeddedConfig)

type embeddedConfig struct {
	ports []int
}

// WithPorts makes the brokers listen on the given 127.0.0.1 ports, one per
// broker, instead of ports chosen by the OS.
func WithPorts(ports ...int) EmbeddedOpt {
	return func(c *embeddedConfig) { c.ports = append([]int(nil), ports...) }
}

// maxMessageBytes is the embedded brokers' message.max.bytes: large enough
// that no producer batch of the corpus is refused.
const maxMessageBytes = 64 << 20

// brokerConfigs lifts the kfake limits that could throttle or trim a corpus
// of millions of records: produce batch size and time or size retention.
// Fetch sizes are bounded only by what the consumer asks for.
func brokerConfigs() map[string]string {
	return map[string]string{
		"message.max.bytes":   strconv.Itoa(maxMessageBytes),
		"log.retention.ms":    "-1",
		"log.retention.bytes": "-1",
	}
}

// describeTopicPartitionsKey is the DescribeTopicPartitions request (KIP-966).
const describeTopicPartitionsKey = 75

// advertised is the API versions the embedded cluster serves: kfake's own
// default (its implemented versions capped at kversion.Stable, whose
// features it answers from) without DescribeTopicPartitions. kfake answers it with a
// null eligible-leader-replicas list, which the protocol allows and Kafka's
// Java admin client (4.1) dereferences: Flink's KafkaSource enumerator
// failed with a NullPointerException listing partitions. Without the key
// the Java client falls back to Metadata, as it does against brokers
// before 3.8, and path=flink reads the embedded cluster (docs/references.md).
func advertised() *kversion.Versions {
	v := kversion.Stable()
	v.SetMaxKeyVersion(describeTopicPartitionsKey, -1)
	return v
}

// RunEmbedded is the body of `fplab broker --brokers N --partitions P`. It
// starts a kfake cluster of brokers brokers on 127.0.0.1, with partitions as
// the partition count of auto-created topics, prints exactly one line
// "bootstrap: host:port,host:port,..." to out, serves until ctx is done and
// then closes the cluster.
func RunEmbedded(ctx context.Context, brokers, partitions int, out io.Writer, opts ...EmbeddedOpt) error {
	if err := validate(bounded{brokersLimit, brokers}, bounded{partitionsLimit, partitions}); err != nil {
		return err
	}
	var cfg embeddedConfig
	for _, o := range opts {
		o(&cfg)
	}
	kopts := []kfake.Opt{
		kfake.NumBrokers(brokers),
		kfake.DefaultNumPartitions(partitions),
		kfake.AllowAutoTopicCreation(),
		kfake.BrokerConfigs(brokerConfigs()),
		kfake.MaxVersions(advertised()),
	}
	if len(cfg.ports) > 0 {
		if len(cfg.ports) != brokers {
			return fmt.Errorf("%d ports given for %d brokers", len(cfg.ports), brokers)
		}
		kopts = append(kopts, kfake.Ports(cfg.ports...))
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("embedded cluster not started: %w", err)
	}
	c, err := kfake.NewCluster(kopts...)
	if err != nil {
		return fmt.Errorf("start embedded cluster: %w", err)
	}
	defer c.Close()
	answerUnknownGroupsAsKafka(c)
	if _, err := fmt.Fprintln(out, FormatBootstrapLine(c.ListenAddrs())); err != nil {
		return fmt.Errorf("print bootstrap line: %w", err)
	}
	<-ctx.Done()
	return nil
}

// bootstrapPrefix starts the one line RunEmbedded prints.
const bootstrapPrefix = "bootstrap: "

// FormatBootstrapLine renders the line RunEmbedded prints, without newline.
func FormatBootstrapLine(addrs []string) string {
	return bootstrapPrefix + strings.Join(addrs, ",")
}
