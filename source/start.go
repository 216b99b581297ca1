package source

import (
	"fmt"
	"strconv"
	"time"
)

// Where a bounded read starts when Config.Start is nil follows Apache
// Flink's KafkaSource (OffsetsInitializer), so every path starts where a
// Flink job given the same settings would: resolveStart is the one rule,
// the paths only fetch what it needs (start_fetch.go).

// StartMode says where a read starts when Config.Start is nil.
type StartMode string

const (
	// StartEarliest starts every partition at its log start (the low
	// watermark at open); it is the zero value.
	StartEarliest StartMode = ""
	// StartLatest starts every partition at its high watermark captured
	// at open: a bounded read without Stop then reads nothing.
	StartLatest StartMode = "latest"
	// StartTimestamp starts every partition at its first record whose
	// timestamp is at or after Config.StartTime; a partition without one
	// starts at its high watermark at open.
	StartTimestamp StartMode = "timestamp"
	// StartCommitted starts every partition at Config.Group's committed
	// offset; where there is none, or it is out of the partition's range
	// [low, high watermark] at open, Config.Reset decides.
	StartCommitted StartMode = "committed"
)

// Reset is what StartCommitted does for a partition whose committed offset
// is absent or out of range, Kafka's auto.offset.reset.
type Reset string

const (
	// ResetNone fails the open, as Flink's committedOffsets() does by
	// default; it is the zero value.
	ResetNone Reset = ""
	// ResetEarliest starts the partition at its low watermark.
	ResetEarliest Reset = "earliest"
	// ResetLatest starts the partition at its high watermark.
	ResetLatest Reset = "latest"
)

// validateStart checks the start mode settings against the rest of the
// Config.
func (c *Config) validateStart() error {
	switch c.StartAt {
	case StartEarliest, StartLatest, StartTimestamp, StartCommitted:
	default:
		return fmt.Errorf("start mode must be earliest (empty), latest, timestamp or committed, got %q", c.StartAt)
	}
	switch c.Reset {
	case ResetNone, ResetEarliest, ResetLatest:
	default:
		return fmt.Errorf("reset must be none (empty), earliest or latest, got %q", c.Reset)
	}
	switch {
	case c.StartAt != StartEarliest && c.Live:
		return fmt.Errorf("a live read starts at the end of the log: start mode %s must not be set", c.StartAt)
	case c.StartAt != StartEarliest && c.Start != nil:
		return fmt.Errorf("start mode %s and start offsets are both set: offsets are the start", c.StartAt)
	case c.StartAt == StartCommitted && c.Group == "":
		return fmt.Errorf("start at committed offsets needs a group id")
	case c.StartAt == StartTimestamp && c.StartTime.IsZero():
		return fmt.Errorf("start at a timestamp needs a start time")
	case c.StartAt != StartTimestamp && !c.StartTime.IsZero():
		return fmt.Errorf("start time applies to start at a timestamp only")
	case c.StartAt == StartTimestamp && c.StartTime.UnixMilli() < 0:
		return fmt.Errorf("start time must not be before 1970, got %v", c.StartTime)
	case c.Reset != ResetNone && c.StartAt != StartCommitted:
		return fmt.Errorf("reset applies to start at committed offsets only")
	}
	return nil
}

// startFetcher asks the cluster what a start mode needs; resolveStart
// calls only the method its mode needs, once.
type startFetcher interface {
	// forTime is every partition's first offset whose timestamp is at
	// or after ms (milliseconds since the epoch), -1 where no record is.
	forTime(ms int64) ([]int64, error)
	// committed is group's committed offset of every partition, -1
	// where it has none.
	committed(group string) ([]int64, error)
}

// noOffset is a fetcher's answer for a partition without one.
const noOffset = -1

// resolveStart is where each partition starts by cfg's StartAt, given the
// low and high watermarks captured at open and the read's stop, as
// Flink's KafkaSource starts:
//
//   - earliest: lo; latest: hi.
//   - timestamp: the first offset whose timestamp is at or after
//     StartTime (ListOffsets by timestamp), hi where no record is.
//   - committed: the Group's committed offset when it lies in [lo, hi]
//     (hi included: the read starts at the end); one at or past the
//     partition's stop finishes it at once, whatever Reset says;
//     otherwise Reset (absent or out of range alike): earliest lo, latest
//     hi, none an error naming the partition, the group and the offset.
//
// The stop rule is Flink's reader's: it takes the committed offset as
// the consumer's position and finishes a split whose position is at or
// past its stopping offset before it fetches, so the reset (which Kafka's
// consumer applies only when a fetch answers out of range) never runs.
// Flink 2.2's bounded job, run on the same case by the flink rung, reads
// nothing and does not fail (docs/parity.md).
func resolveStart(cfg *Config, lo, hi, stop []int64, fetch startFetcher) ([]int64, error) {
	start := make([]int64, len(lo))
	switch cfg.StartAt {
	case StartEarliest:
		copy(start, lo)
	case StartLatest:
		copy(start, hi)
	case StartTimestamp:
		offs, err := fetch.forTime(cfg.StartTime.UnixMilli())
		if err != nil {
			return nil, err
		}
		for p := range start {
			start[p] = offs[p]
			if offs[p] < 0 {
				start[p] = hi[p]
			}
		}
	case StartCommitted:
		offs, err := fetch.committed(cfg.Group)
		if err != nil {
			return nil, err
		}
		for p := range start {
			if offs[p] >= stop[p] {
				start[p] = stop[p]
				continue
			}
			if start[p], err = committedStart(cfg, p, offs[p], lo[p], hi[p]); err != nil {
				return nil, err
			}
		}
	default:
		return nil, fmt.Errorf("unknown start mode %q", cfg.StartAt)
	}
	return start, nil
}

// committedStart is partition p's start from its committed offset off.
func committedStart(cfg *Config, p int, off, lo, hi int64) (int64, error) {
	if off >= lo && off <= hi {
		return off, nil
	}
	switch cfg.Reset {
	case ResetEarliest:
		return lo, nil
	case ResetLatest:
		return hi, nil
	}
	if off < 0 {
		return 0, fmt.Errorf("start at committed offsets: %s/%d: group %q has no committed offset and reset is none",
			cfg.Topic, p, cfg.Group)
	}
	return 0, fmt.Errorf("start at committed offsets: %s/%d: group %q committed offset %d is out of range [%d, %d] and reset is none",
		cfg.Topic, p, cfg.Group, off, lo, hi)
}

// clientID is the client id every path sets, as Flink's KafkaSource
// names subtask i's consumer: <prefix>-<Subtask>, the prefix ClientID,
// else Group, else fplab-<path>.
func (c *Config) clientID() string {
	prefix := c.ClientID
	if prefix == "" {
		prefix = c.Group
	}
	if prefix == "" {
		prefix = "fplab-" + string(c.Path)
	}
	return prefix + "-" + strconv.Itoa(c.Subtask)
}

// groupID is the librdkafka paths' group.id: Group, else a synthetic one
// of the path and the time. It cannot be dropped: confluent-kafka-go's
// NewConsumer refuses a consumer without group.id, and librdkafka's
// assign needs a consumer group handle. With it librdkafka looks up the
// group's coordinator in the background, though it never joins the group
// and commits nothing (enable.auto.commit=false, explicit assignment).
func (c *Config) groupID() string {
	if c.Group != "" {
		return c.Group
	}
	return fmt.Sprintf("fplab-%s-%d", c.Path, time.Now().UnixNano())
}
