package source

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/fastpathlab/fplab/cell"
	"github.com/fastpathlab/fplab/source/consume"
)

// Tuning overrides three of the lab's librdkafka buffering bounds
// (rdkBuffering) and the fast path's drain call for one read, so a ladder can sweep what the client
// fetches ahead against what the reader takes per crossing (issue 28,
// docs/optimizations.md). A zero field keeps the lab's setting. Only the
// librdkafka paths (rowwise, shallow, fast) take one: franz refuses it.
// The values are read back from the running client (assertions), and a
// client that runs with other values fails the read.
type Tuning struct {
	// PartitionFetchBytes is max.partition.fetch.bytes: the most one fetch
	// response brings per partition.
	PartitionFetchBytes int
	// QueuedMinMessages is queued.min.messages: the messages per partition
	// the client prefetches before it stops fetching for it; the fast
	// path's drain moves at most what is queued per crossing.
	QueuedMinMessages int
	// FetchWait is fetch.wait.max.ms, whole milliseconds: how long a
	// broker may hold a fetch for fetch.min.bytes (1 byte here).
	FetchWait time.Duration
	// BatchQueue makes the fast path cross with
	// rd_kafka_consume_batch_queue, a batch at most per crossing, instead
	// of its callback drain (drain.UseBatchQueue); fast only.
	BatchQueue bool
	// Ahead makes the fast path start its next crossing, on a second
	// drain, while it decodes the one it took (ahead.go); fast only,
	// bounded reads only.
	Ahead bool
}

// tuningLimits are librdkafka 2.11's own ranges for the three properties
// (CONFIGURATION.md): a value outside them fails rd_kafka_conf_set, so it
// is refused here first with the property named.
var tuningLimits = struct {
	maxPartFetch, maxQueueMin int
	maxFetchWait              time.Duration
}{1_000_000_000, 10_000_000, 300 * time.Second}

// IsZero reports whether the read runs with the lab's settings.
func (t Tuning) IsZero() bool { return t == Tuning{} }

// TuningOf is the tuning a cell asks for: its partfetch, queuemin and
// fetchwait, and on the fast path the drain it names or, naming none, the
// fast path's default for its read (cell.FastDrain: ahead where a bounded
// read decodes).
func TuningOf(c cell.Cell) Tuning {
	d := c.FastDrain()
	return Tuning{PartitionFetchBytes: c.PartFetch, QueuedMinMessages: c.QueueMin, FetchWait: c.FetchWait,
		BatchQueue: d == cell.DrainBatchQueue, Ahead: d == cell.DrainAhead}
}

func (t Tuning) validate(c *Config) error {
	switch {
	case t.IsZero():
		return nil
	case c.Path == consume.PathFranz:
		return fmt.Errorf("librdkafka tuning (partfetch, queuemin, fetchwait, drain) runs on the librdkafka paths, not franz")
	case t.BatchQueue && c.Path != consume.PathFast:
		return fmt.Errorf("drain=batchqueue is the fast path's crossing; path %s polls", c.Path)
	case t.Ahead && c.Path != consume.PathFast:
		return fmt.Errorf("drain=ahead is the fast path's crossing; path %s polls", c.Path)
	case t.Ahead && t.BatchQueue:
		return fmt.Errorf("drain=ahead crosses with the callback drain, not the batch-queue one")
	case t.Ahead && c.Live:
		return fmt.Errorf("drain=ahead runs on bounded reads: a crossing ahead waits out its poll, which a live batch's linger cannot")
	case t.PartitionFetchBytes < 0 || t.PartitionFetchBytes > tuningLimits.maxPartFetch:
		return fmt.Errorf("max.partition.fetch.bytes must be 1..%d, got %d", tuningLimits.maxPartFetch, t.PartitionFetchBytes)
	case t.QueuedMinMessages < 0 || t.QueuedMinMessages > tuningLimits.maxQueueMin:
		return fmt.Errorf("queued.min.messages must be 1..%d, got %d", tuningLimits.maxQueueMin, t.QueuedMinMessages)
	case t.FetchWait < 0 || t.FetchWait > tuningLimits.maxFetchWait || t.FetchWait%time.Millisecond != 0:
		return fmt.Errorf("fetch.wait.max.ms must be whole milliseconds up to %v, got %v", tuningLimits.maxFetchWait, t.FetchWait)
	}
	for k := range t.props() {
		if _, set := c.Props[k]; set {
			return fmt.Errorf("client property %q is given twice, as a property and as the cell's tuning", k)
		}
	}
	return nil
}

// props are the librdkafka properties the tuning sets.
func (t Tuning) props() map[string]string {
	m := map[string]string{}
	if t.PartitionFetchBytes > 0 {
		m["max.partition.fetch.bytes"] = strconv.Itoa(t.PartitionFetchBytes)
	}
	if t.QueuedMinMessages > 0 {
		m["queued.min.messages"] = strconv.Itoa(t.QueuedMinMessages)
	}
	if t.FetchWait > 0 {
		m["fetch.wait.max.ms"] = strconv.FormatInt(t.FetchWait.Milliseconds(), 10)
	}
	return m
}

// check holds the buffering line read back from the client (buffering) to
// the tuning: every property the tuning sets must be there with its value.
func (t Tuning) check(readBack string) error {
	got := map[string]string{}
	for _, kv := range strings.Fields(readBack) {
		k, v, _ := strings.Cut(kv, "=")
		got[k] = v
	}
	for k, v := range t.props() {
		if got[k] != v {
			return fmt.Errorf("the client runs with %s=%s, not the cell's %s", k, got[k], v)
		}
	}
	return nil
}
