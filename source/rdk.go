package source

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/confluentinc/confluent-kafka-go/v2/kafka"

	"github.com/fastpathlab/fplab/source/consume"
	"github.com/fastpathlab/fplab/source/internal/drain"
)

// rdkConsumer is a confluent-kafka-go consumer set up the one way every
// librdkafka path shares: metadata warmed, partitions assigned explicitly.
type rdkConsumer struct {
	c     *kafka.Consumer
	topic string
	start []int64
	stop  []int64
	// tps is position's reused query
	tps []kafka.TopicPartition
	// With Config.Stats: stats takes the statistics documents to OnStats,
	// and on the fast path main serves the main queue they arrive on (see
	// stats.go). Both nil otherwise.
	stats *statsSink
	main  *mainPoller
	// waker ends a wait on the consumer queue when a Next's context ends
	// (wake): cancellation and wake-up do not wait out a poll timeout.
	waker *drain.Waker
	// disc schedules partition discovery (nil: off; discover.go)
	disc *discovery
	// timeout bounds a call that waits on the client (Config.Timeout)
	timeout time.Duration
}

func openRdk(cfg *Config) (*rdkConsumer, error) {
	cm := kafka.ConfigMap{}
	for k, v := range librdkafkaConfig(cfg) {
		cm[k] = v
	}
	// librdkafka's log lines (connection refused, broker down, ...) would
	// go to stderr, where a failing cell promises one formatted line: send
	// them to a channel (confluent-kafka-go also sets log.queue, so lines
	// logged while the client is created wait for it) and drop them. The
	// lab reports errors from the API calls and error events instead.
	cm["go.logs.channel.enable"] = true
	c, err := kafka.NewConsumer(&cm)
	if err != nil {
		return nil, fmt.Errorf("librdkafka consumer: %w", err)
	}
	go dropLogs(c.Logs())
	r := &rdkConsumer{c: c, topic: cfg.Topic, timeout: cfg.Timeout, disc: startDiscovery(cfg.Discovery, cfg.Timeout, rdkPartitions(c, cfg.Topic))}
	if r.waker, err = drain.NewWaker(c); err != nil {
		r.close()
		return nil, err
	}
	if !cfg.Tuning.IsZero() {
		// the cell claims these settings: hold the running client to them
		buf, err := r.buffering()
		if err == nil {
			err = cfg.Tuning.check(buf)
		}
		if err != nil {
			r.close()
			return nil, err
		}
	}
	if cfg.Stats > 0 {
		// before setup assigns anything: the fast path's main queue is
		// taken off the consumer queue while that holds no message
		if err := r.sampleStats(cfg); err != nil {
			r.close()
			return nil, err
		}
	}
	if err := r.setup(cfg); err != nil {
		r.close()
		return nil, err
	}
	return r, nil
}

// sampleStats opens the route of cfg's statistics documents to OnStats
// (stats.go): the sink, and on the fast path the main-queue poller.
func (r *rdkConsumer) sampleStats(cfg *Config) error {
	r.stats = newStatsSink(cfg.OnStats)
	if cfg.Path != consume.PathFast {
		return nil
	}
	m, err := drain.Detach(r.c)
	if err != nil {
		return err
	}
	r.main = newMainPoller(m, r.stats, r.tolerated)
	return nil
}

// close closes the consumer and what sampleStats started: the poller
// first (it gives the main queue back to the consumer queue, which the
// consumer's Close serves), the sink last (it waits for OnStats).
func (r *rdkConsumer) close() error {
	r.disc.close()
	if r.waker != nil {
		r.waker.Close()
	}
	if r.main != nil {
		r.main.close()
	}
	err := r.c.Close()
	if r.stats != nil {
		r.stats.close()
	}
	return err
}

// wake makes the consumer queue's current (or next) wait return at once
// when ctx ends, until the returned stop is called: a reader's Next defers
// it, so a cancel or a wake-up reaches a Next blocked in librdkafka
// without waiting out its poll timeout (drain.Waker).
func (r *rdkConsumer) wake(ctx context.Context) (stop func() bool) {
	return context.AfterFunc(ctx, r.waker.Wake)
}

