package source

import (
	"fmt"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/confluentinc/confluent-kafka-go/v2/kafka"

	"github.com/fastpathlab/fplab/cell"
	"github.com/fastpathlab/fplab/source/consume"
	"github.com/fastpathlab/fplab/workloads"
)

// Config is what every reader needs.
type Config struct {
	Path      consume.Path
	Bootstrap []string
	// Props are extra client properties (librdkafka names) passed through
	// to the librdkafka paths untouched, e.g. security settings of an
	// external cluster. They may not override the lab's fixed settings.
	// The franz path takes only a SASL_PLAINTEXT cluster's PLAIN ones.
	Props map[string]string
	Topic string
	// Partitions is the topic's partition count; the reader assigns all.
	Partitions int
	// Start is the first offset to read per partition (nil: where StartAt
	// says). A start below a partition's log start (records deleted)
	// fails the read; it never skips ahead. Nil with Live.
	Start []int64
	// StartAt is where a read starts when Start is nil, as Apache Flink's
	// KafkaSource starts (OffsetsInitializer): StartEarliest, the zero
	// value, at the low watermarks; StartLatest at the high watermarks
	// captured at open (without Stop the read then reads nothing);
	// StartTimestamp at each partition's first record at or after
	// StartTime; StartCommitted at Group's committed offsets, Reset
	// deciding where there is none or it is out of range. Anything but
	// StartEarliest needs Start nil and Live false.
	StartAt StartMode
	// StartTime is the timestamp StartTimestamp starts at: per partition
	// the first record whose timestamp is at or after it (ListOffsets by
	// timestamp), the high watermark at open where no record is. Zero
	// unless StartAt is StartTimestamp.
	StartTime time.Time
	// Group is the consumer group whose committed offsets StartCommitted
	// starts at; nothing joins it or commits to it. On the librdkafka
	// paths it is the group.id (empty: a synthetic fplab-<path>-<time>).
	// Empty means no group, which StartCommitted refuses.
	Group string
	// Reset is what StartCommitted does for a partition without a
	// committed offset or with one out of its range [low, high watermark]
	// at open: ResetEarliest starts at the low watermark, ResetLatest at
	// the high one, ResetNone, the zero value (Flink's default), fails the
	// open with one line naming the partition, the group and the offset.
	// Zero unless StartAt is StartCommitted.
	Reset Reset
	// ClientID is the client id's prefix: every path's client runs as
	// <prefix>-<Subtask>, as Flink names subtask i's consumer (client.id on
	// librdkafka, kgo.ClientID on franz). Empty: Group, or fplab-<path>
	// without one.
	ClientID string
	// Subtask is the reader's subtask index (OpenSubtasks sets it); it
	// only names the client. 0..63.
	Subtask int
	// Stop is the offset per partition at which reading ends (nil: the high
	// watermarks captured when the reader opens): a partition is finished
	// when the consumer's position reaches it, whether the last records
	// before it were delivered or not (see the package doc). Nil with Live.
	Stop []int64
	// Live reads unbounded, the way a service consumes a topic a producer
	// keeps writing: each partition starts at its high watermark captured
	// when the reader opens (the end of the log then: nothing written
	// before is read) and has no stop. Next never returns io.EOF; it hands
	// over batches until its context ends or no message arrives for
	// Timeout. A live read needs Linger, and runs on the columnar paths
	// (shallow, fast, franz) only.
	Live bool
	// Discovery, on a live read, is how often the reader looks for
	// partitions added to the topic and joins them from their start
	// (discover.go); 0, the default, never looks. From 10 ms to 1 h.
	Discovery time.Duration
	// Linger is how long a live read's batch that holds rows may wait for
	// more: once Linger has passed since its first row was added, it is
	// handed over full or not (a full batch is handed over at once, as in
	// a bounded read). Without it a batch that is not full would wait for
	// rows forever. Zero unless Live; at most 10 s.
	Linger time.Duration
	// Batch is the number of rows per emitted batch.
	Batch int
	// CRC is the cell's check.crcs setting.
	CRC bool
	// Keys adds the records' keys and headers to every batch, as the
	// columns key and headers after the value columns
	// (workloads.KeyedSchema); without it no path reads them.
	Keys bool
	// Decoder is "" or "lab" for the codec's own columnar decoder, "stock"
	// for the format's fastest stock Go library route measured on the host
	// (workloads/stock.Best), on the shallow and fast paths only, or "none" for the path's
	// consume-only twin (shallow, fast and franz): the same drain with no
	// decoder, whose batches carry positions and a nil Rec.
	Decoder string
	// Codec decodes the messages; Mem backs the Arrow buffers.
	Codec workloads.Codec
	Mem   memory.Allocator
	// Timeout bounds opening (metadata, watermarks) and any stall while
	// draining: no message for this long is an error, never a hang. A live
	// read measures against a producer that writes continuously, so there
	// too a quiet topic for this long is an error.
	Timeout time.Duration
	// Tuning overrides the lab's librdkafka buffering bounds (tuning.go);
	// zero keeps them. librdkafka paths only.
	Tuning Tuning
	// Stats samples librdkafka's own statistics (statistics.interval.ms)
	// every Stats, in whole milliseconds from 10 ms to 1 h, on the
	// librdkafka paths (rowwise, shallow, fast; franz refuses it), and
	// hands each JSON document to OnStats. Zero, the default, samples
	// nothing: the client runs without statistics.interval.ms and no
	// path's loop or figures change. How the documents reach OnStats per
	// path, and what the fast path changes to take them, is docs/paths.md
	// ("librdkafka statistics").
	Stats time.Duration
	// OnStats takes each statistics document, a copy it may keep. It is
	// called on a goroutine of the reader's own, one call at a time in the
	// order librdkafka emitted them, never after Close returns (Close waits
	// for a call under way). It never holds up the read: while it is busy,
	// up to 4 documents wait and any more are dropped; the reader's Stats
	// count both (StatsSamples, StatsDropped). Set exactly when Stats is.
	OnStats func(json []byte)
}

