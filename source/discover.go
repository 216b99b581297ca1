package source

import (
	"context"
	"fmt"
	"time"

	"github.com/confluentinc/confluent-kafka-go/v2/kafka"
	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
)

// Partition discovery (Config.Discovery), what Flink's KafkaSource does
// with partition.discovery.interval.ms on an unbounded read: at most once
// per interval, before a wait for messages, a live reader asks the
// broker how many partitions its topic has. Partitions added since it
// opened join the read from offset 0, their start (a partition created
// while the topic is read holds only what was written after), so nothing
// written to them is lost: the assembler grows (positions, split state),
// the client adds them to its assignment (librdkafka's incremental
// assign, franz-go's AddConsumePartitions), and from then on every Batch's
// Split has an entry per partition. Partitions are never removed (Kafka
// cannot), and a bounded read never discovers: its range is fixed at open.

// Discovery's bounds: a metadata request per interval at most, and an
// interval a test can drive.
var discoveryLimits = struct{ min, max time.Duration }{10 * time.Millisecond, time.Hour}

// discovery is a reader's schedule of looks.
type discovery struct {
	every time.Duration
	next  time.Time
}

func newDiscovery(every time.Duration) *discovery {
	if every <= 0 {
		return nil
	}
	return &discovery{every: every, next: time.Now().Add(every)}
}

// due reports whether a look is due, and schedules the next one.
func (d *discovery) due() bool {
	if d == nil {
		return false
	}
	now := time.Now()
	if now.Before(d.next) {
		return false
	}
	d.next = now.Add(d.every)
	return true
}

// grow adds partitions [len(pos), n) to the read, from offset 0, with no
// stop (a live read's).
func (a *assembler) grow(n int) {
	for p := len(a.pos); p < n; p++ {
		a.pos = append(a.pos, 0)
		a.stop = append(a.stop, unbounded)
		a.out.Split = append(a.out.Split, 0)
		a.remaining++
		if a.ps.paused != nil {
			a.ps.paused = append(a.ps.paused, false)
			a.ps.stale = append(a.ps.stale, false)
		}
	}
}

// discover looks up the topic's partitions with librdkafka and assigns the
// new ones from offset 0.
func (r *rdkConsumer) discover(a *assembler, cfg *Config) error {
	if !r.disc.due() {
		return nil
	}
	md, err := r.c.GetMetadata(&cfg.Topic, false, int(cfg.Timeout/time.Millisecond))
	if err != nil {
		return fmt.Errorf("discovery: metadata of %q: %w", cfg.Topic, err)
	}
	n := len(md.Topics[cfg.Topic].Partitions)
	if n <= len(a.pos) {
		return nil
	}
	var tps []kafka.TopicPartition
	for p := len(a.pos); p < n; p++ {
		tps = append(tps, kafka.TopicPartition{Topic: &r.topic, Partition: int32(p), Offset: 0})
	}
	if err := r.c.IncrementalAssign(tps); err != nil {
		return fmt.Errorf("discovery: assign partitions %d..%d: %w", len(a.pos), n-1, err)
	}
	a.grow(n)
	cfg.Partitions = n
	return nil
}

// discover looks up the topic's partitions with franz-go and adds the new
// ones from offset 0.
func (r *franzReader) discover(ctx context.Context) error {
	if !r.disc.due() {
		return nil
	}
	a, cfg := r.a, r.cfg
	mctx, cancel := context.WithTimeout(ctx, cfg.Timeout)
	defer cancel()
	tds, err := kadm.NewClient(r.cl).ListTopics(mctx, cfg.Topic)
	if err == nil {
		err = tds.Error()
	}
	if err != nil {
		return fmt.Errorf("discovery: metadata of %q: %w", cfg.Topic, err)
	}
	n := len(tds[cfg.Topic].Partitions)
	if n <= len(a.pos) {
		return nil
	}
	offs := map[int32]kgo.Offset{}
	for p := len(a.pos); p < n; p++ {
		offs[int32(p)] = kgo.NewOffset().At(0)
	}
	r.cl.AddConsumePartitions(map[string]map[int32]kgo.Offset{cfg.Topic: offs})
	a.grow(n)
	cfg.Partitions = n
	return nil
}
