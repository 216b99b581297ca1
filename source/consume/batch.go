package consume

import (
	"context"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
)

// Batch is one emitted Arrow record batch with the positions it covers.
// Rec belongs to the caller (Release it); the slices are reused by the
// reader and are valid until the next call to Next. A consume-only twin's
// batch (decoder none) has a nil Rec: its rows are its positions.
type Batch struct {
	Rec arrow.RecordBatch
	// Partitions and Offsets give, per row, where the record came from.
	Partitions []int32
	Offsets    []int64
	// Split is the split state after this batch: index = partition, value =
	// the partition's position, the offset of the next record to read. It
	// is past every record of the partition emitted (or failed to parse) so
	// far, and past what the client proved passed without delivering it
	// (control records, aborted records under read_committed); it never
	// exceeds the partition's stop offset.
	Split []int64
	// Bytes is the payload bytes of the batch's records.
	Bytes int64
}

// Reader drains one topic from the start offsets to the stop offsets.
type Reader interface {
	// Next returns the next batch, or io.EOF once every partition's
	// position has reached its stop offset and the last (possibly short)
	// batch was returned. A batch is never empty.
	Next(ctx context.Context) (*Batch, error)
	// Stats reports the counters collected so far.
	Stats() Stats
	// Assertions reports what the reader can prove about itself.
	Assertions() (Assertions, error)
	Close() error
}

// Stats are a reader's counters.
type Stats struct {
	// Records counts every emitted row, tombstones included; Nulls counts
	// the tombstone rows among them (records whose Kafka value is null, each
	// an all-null row). A record that does not parse is no row: it is in
	// ParseFailures, not in Records.
	Records int64
	Nulls   int64
	// Bytes is the payload bytes of the emitted rows (a tombstone has none).
	Bytes         int64
	Batches       int64
	ParseFailures int64
	// FirstParseFailure locates the first record that did not decode (nil
	// when every record did).
	FirstParseFailure *ParseFailure
	// Crossings counts cgo drain calls (fast path) and NonEmpty those that
	// returned at least one message; Polls counts per-record poll calls.
	Crossings int64
	NonEmpty  int64
	Polls     int64
	// ConsumerErrors counts transient client errors that were tolerated.
	ConsumerErrors int64
	// StatsSamples counts the librdkafka statistics documents handed to
	// source.Config.OnStats so far (its calls that returned), StatsDropped
	// those dropped because the callback was still busy with earlier ones;
	// both zero unless source.Config.Stats is set.
	StatsSamples int64
	StatsDropped int64
	// First is when the first record arrived (start of steady state).
	First time.Time
}

// Assertions are facts a reader read back from its client, so a cell can
// fail when the claim and the fact differ.
type Assertions struct {
	// Client names the client library and version, e.g. "librdkafka 2.11.1".
	Client string
	// CheckCRCs is the effective CRC setting as the client reports it.
	CheckCRCs bool
	// CheckCRCsSource says where CheckCRCs was read from.
	CheckCRCsSource string
	// Decoder is the decoder the reader runs: DecoderLab, or the stock
	// library route's name and version.
	Decoder string
	// Buffering is the client's settings that bound what it fetches
	// ahead and buffers, as read back from the running client
	// ("key=value ...").
	Buffering string
	// Drain is the librdkafka call a bulk-draining reader (fast) crosses
	// with, DrainCallbackQueue, DrainBatchQueue or DrainCallbackAhead; ""
	// for the others.
	Drain string
}

// Assertions.Drain of the fast path: its callback drain, or the
// batch-queue drain a drain=batchqueue cell measures.
const (
	DrainCallbackQueue = "rd_kafka_consume_callback_queue"
	DrainBatchQueue    = "rd_kafka_consume_batch_queue"
	// DrainCallbackAhead is the callback drain with the next crossing
	// under way while a crossing's messages are decoded (drain=ahead).
	DrainCallbackAhead = "rd_kafka_consume_callback_queue, one crossing ahead"
)

// DecoderLab is Assertions.Decoder of a reader running the lab's decoder,
// DecoderNone that of a consume-only twin, which decodes nothing.
const (
	DecoderLab  = "lab"
	DecoderNone = "none"
)