// limits is the table validate checks Config against. A linger is the
// latency a live read adds to a short batch: beyond maxLinger it would be
// a batch interval, not a linger.
var limits = struct {
	minBatch, maxBatch     int
	minParts, maxParts     int
	minTimeout, maxTimeout time.Duration
	maxLinger              time.Duration
	minStats, maxStats     time.Duration
}{1, 1 << 20, 1, cell.MaxPartitions, 100 * time.Millisecond, time.Hour, 10 * time.Second,
	10 * time.Millisecond, time.Hour}

func (c *Config) validate() error {
	if _, err := consume.ParsePath(string(c.Path)); err != nil {
		return err
	}
	switch {
	case len(c.Bootstrap) == 0:
		return fmt.Errorf("no bootstrap servers")
	case c.Topic == "":
		return fmt.Errorf("no topic")
	case c.Batch < limits.minBatch || c.Batch > limits.maxBatch:
		return fmt.Errorf("batch must be %d..%d, got %d", limits.minBatch, limits.maxBatch, c.Batch)
	case c.Partitions < limits.minParts || c.Partitions > limits.maxParts:
		return fmt.Errorf("partitions must be %d..%d, got %d", limits.minParts, limits.maxParts, c.Partitions)
	case c.Timeout < limits.minTimeout || c.Timeout > limits.maxTimeout:
		return fmt.Errorf("timeout must be %v..%v, got %v", limits.minTimeout, limits.maxTimeout, c.Timeout)
	case c.Codec == nil:
		return fmt.Errorf("no codec")
	case c.Decoder != "" && c.Decoder != "lab" && c.Decoder != "stock" && c.Decoder != consume.DecoderNone:
		return fmt.Errorf("decoder must be lab, stock or none, got %q", c.Decoder)
	case c.Decoder == consume.DecoderNone && c.Path == consume.PathRowwise:
		return fmt.Errorf("decoder none (the consume-only twin) runs on the shallow, fast and franz paths, not rowwise")
	case c.Decoder == "stock" && c.Path != consume.PathShallow && c.Path != consume.PathFast:
		return fmt.Errorf("decoder stock runs on the shallow and fast paths, not %s", c.Path)
	case c.Mem == nil:
		return fmt.Errorf("no Arrow allocator")
	case c.Start != nil && len(c.Start) != c.Partitions:
		return fmt.Errorf("%d start offsets for %d partitions", len(c.Start), c.Partitions)
	case c.Stop != nil && len(c.Stop) != c.Partitions:
		return fmt.Errorf("%d stop offsets for %d partitions", len(c.Stop), c.Partitions)
	case c.Subtask < 0 || c.Subtask >= maxSubtasks:
		return fmt.Errorf("subtask must be 0..%d, got %d", maxSubtasks-1, c.Subtask)
	}
	if err := c.validateLive(); err != nil {
		return err
	}
	if err := c.validateStart(); err != nil {
		return err
	}
	if err := c.validateStats(); err != nil {
		return err
	}
	if err := c.Tuning.validate(c); err != nil {
		return err
	}
	for k := range c.Props {
		if _, fixed := fixedProps[k]; fixed {
			return fmt.Errorf("client property %q is set by the lab and cannot be overridden", k)
		}
	}
	return nil
}

