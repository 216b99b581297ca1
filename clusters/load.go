package clusters

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/fastpathlab/fplab/workloads"
)

// LoadStats is what Load wrote and how long it took (topic set-up included).
type LoadStats struct {
	Records  int64
	Bytes    int64 // value bytes
	Duration time.Duration
}

// RecordsPerSec is Records over Duration.
func (s LoadStats) RecordsPerSec() float64 {
	if s.Duration <= 0 {
		return 0
	}
	return float64(s.Records) / s.Duration.Seconds()
}

// LoadOpt tunes Load.
type LoadOpt func(*loadConfig)

type loadConfig struct {
	generators      int
	linger          time.Duration
	batchBytes      int32
	replication     int16
	maxBuffered     int
	deliveryTimeout time.Duration
	compression     string
	layout          *workloads.Layout
	meta            func(i int, r *kgo.Record)
}

func defaultLoadConfig() loadConfig {
	return loadConfig{
		generators:      runtime.GOMAXPROCS(0),
		linger:          20 * time.Millisecond,
		batchBytes:      1_000_000, // under every broker's default message.max.bytes
		replication:     -1,        // the broker's default.replication.factor
		maxBuffered:     200_000,
		deliveryTimeout: 2 * time.Minute,
	}
}

// WithGenerators sets how many goroutines call the message func (default
// GOMAXPROCS, never more than the partition count).
func WithGenerators(n int) LoadOpt { return func(c *loadConfig) { c.generators = n } }

// WithLinger sets the producer linger (default 20ms).
func WithLinger(d time.Duration) LoadOpt { return func(c *loadConfig) { c.linger = d } }

// WithBatchBytes sets the producer's maximum batch size (default 1,000,000
// bytes, which every broker's default message.max.bytes accepts).
func WithBatchBytes(b int32) LoadOpt { return func(c *loadConfig) { c.batchBytes = b } }

// WithReplicationFactor sets the new topic's replication factor (default
// -1: the broker's default; the embedded cluster uses 1).
func WithReplicationFactor(rf int16) LoadOpt { return func(c *loadConfig) { c.replication = rf } }

// WithCompression sets the codec the producer compresses batches with:
// none (the default), gzip, snappy, lz4 or zstd (cell.Compressions). Load
// refuses any other name.
func WithCompression(codec string) LoadOpt { return func(c *loadConfig) { c.compression = codec } }

// WithLayout makes Load write record i where l places it (l.Place) instead
// of to partition i % partitions, the layout's tombstones (l.Null) as null
// values, and, when l has transactions, in l's transactions, each
// committed or aborted as l says. Load's partitions and n must be
// l.Partitions() and l.Count(), and after the load every partition's high
// watermark must be l.End(p) or Load fails. Without WithLayout, Load
// writes the zero Shape's layout and checks no offset.
func WithLayout(l *workloads.Layout) LoadOpt { return func(c *loadConfig) { c.layout = l } }

// WithRecordMeta has Load call meta(i, r) for every record i it writes,
// tombstones included, before producing it: meta sets what the record
// carries besides its value and place (its key and headers), and must not
// touch r's topic, partition or value. It is called from several
// goroutines at once. Append calls it too, with i the record's index in
// its partition's list of values.
func WithRecordMeta(meta func(i int, r *kgo.Record)) LoadOpt {
	return func(c *loadConfig) { c.meta = meta }
}

// WithKeys writes a keyed corpus's keys and headers (workloads.Keys) with
// its records, tombstones included, as Kafka compaction keeps them; the
// records of a corpus without keys get none. It is WithRecordMeta with
// KeysOf(c).
func WithKeys(c *workloads.Corpus) LoadOpt { return WithRecordMeta(KeysOf(c)) }

// KeysOf is the record meta func (WithRecordMeta) that gives record i
// corpus c's key and headers of record i; nil for a corpus without keys.
func KeysOf(c *workloads.Corpus) func(i int, r *kgo.Record) {
	if !c.Keyed() {
		return nil
	}
	return func(i int, r *kgo.Record) {
		r.Key = c.Key(nil, i)
		hs := c.Headers(nil, i)
		r.Headers = make([]kgo.RecordHeader, len(hs))
		for k, h := range hs {
			r.Headers[k] = kgo.RecordHeader{Key: h.Key, Value: h.Value}
		}
	}
}

