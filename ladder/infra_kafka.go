package ladder

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/fastpathlab/fplab/cell"
	"github.com/fastpathlab/fplab/clusters"
	"github.com/fastpathlab/fplab/ladder/rungargs"
	"github.com/fastpathlab/fplab/workloads"
)

// KafkaInfra is the real Infra: embedded shapes run `<BrokerBin> broker
// --brokers N --partitions P` in a process of their own (pinned to CPUs when
// set); external shapes attach to the spec's bootstrap list. Corpora are
// produced with clusters.Load unless clusters.TopicReady finds them there.
type KafkaInfra struct {
	BrokerBin    string
	CPUs         string        // broker CPU list; empty: no pinning
	StartTimeout time.Duration // default 30s
}

// Start implements Infra.
func (k *KafkaInfra) Start(ctx context.Context, c ClusterSpec) (Cluster, error) {
	if c.Shape.Cluster == cell.ClusterExternal {
		return &kafkaCluster{c: clusters.Cluster{Bootstrap: c.Bootstrap, Props: c.Props}, shape: c.Shape}, nil
	}
	if c.Shape.Cluster == cell.ClusterKafka {
		return startRealKafka(ctx, c)
	}
	if c.Shape.Cluster != cell.ClusterEmbedded {
		return nil, fmt.Errorf("cluster %s is not supported", c.Shape.Cluster)
	}
	argv := rungargs.WrapArgv([]string{k.BrokerBin, "broker", "--brokers", strconv.Itoa(c.Shape.Brokers), "--partitions", strconv.Itoa(c.Partitions)})
	timeout := k.StartTimeout
	if timeout <= 0 {
		timeout = 30 * time.Second
	}
	var e *clusters.Embedded
	start := func() error {
		var err error
		e, err = clusters.StartEmbedded(ctx, argv, timeout)
		return err
	}
	var err error
	if k.CPUs == "" {
		err = start()
	} else if pinMethod() == "taskset" {
		bin, args := pinArgv(k.CPUs, argv[0], argv[1:])
		argv = append([]string{bin}, args...)
		err = start()
	} else {
		err = onPinnedThread(k.CPUs, start)
	}
	if err != nil {
		return nil, fmt.Errorf("start broker %s: %w", c.Shape, err)
	}
	return &kafkaCluster{c: clusters.Cluster{Bootstrap: e.Bootstrap()}, shape: c.Shape, stop: e.Stop}, nil
}

type kafkaCluster struct {
	c     clusters.Cluster
	shape Shape
	stop  func() error
}

// Alive implements Cluster with clusters.Probe: every bootstrap broker
// must answer (for embedded and kafka shapes that is every broker started),
// within ctx's deadline.
func (k *kafkaCluster) Alive(ctx context.Context) error {
	timeout := defaultProbeTimeout
	if dl, ok := ctx.Deadline(); ok {
		timeout = time.Until(dl)
	}
	if timeout <= 0 {
		return fmt.Errorf("cluster %s: no time left to probe it", k.shape)
	}
	if err := clusters.Probe(ctx, k.c, timeout); err != nil {
		return fmt.Errorf("cluster %s: %w", k.shape, err)
	}
	return nil
}

func (k *kafkaCluster) Bootstrap() []string { return k.c.Bootstrap }

func (k *kafkaCluster) Stop() error {
	if k.stop == nil {
		return nil
	}
	return k.stop()
}

// Load implements Cluster: the topic is the corpus ID (corpusTopic),
// produced only when it does not already hold the corpus.
func (k *kafkaCluster) Load(ctx context.Context, c CorpusSpec) (string, error) {
	schema, err := workloads.SchemaByName(c.Schema)
	if err != nil {
		return "", err
	}
	codec, err := workloads.NewCodec(workloads.Format(c.Format), schema)
	if err != nil {
		return "", err
	}
	corpus := workloads.NewCorpus(schema, codec, c.Seed, c.Records, workloads.CorpusOptsOf(c.Topic)...)
	layout, err := workloads.NewLayout(c.Seed, c.Records, c.Partitions, workloads.ShapeOf(c.Topic))
	if err != nil {
		return "", err
	}
	topic := corpusTopic(corpus.ID(), c.Topic)
	var from []int64 // where the topic's log starts once ready
	if c.Topic.Case == cell.CaseDeleted {
		from = layout.DeletedBelow()
	}
	ready, err := clusters.TopicHoldsFrom(ctx, k.c, topic, layout, from)
	if err != nil {
		return "", fmt.Errorf("corpus %s: %w", topic, err)
	}
	if ready {
		return topic, nil
	}
	if _, err := clusters.Load(ctx, k.c, topic, c.Partitions, c.Records, corpus.Message,
		clusters.WithCompression(c.Topic.Value(cell.Compression)), clusters.WithLayout(layout),
		clusters.WithKeys(corpus)); err != nil {
		return "", fmt.Errorf("load corpus %s: %w", topic, err)
	}
	if from != nil {
		if err := clusters.DeleteRecords(ctx, k.c, topic, from); err != nil {
			return "", fmt.Errorf("corpus %s: %w", topic, err)
		}
	}
	return topic, nil
}