// fixedProps are the librdkafka settings every librdkafka path shares; see
// librdkafkaConfig for why each has its value.
var fixedProps = map[string]bool{
	"bootstrap.servers": true, "group.id": true, "enable.auto.commit": true,
	"enable.auto.offset.store": true, "fetch.queue.backoff.ms": true,
	"check.crcs": true, "enable.partition.eof": true, "enable.metrics.push": true,
	"auto.offset.reset": true, "isolation.level": true, "client.id": true,
	// openRdk routes librdkafka's log lines away from stderr.
	"go.logs.channel.enable": true, "go.logs.channel": true, "log.queue": true,
	// Config.Stats sets it, and opens the route its documents take
	// (statsSink): without one, a statistics event would abort the fast
	// path's crossing (drain.Main).
	"statistics.interval.ms": true,
}

// librdkafkaConfig is the one configuration shared by rowwise, shallow and
// fast. Partitions are assigned explicitly (no group rebalance), so group.id
// only satisfies the high-level consumer (see Config.groupID; it is the
// Group whose committed offsets StartCommitted reads) and nothing is
// committed. client.id is Config.clientID, as Flink names the subtask's consumer.
//
//   - fetch.queue.backoff.ms=1: librdkafka's default (1000 ms) pauses a
//     partition's fetcher whenever the local queue is full; with it Poll was
//     measured at 0.16M rec/s against 1.0M with 1 ms on this machine.
//
//   - enable.metrics.push=false: client telemetry (KIP-714) is not part of
//     what is measured, and the embedded cluster does not serve it.
//
//   - enable.partition.eof=true: the EOF event carries the consumer's
//     position, which is how a bounded read ends when the tail of its range
//     is aborted records and transaction markers that read_committed never
//     delivers (see assembler).
//
//   - auto.offset.reset=error: a start below the log start (records
//     deleted) must fail the read, not silently skip to another offset;
//     librdkafka then raises ERR__AUTO_OFFSET_RESET for the partition.
//
//   - isolation.level=read_committed: librdkafka's default, pinned because
//     the franz path reads the same committed view (kgo.ReadCommitted) and
//     both must deliver the same records.
//
// consume.callback.max.messages is not set: librdkafka applies it only to
// the legacy per-partition rd_kafka_consume_callback, not to the queue drain
// the fast path uses, which moves the whole backlog per crossing.
func librdkafkaConfig(c *Config) map[string]string {
	m := map[string]string{
		"bootstrap.servers":        strings.Join(c.Bootstrap, ","),
		"group.id":                 c.groupID(),
		"client.id":                c.clientID(),
		"enable.auto.commit":       "false",
		"enable.auto.offset.store": "false",
		"fetch.queue.backoff.ms":   "1",
		"check.crcs":               fmt.Sprint(c.CRC),
		"enable.partition.eof":     "true",
		"auto.offset.reset":        "error",
		"isolation.level":          "read_committed",
	}
	for k, v := range rdkBuffering {
		m[k] = v
	}
	for k, v := range c.Tuning.props() {
		m[k] = v
	}
	if c.Stats > 0 {
		m["statistics.interval.ms"] = fmt.Sprint(c.Stats.Milliseconds())
	}
	for k, v := range c.Props {
		m[k] = v
	}
	return m
}

// ClientOf names the client library and version a path runs on.
func ClientOf(p consume.Path) string {
	if p == consume.PathFranz {
		return "franz-go"
	}
	_, v := kafka.LibraryVersion()
	return "librdkafka " + v
}
