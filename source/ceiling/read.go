package ceiling

import (
	"context"
	"fmt"

	"github.com/twmb/franz-go/pkg/kgo"
)

// Read fetches every partition of cfg.Topic from its log start to its high
// watermark, both captured at open, and counts what the brokers served. It
// returns when every partition's position has reached its stop, or with one
// error line (and a zero Result) when the topic is
// unknown or has another partition count, a fetch answers a partition with
// an error, a partition has no leader after repeated metadata refreshes,
// nothing progresses for cfg.Timeout, or ctx ends. The client is closed and
// no request is left running when it returns.
//
// The stop is the high watermark (ListOffsets latest with read_uncommitted,
// the same stop the lab's consume paths capture) and the fetches are
// read_uncommitted as well: the broker serves the same batches under both
// isolation levels once no transaction is open, as in a loaded corpus, but
// read_committed would add the broker's aborted-transaction index lookups
// to the figure (a ceiling must not be below what a path could reach) and
// would stall, never reaching a high-watermark stop, behind a transaction
// left open. Aborted transactions' records are counted like any other;
// nothing is filtered since nothing is decoded.
func Read(ctx context.Context, cfg Config) (Result, error) {
	cfg = cfg.withDefaults()
	if err := cfg.validate(); err != nil {
		return Result{}, err
	}
	opts := []kgo.Opt{
		kgo.SeedBrokers(cfg.Bootstrap...),
		kgo.ClientID("fplab-ceiling"),
		kgo.DialTimeout(cfg.Timeout),
		kgo.RetryTimeout(cfg.Timeout),
		// A response may exceed FetchMaxBytes by its first batch
		// (KIP-74) and its framing; kgo refuses larger reads.
		kgo.BrokerMaxReadBytes(maxReadBytes(cfg.FetchMaxBytes)),
	}
	if o, _ := saslOpt(cfg.Props); o != nil { // validated above
		opts = append(opts, o)
	}
	cl, err := kgo.NewClient(opts...)
	if err != nil {
		return Result{}, fmt.Errorf("franz-go client: %w", err)
	}
	defer cl.Close()
	r := &reader{cfg: cfg, cl: cl}
	if err := r.open(ctx); err != nil {
		return Result{}, err
	}
	if err := r.drain(ctx); err != nil {
		return Result{}, err
	}
	return r.res, nil
}

// maxReadBytes is the largest response Read accepts for a fetch size:
// twice it, at least kgo's default of 100 MiB, at most what an int32 holds.
func maxReadBytes(fetchMax int32) int32 {
	n := max(2*int64(fetchMax), 100<<20)
	return int32(min(n, 1<<31-1))
}

// reader is one Read's state. Only the goroutine running Read touches it;
// fetches in flight work on copies (see fetch).
type reader struct {
	cfg     Config
	cl      *kgo.Client
	topicID [16]byte // from metadata; zero before Kafka 2.8
	parts   []part   // by partition id
	res     Result
}

// part is one partition's read.
type part struct {
	id            int32
	leader, epoch int32 // leader -1: unknown, refresh metadata
	start, stop   int64
	pos           int64 // the next offset to fetch
	done          bool  // pos reached stop, or nothing in [pos, stop) remains
	busy          bool  // in a Fetch in flight
	// lost counts the metadata refreshes this partition needed since it
	// last progressed; why is the last error that sent it there.
	lost int
	why  string
}