// offerStats is a Poll path's *kafka.Stats event: a copy goes to the sink.
// Only a reader with Config.Stats gets the events.
func (r *rdkConsumer) offerStats(e *kafka.Stats) {
	if r.stats != nil {
		r.stats.offer([]byte(e.String()))
	}
}

// dropLogs drains a consumer's log channel until Close closes it.
func dropLogs(logs <-chan kafka.LogEvent) {
	for range logs {
	}
}

func (r *rdkConsumer) setup(cfg *Config) error {
	ms := int(cfg.Timeout / time.Millisecond)
	// Warm metadata before assigning: a cold assign waits for the leader
	// lookup (~0.5 s measured here) inside what would be the first fetch.
	md, err := r.c.GetMetadata(&cfg.Topic, false, ms)
	if err != nil {
		return fmt.Errorf("metadata from %s: %w", strings.Join(cfg.Bootstrap, ","), err)
	}
	tm, ok := md.Topics[cfg.Topic]
	if !ok || tm.Error.Code() == kafka.ErrUnknownTopicOrPart || tm.Error.Code() == kafka.ErrUnknownTopic {
		return fmt.Errorf("topic %q does not exist", cfg.Topic)
	}
	if tm.Error.Code() != kafka.ErrNoError {
		return fmt.Errorf("topic %q: %w", cfg.Topic, tm.Error)
	}
	if len(tm.Partitions) != cfg.Partitions {
		return fmt.Errorf("topic %q has %d partitions, cell expects %d", cfg.Topic, len(tm.Partitions), cfg.Partitions)
	}
	r.start, r.stop, err = bounds(cfg, func() ([]int64, []int64, error) { return r.watermarks(cfg, ms) },
		rdkStart{c: r.c, topic: cfg.Topic, parts: cfg.Partitions, ms: ms})
	if err != nil {
		return err
	}
	// A partition whose range is empty (start at or past stop) is finished
	// before it is read: it is not assigned, so it is never fetched (a
	// start past the log end would be out of range). A live read's ranges
	// are never empty: every partition is assigned at its end.
	var tps []kafka.TopicPartition
	for p := range r.start {
		if r.start[p] < r.stop[p] {
			tps = append(tps, kafka.TopicPartition{Topic: &cfg.Topic, Partition: int32(p), Offset: kafka.Offset(r.start[p])})
		}
	}
	if len(tps) == 0 {
		return nil
	}
	if err := r.c.Assign(tps); err != nil {
		return fmt.Errorf("assign: %w", err)
	}
	return nil
}

// positionShortcut enables position; tests turn it off to see the EOF
// events end a read by themselves.
var positionShortcut = true

// position moves every unfinished partition of a to librdkafka's
// position there: the offset after the last message handed to the
// application, control messages included. librdkafka handles a
// transaction marker itself and never delivers it, but it moves this
// position past the marker, so after an aborted tail the position is the
// partition's end while the EOF event is still a fetch wait
// (fetch.wait.max.ms) away. A reader calls it when a poll or crossing
// brought nothing, so every message before that position was taken. It is
// a shortcut, not the proof of last resort: if the query fails, the EOF
// event still comes.
//
// A live read does not take it: there it ends nothing, and no stop caps
// what it reports, so a position the client reported ahead of its next
// delivery would drop the records in between as read already: from 2.2.0
// until 2.13.2 librdkafka reported one past the EOF event's offset after
// rd_kafka_consume_batch served an EOF event (librdkafka issue #4844). The
// lab's routes (Poll, the callback drain) never did, but a live read would
// not show it if one did. Its EOF events still move a live read's
// positions.
func (r *rdkConsumer) position(a *assembler) {
	if !positionShortcut || a.live() {
		return
	}
	r.tps = r.tps[:0]
	for p := range a.pos {
		if a.pos[p] < a.stop[p] {
			r.tps = append(r.tps, kafka.TopicPartition{Topic: &r.topic, Partition: int32(p)})
		}
	}
	if len(r.tps) == 0 {
		return
	}
	tps, err := r.c.Position(r.tps)
	if err != nil {
		return
	}
	for _, tp := range tps {
		if tp.Error == nil && tp.Offset >= 0 && a.check(tp.Partition) == nil && !a.held(tp.Partition) {
			a.advance(tp.Partition, int64(tp.Offset))
		}
	}
}