// WithDeliveryTimeout bounds how long any record may wait for the cluster
// to accept it before Load fails (default 2 minutes).
func WithDeliveryTimeout(d time.Duration) LoadOpt {
	return func(c *loadConfig) { c.deliveryTimeout = d }
}

// Load creates topic with partitions partitions and produces records
// i = 0..n-1, record i to partition i % partitions and in order within each
// partition, so that (partition p, offset o) holds record o*partitions+p;
// WithLayout places them by a workloads.Layout instead. The value of
// record i is message(dst, i): it appends to dst and returns the result,
// and is called from several goroutines at once (never for a layout's
// tombstones); WithKeys (WithRecordMeta) adds keys and headers. Production is idempotent (transactional for a layout with
// transactions), uncompressed unless WithCompression says otherwise. An
// existing topic is accepted only when it has that partition count and is
// empty; callers skip Load when TopicReady (TopicHolds for a layout) says
// the corpus is already there. If a bootstrap broker stops accepting
// connections during the load, Load stops within about a second and
// returns a *BrokerDownError naming it. LoadStats.Records counts every
// record written, aborted ones and tombstones included.
func Load(ctx context.Context, c Cluster, topic string, partitions int, n int,
	message func(dst []byte, i int) []byte, opts ...LoadOpt) (LoadStats, error) {
	start := time.Now()
	if err := validateCorpus(topic, partitions, n); err != nil {
		return LoadStats{}, err
	}
	if message == nil {
		return LoadStats{}, fmt.Errorf("nil message func")
	}
	cfg := defaultLoadConfig()
	for _, o := range opts {
		o(&cfg)
	}
	if cfg.generators < 1 {
		return LoadStats{}, fmt.Errorf("generators must be >= 1, got %d", cfg.generators)
	}
	cfg.generators = min(cfg.generators, partitions)
	codec, err := compressionCodec(cfg.compression)
	if err != nil {
		return LoadStats{}, err
	}
	layout := cfg.layout
	if layout != nil {
		if layout.Partitions() != partitions || layout.Count() != n {
			return LoadStats{}, fmt.Errorf("load %d records into %d partitions with a layout of %d records over %d partitions; they must match",
				n, partitions, layout.Count(), layout.Partitions())
		}
	} else if layout, err = workloads.NewLayout(0, n, partitions, workloads.Shape{}); err != nil {
		return LoadStats{}, err
	}

	copts := []kgo.Opt{
		kgo.RecordPartitioner(kgo.ManualPartitioner()),
		kgo.ProducerBatchCompression(codec),
		kgo.ProducerBatchMaxBytes(cfg.batchBytes),
		kgo.ProducerLinger(cfg.linger),
		kgo.MaxBufferedRecords(cfg.maxBuffered),
		kgo.RecordDeliveryTimeout(cfg.deliveryTimeout),
	}
	if layout.Txns() > 0 {
		// Unique per load: a second loader never fences this one.
		copts = append(copts, kgo.TransactionalID(fmt.Sprintf("fplab-load-%s-%d", topic, time.Now().UnixNano())))
	}
	cl, err := c.newClient(ctx, copts...)
	if err != nil {
		return LoadStats{}, err
	}
	defer cl.Close()
	// The watch ends the load within a second of a broker's death, with
	// the broker's address, where franz-go would retry for the delivery
	// timeout. It is stopped before cl closes.
	ctx, stopWatch := watchBrokers(ctx, c.seeds(), watchEvery)
	defer stopWatch()
	if err := ensureTopic(ctx, c, cl, topic, partitions, cfg.replication); err != nil {
		return LoadStats{}, brokerDown(ctx, err, c.seeds()...)
	}
	p := &producer{cl: cl, topic: topic, layout: layout, message: message, meta: cfg.meta}
	run := p.run
	if layout.Txns() > 0 {
		run = p.runTxns
	}
	bytes, err := run(ctx, cfg.generators)
	if err != nil {
		return LoadStats{}, brokerDown(ctx, fmt.Errorf("load %d records into topic %s on %s: %w",
			n, topic, strings.Join(c.seeds(), ","), err), c.seeds()...)
	}
	if cfg.layout != nil {
		if err := awaitLayoutEnds(ctx, c, kadm.NewClient(cl), topic, layout); err != nil {
			return LoadStats{}, brokerDown(ctx, err, c.seeds()...)
		}
	}
	return LoadStats{Records: int64(n), Bytes: bytes, Duration: time.Since(start)}, nil
}