// bounds resolves start and stop offsets: the configured ones, or those
// of the low and high watermarks read when the reader opens: the start by
// Config.StartAt (resolveStart, which asks fetch what its mode needs), the
// stop the high watermark. The watermarks are only asked for when a
// configured bound is missing. A live read's are liveBounds.
func bounds(cfg *Config, watermarks func() (lo, hi []int64, err error), fetch startFetcher) (start, stop []int64, err error) {
	if cfg.Live {
		return liveBounds(watermarks)
	}
	start, stop = cfg.Start, cfg.Stop
	if start == nil || stop == nil {
		lo, hi, err := watermarks()
		if err != nil {
			return nil, nil, err
		}
		if stop == nil {
			stop = hi
		}
		if start == nil {
			if start, err = resolveStart(cfg, lo, hi, stop, fetch); err != nil {
				return nil, nil, err
			}
		}
	}
	return append([]int64(nil), start...), append([]int64(nil), stop...), nil
}

// watermarks queries every partition's low and high watermark.
func (r *rdkConsumer) watermarks(cfg *Config, ms int) (lo, hi []int64, err error) {
	lo = make([]int64, cfg.Partitions)
	hi = make([]int64, cfg.Partitions)
	for p := range lo {
		lo[p], hi[p], err = r.c.QueryWatermarkOffsets(cfg.Topic, int32(p), ms)
		if err != nil {
			return nil, nil, fmt.Errorf("watermarks of %s/%d: %w", cfg.Topic, p, err)
		}
	}
	return lo, hi, nil
}

// assertions reads back what librdkafka actually runs with.
func (r *rdkConsumer) assertions() (consume.Assertions, error) {
	v, err := drain.Conf(r.c, "check.crcs")
	if err != nil {
		return consume.Assertions{}, err
	}
	buf, err := r.buffering()
	if err != nil {
		return consume.Assertions{}, err
	}
	return consume.Assertions{
		Client:          ClientOf(consume.PathFast),
		CheckCRCs:       v == "true",
		CheckCRCsSource: "rd_kafka_conf_get(rd_kafka_conf(rk), \"check.crcs\") = " + v,
		Buffering:       buf,
	}, nil
}

// transient reports client errors a reader tolerates: the client retries
// them itself (a broker restarting, a connection dropped). Everything else
// ends the read with one error line: authorization and authentication
// failures, an offset out of range (auto.offset.reset=error), an unknown
// topic or partition. A partition EOF is not an error at all: the paths
// take it as the consumer's position before they look at errors.
func transient(code kafka.ErrorCode) bool {
	switch code {
	case kafka.ErrTransport, kafka.ErrAllBrokersDown, kafka.ErrResolve,
		kafka.ErrTimedOut, kafka.ErrNotLeaderForPartition,
		kafka.ErrLeaderNotAvailable, kafka.ErrNetworkException:
		return true
	}
	return false
}

// tolerated reports whether a client error leaves the read going: a
// transient one, or a group authorization failure. The read never depends
// on its group: librdkafka looks up the coordinator of its group.id in the
// background (the synthetic one, groupID, when Config.Group is empty),
// and a user without rights on the group is refused that lookup
// (FindCoordinator), though the read never joins the group. Where the
// group is used, the failure is that use's own: a committed start fails
// its open (rdkStart.committed), a commit returns it (CommitOffsets), as
// Flink reports a failed commit without failing the job.
func (r *rdkConsumer) tolerated(code kafka.ErrorCode) bool {
	return transient(code) || code == kafka.ErrGroupAuthorizationFailed
}

// rdkError turns a librdkafka consumer error that ends the read into its
// one line: an offset out of range names the partition and offset.
func rdkError(path consume.Path, code kafka.ErrorCode, p int32, off int64, cause error) error {
	if code == kafka.ErrAutoOffsetReset && p >= 0 {
		return outOfRange(path, p, off, cause)
	}
	if p >= 0 {
		return fmt.Errorf("%s: partition %d: librdkafka: %w", path, p, cause)
	}
	return fmt.Errorf("%s: librdkafka: %w", path, cause)
}
