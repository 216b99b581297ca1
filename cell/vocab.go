package cell

import (
	"slices"
	"strconv"
	"time"
)

// Keys of a cell name's parts, in name order: the seven axes a spec sweeps,
// then the parts a spec sets per cell.
const (
	Path    = "path"
	Format  = "format"
	Batch   = "batch"
	Brokers = "brokers"
	Alloc   = "alloc"
	CRC     = "crc"
	Cluster = "cluster"
	// Compression is the codec the corpus's producer compressed its
	// batches with.
	Compression = "compression"
	// Size is the size records are scaled to (bytes; 100 is the natural
	// ~100 B bid).
	Size = "size"
	// Keyed says whether records carry a key and two headers, which the
	// Arrow batch then carries as columns.
	Keyed = "keys"
	// Nulls is the share of records that are tombstones (null values).
	Nulls = "nulls"
	// Txn says whether the corpus is written in transactions, some aborted.
	Txn = "txn"
	// Case names a parity case: a topic or a reading situation the upstream
	// issue asks every path to get right (CaseNone for plain cells).
	Case = "case"
	// Decoder says whose decoder a consume path runs: the lab's columnar
	// one, or the best stock Go library route of the format.
	Decoder = "decoder"
	// Mode says how the topic is read: bounded (a preloaded topic drained
	// from a cold start) or live (a producer writes at a target rate while
	// the path reads unbounded).
	Mode = "mode"
	// Rate is a live cell's target produce rate in records per second.
	Rate = "rate"
	// Linger is how long a live cell's batch may wait for rows after its
	// first one before it is handed over short.
	Linger = "linger"
	// Par is a Flink cell's parallelism (par=2): how many source subtasks,
	// and so task and fetcher threads, its job runs; par=auto, the
	// default, is the partition count capped at the host's usable cores
	// (docs/references.md, "Parallelism").
	Par = "par"

	// Drain is the fast path's librdkafka crossing: drain=callback (the
	// lab's callback drain, rd_kafka_consume_callback_queue),
	// drain=batchqueue (rd_kafka_consume_batch_queue, one message object
	// per record) or drain=ahead (the callback drain with the next
	// crossing under way while a crossing's messages are decoded; bounded
	// cells only). A fast cell that names none runs the path's default for
	// its read (Cell.FastDrain).
	Drain = "drain"
	// PartFetch is a librdkafka cell's max.partition.fetch.bytes: the most
	// a fetch response brings per partition (partfetch=4194304; the lab's
	// setting, 1 MiB, is never written).
	PartFetch = "partfetch"
	// QueueMin is a librdkafka cell's queued.min.messages: how many
	// messages per partition the client prefetches before it stops
	// fetching, and so the most one crossing of the fast path's drain can
	// move per partition (queuemin=1000000; the lab's 100000 is never
	// written).
	QueueMin = "queuemin"
	// FetchWait is a librdkafka cell's fetch.wait.max.ms: how long a broker
	// may hold a fetch for fetch.min.bytes (fetchwait=10ms; the lab's
	// 500ms is never written).
	FetchWait = "fetchwait"
	// RdkStats is the interval at which a bounded librdkafka cell samples
	// librdkafka's own statistics (statistics.interval.ms) and reports
	// their queue depths and round trips (rdkstats=100ms).
	RdkStats = "rdkstats"

	// Wake is the interval at which a cell wakes its reader (a cancel of
	// the Next under way), measuring how long the reader takes to return.
	Wake = "wake"
	// Pause is the interval at which a cell pauses one partition of its
	// reader in turn and resumes it an interval later.
	Pause = "pause"
	// Discover is a live cell's partition discovery interval
	// (discover=100ms): the cell adds partitions mid-read.
	Discover = "discover"
	// Ckpt is the checkpoint interval of a checkpointing cell.
	Ckpt = "ckpt"
	// Commit marks a checkpointing cell whose readers commit each
	// completed checkpoint's positions for a consumer group (commit=on).
	Commit = "commit"
	// RescaleKey is a checkpointing cell's change of parallelism after its
	// first failure (rescale=3to2).
	RescaleKey = "rescale"
	// Prof marks a profiled cell (prof=on).
	Prof = "prof"
	// Fault names a fault injected into the cell (fault=kill).
	Fault = "fault"
	// AA marks one side of an A/A calibration pair (aa=a, aa=b).
	AA = "aa"
)

// The fast path's drains (Drain).
const (
	DrainCallback   = "callback"
	DrainBatchQueue = "batchqueue"
	DrainAhead      = "ahead"
)

// The lab's own librdkafka buffering (source's rdkBuffering, each at
// librdkafka's default): a cell whose PartFetch, QueueMin or FetchWait
// would be one of them has 0 there instead, so a name has one spelling.
const (
	LabPartFetch = 1 << 20
	LabQueueMin  = 100_000
	LabFetchWait = 500 * time.Millisecond
)

// Axes lists the axis keys in name order.
func Axes() []string {
	return []string{Path, Format, Batch, Brokers, Alloc, CRC, Cluster, Compression, Size, Keyed, Nulls, Txn, Case, Decoder, Mode, Rate, Linger, Par}
}

// LiveAxes are the axes only a live cell has: a bounded cell's name leaves
// them out (their Default), and a spec's values for them make live cells
// only. A maxrate cell has a linger but no rate (it searches for one):
// AxisOf says which cell takes which.
func LiveAxes() []string { return []string{Rate, Linger} }

// AxisOf reports whether a cell of mode has the axis key: every cell has
// every axis but the live ones; mode=live has rate and linger, mode=maxrate
// linger only.
func AxisOf(mode, key string) bool {
	switch key {
	case Rate:
		return mode == ModeLive
	case Linger:
		return mode == ModeLive || mode == ModeMaxRate
	}
	return true
}

// Default is the value of an axis a name leaves out (and a spec may omit),
// and "" for an axis every name and spec must state.
func Default(key string) string {
	switch key {
	case Cluster:
		return ClusterEmbedded
	case Compression:
		return CompressionNone
	case Size:
		return SizeNatural
	case Keyed:
		return Off
	case Nulls:
		return NullsNone
	case Txn:
		return Off
	case Case:
		return CaseNone
	case Decoder:
		return DecoderLab
	case Mode:
		return ModeBounded
	case Rate, Linger:
		return "0"
	case Par:
		return ParAuto
	}
	return ""
}

// Keys lists every key a Cell's name can hold, in name order.
func Keys() []string {
	return append(Axes(), Drain, PartFetch, QueueMin, FetchWait, RdkStats, Wake, Pause, Discover, Ckpt, Commit, RescaleKey, Prof, Fault, AA)
}

// Consume paths, from least to most native, then the references, which
// read the topic and count its records but build no Arrow batch.
const (
	PathRowwise = "rowwise"
	PathShallow = "shallow"
	PathFast    = "fast"
	PathFranz   = "franz"
	// PathJava is a steady-state kafka-clients consumer (java/,
	// fplab.SteadyConsumer): explicit assignment, a warm-up pass outside
	// the window.
	PathJava = "java"
	// PathJavaPerf is Kafka's own kafka-consumer-perf-test
	// (ConsumerPerformance) with its defaults, JIT warm-up in the window.
	PathJavaPerf = "java-perf"
	// PathFlink is Apache Flink's KafkaSource in a bounded job with the
	// format's stock Flink deserializer (java/, fplab.FlinkBounded).
	PathFlink = "flink"
	// PathFlinkWarm is the same job as PathFlink on a warm JVM and
	// cluster: one JVM and one MiniCluster run warm-up reads of the topic
	// before the measured read (ladder/rung/jvmref, docs/references.md).
	PathFlinkWarm = "flink-warm"
	// PathCeiling is the broker's serving ceiling: raw Fetch requests,
	// records counted from batch headers (source/ceiling).
	PathCeiling = "ceiling"
)

// Message formats.
const (
	FormatJSON     = "json"
	FormatAvro     = "avro"
	FormatProtobuf = "protobuf"
	FormatCSV      = "csv"
	FormatRaw      = "raw"
)

// Allocators, one fplab binary each.
const (
	AllocGo        = "go"
	AllocMimalloc2 = "mimalloc2"
	AllocMimalloc3 = "mimalloc3"
)

// Clusters a cell can run on.
const (
	ClusterEmbedded = "embedded"
	ClusterExternal = "external"
	ClusterKafka    = "kafka"
)

// Compression codecs, as Kafka names them (compression.type).
const (
	CompressionNone   = "none"
	CompressionGzip   = "gzip"
	CompressionSnappy = "snappy"
	CompressionLZ4    = "lz4"
	CompressionZstd   = "zstd"
)

// Record sizes, in bytes: the natural bid, ~1 KiB and ~16 KiB values.
const (
	SizeNatural = "100"
	Size1KiB    = "1024"
	Size16KiB   = "16384"
)

// Shares of tombstones, and the transactional corpus.
const (
	NullsNone = "0"
	NullsOne  = "0.01"
	NullsTen  = "0.1"
	// TxnAborts writes the corpus in transactions, some aborted (txn=off:
	// no transactions).
	TxnAborts = "aborts"
)

// Parity cases (key case). The first three shape the topic, the next two
// the read; the last four are failures the cell must surface with one line.
const (
	CaseNone = "none"
	// CaseEmptyPartition leaves the last partition without records.
	CaseEmptyPartition = "empty-partition"
	// CaseUneven spreads records 1:2:...:P over the partitions.
	CaseUneven = "uneven"
	// CaseStartIsStop reads from the end: start == stop on every partition.
	CaseStartIsStop = "start-is-stop"
	// CaseAppended appends records after the reader captured its stop.
	CaseAppended = "appended"
	// CaseUnknownTopic reads a topic that does not exist.
	CaseUnknownTopic = "unknown-topic"
	// CaseDeleted starts below the log start (records deleted).
	CaseDeleted = "deleted"
	// CaseUnreachable gives a bootstrap address no broker listens on.
	CaseUnreachable = "unreachable"
	// CaseDenied reads as a user the cluster's ACLs do not allow.
	CaseDenied = "denied"
)

// Start-up cases (key case): where a read starts when it is told a mode,
// not offsets, as Flink's OffsetsInitializer names them. Each reads the
// shared topic to its end from where the mode says, or fails.
const (
	// CaseStartLatest starts at the end (the high watermarks at open).
	CaseStartLatest = "start-latest"
	// CaseStartTimestamp starts at the first record at or after a
	// timestamp in the middle of the topic.
	CaseStartTimestamp = "start-timestamp"
	// CaseCommitted starts at a group's committed offsets, set mid-topic.
	CaseCommitted = "committed"
	// CaseCommittedNoGroup asks for committed offsets without a group id:
	// it must fail.
	CaseCommittedNoGroup = "committed-no-group"
	// CaseCommittedAbsentNone, -Earliest and -Latest start from a group
	// that committed nothing, with that reset strategy: none must fail.
	CaseCommittedAbsentNone     = "committed-absent-none"
	CaseCommittedAbsentEarliest = "committed-absent-earliest"
	CaseCommittedAbsentLatest   = "committed-absent-latest"
	// CaseCommittedAboveNone and -Latest start from commits past the
	// partitions' ends: a bounded read reads nothing, whatever the reset
	// strategy, as Flink's KafkaSource does (source.resolveStart).
	CaseCommittedAboveNone   = "committed-above-none"
	CaseCommittedAboveLatest = "committed-above-latest"
	// CaseCommittedBelowNone and -Earliest start from commits below the
	// log start (on the topic of case deleted): none must fail, earliest
	// starts at the log start.
	CaseCommittedBelowNone     = "committed-below-none"
	CaseCommittedBelowEarliest = "committed-below-earliest"
)

// Decoders: the lab's columnar decoder, the stock library route, or none
// at all: the path's consume-only twin, which drains exactly as the path
// does but builds no Arrow batch (records and positions are still counted
// and checked).
const (
	DecoderLab   = "lab"
	DecoderStock = "stock"
	DecoderNone  = "none"
)

// Read modes (key mode): a bounded read of a preloaded topic; a live read
// at a target rate; and a search for the highest rate a path sustains
// live (maxrate: a series of live reads at rising rates, one cell).
const (
	ModeBounded = "bounded"
	ModeLive    = "live"
	ModeMaxRate = "maxrate"
)

// Modes lists the read modes.
func Modes() []string { return []string{ModeBounded, ModeLive, ModeMaxRate} }

// LivePath reports whether a path can read a live topic (mode=live): the
// columnar Go paths, which hand over a batch that is not full once its
// linger passes, and the JVM references java (kafka-clients) and flink
// (Flink's KafkaSource), which report each hand-over to the rung
// (ladder/rung/jvmref). rowwise has no linger rule (its batches wait to be
// full), and java-perf and the ceiling read bounded only.
func LivePath(p string) bool {
	switch p {
	case PathShallow, PathFast, PathFranz, PathJava, PathFlink:
		return true
	}
	return false
}

// MaxRatePath reports whether a path can run a max-rate search
// (mode=maxrate): the live Go paths, whose trials the rung runs in its own
// process.
func MaxRatePath(p string) bool {
	switch p {
	case PathShallow, PathFast, PathFranz:
		return true
	}
	return false
}

// WhyNotLive says why a path cannot read a live topic in mode (ModeLive or
// ModeMaxRate; "" for one that can, and for any other mode): the one
// wording the spec checks and the rung's refusals share.
func WhyNotLive(p, mode string) string {
	switch {
	case mode != ModeLive && mode != ModeMaxRate:
		return ""
	case mode == ModeMaxRate && LivePath(p) && !MaxRatePath(p):
		return "a max-rate search runs its trials through a Go reader only; for the JVM references each trial would be a JVM (and a Flink MiniCluster) started anew, which is not built"
	case LivePath(p):
		return ""
	case p == PathRowwise:
		return "a row path has no linger rule; its batches are handed over only when full"
	case p == PathCeiling:
		return "the serving ceiling counts a bounded range of fetches"
	case p == PathFlinkWarm:
		return "flink-warm warms up with bounded reads of a preloaded topic; a live read is warmed by its producer's first records, so path=flink reads live"
	case p == PathJavaPerf:
		return "Kafka's ConsumerPerformance reads a bounded count and prints totals only, no per-record hand-over times to measure latency from"
	}
	return "no live reader"
}

// On and Off are the values of the crc and prof parts.
const (
	On  = "on"
	Off = "off"
)

// FaultKill is the fault part of a cell that kills and restarts a broker.
const FaultKill = "kill"

// Faults lists the faults a cell may inject.
func Faults() []string { return []string{FaultKill} }

// AAFirst and AASecond are the two sides of an A/A calibration pair: one
// cell run twice under two names, so their ratio is the run's noise floor.
const (
	AAFirst  = "a"
	AASecond = "b"
)

// AASides lists the sides of an A/A pair.
func AASides() []string { return []string{AAFirst, AASecond} }

// Paths lists every consume path a spec may name, least to most native,
// the references last.
func Paths() []string {
	return []string{PathRowwise, PathShallow, PathFast, PathFranz, PathJava, PathJavaPerf, PathFlink, PathFlinkWarm, PathCeiling}
}

// CountingPath reports whether a path is a reference that counts the
// topic's records without building Arrow batches the lab verifies: java,
// java-perf, flink, flink-warm and ceiling.
func CountingPath(p string) bool {
	switch p {
	case PathJava, PathJavaPerf, PathFlink, PathFlinkWarm, PathCeiling:
		return true
	}
	return false
}

// RdkPath reports whether a path reads with librdkafka: rowwise, shallow
// and fast, the paths a librdkafka tuning or rdkstats part applies to.
func RdkPath(p string) bool {
	return p == PathRowwise || p == PathShallow || p == PathFast
}

// Formats lists the message formats in a fixed order.
func Formats() []string {
	return []string{FormatJSON, FormatAvro, FormatProtobuf, FormatCSV, FormatRaw}
}

// Allocs lists the allocators.
func Allocs() []string { return []string{AllocGo, AllocMimalloc2, AllocMimalloc3} }

// CRCs lists the check.crcs settings.
func CRCs() []string { return []string{On, Off} }

// Clusters lists the cluster kinds.
func Clusters() []string { return []string{ClusterEmbedded, ClusterExternal, ClusterKafka} }

// Compressions lists the codecs, in Kafka's attribute order (0 to 4).
func Compressions() []string {
	return []string{CompressionNone, CompressionGzip, CompressionSnappy, CompressionLZ4, CompressionZstd}
}

// Sizes lists the record sizes.
func Sizes() []string { return []string{SizeNatural, Size1KiB, Size16KiB} }

// KeySettings lists the keys settings.
func KeySettings() []string { return []string{Off, On} }

// NullShares lists the tombstone shares.
func NullShares() []string { return []string{NullsNone, NullsOne, NullsTen} }

// Txns lists the transaction settings.
func Txns() []string { return []string{Off, TxnAborts} }

// ParAuto is the default parallelism of a Flink cell: its partition count,
// at most the host's usable cores.
const ParAuto = "auto"

// Pars lists the parallelisms a Flink cell may name: auto, then the counts
// a spec may sweep (at most the topic's partitions, ladder/limits.go).
func Pars() []string {
	return []string{ParAuto, "1", "2", "3", "4", "6", "8", "12", "16", "24", "32"}
}

// ParPath reports whether a path takes a parallelism other than auto: the
// Flink jobs. The Go paths read every partition with one client (its
// threads are the library's, stated in the manifest), java with one
// kafka-clients consumer on one thread, java-perf as Kafka ships it, and
// the ceiling with one fetch loop per broker.
func ParPath(p string) bool { return p == PathFlink || p == PathFlinkWarm }

// Decoders lists the decoder settings.
func Decoders() []string { return []string{DecoderLab, DecoderStock, DecoderNone} }

// Cases lists the parity cases.
func Cases() []string {
	return append([]string{CaseNone, CaseEmptyPartition, CaseUneven, CaseStartIsStop, CaseAppended,
		CaseUnknownTopic, CaseDeleted, CaseUnreachable, CaseDenied}, StartCases()...)
}

// StartCases lists the start-up cases.
func StartCases() []string {
	return []string{CaseStartLatest, CaseStartTimestamp, CaseCommitted, CaseCommittedNoGroup,
		CaseCommittedAbsentNone, CaseCommittedAbsentEarliest, CaseCommittedAbsentLatest,
		CaseCommittedAboveNone, CaseCommittedAboveLatest, CaseCommittedBelowNone, CaseCommittedBelowEarliest}
}

// TopicCase is the case whose topic a parity case reads, when it needs
// one of its own: one that shapes the topic (empty-partition, uneven) or
// changes it while cells read (deleted, appended); the committed-below
// cases read case deleted's topic (their commits lie below its log start).
// It is none for the others, which read the shared topic.
func TopicCase(c string) string {
	switch c {
	case CaseEmptyPartition, CaseUneven, CaseDeleted, CaseAppended:
		return c
	case CaseCommittedBelowNone, CaseCommittedBelowEarliest:
		return CaseDeleted
	}
	return CaseNone
}

// StartCase reports whether a parity case is a start-up case.
func StartCase(c string) bool { return slices.Contains(StartCases(), c) }

// SpecialRead reports whether a parity case reads otherwise than a plain
// cell, from the topic's start to its end (all but none and the two cases
// that only shape the topic, empty-partition and uneven).
func SpecialRead(c string) bool {
	switch c {
	case "", CaseNone, CaseEmptyPartition, CaseUneven:
		return false
	}
	return true
}

// FailureCase reports whether a parity case is one the cell must fail on.
func FailureCase(c string) bool {
	switch c {
	case CaseUnknownTopic, CaseDeleted, CaseUnreachable, CaseDenied,
		CaseCommittedNoGroup, CaseCommittedAbsentNone, CaseCommittedBelowNone:
		return true
	}
	return false
}

// Values lists the values a closed axis takes, nil for an open one (batch,
// brokers) or an unknown key.
func Values(key string) []string {
	switch key {
	case Path:
		return Paths()
	case Format:
		return Formats()
	case Alloc:
		return Allocs()
	case CRC:
		return CRCs()
	case Cluster:
		return Clusters()
	case Compression:
		return Compressions()
	case Size:
		return Sizes()
	case Keyed:
		return KeySettings()
	case Nulls:
		return NullShares()
	case Txn:
		return Txns()
	case Case:
		return Cases()
	case Decoder:
		return Decoders()
	case Mode:
		return Modes()
	case Par:
		return Pars()
	}
	return nil
}

// KeyRank is key's position in a name, and false for a key a Cell cannot
// hold: such keys sort after the known ones.
func KeyRank(key string) (int, bool) {
	i := slices.Index(Keys(), key)
	return i, i >= 0
}

// PathRank is a path's position from least to most native, and false for a
// path the lab does not know.
func PathRank(path string) (int, bool) {
	i := slices.Index(Paths(), path)
	return i, i >= 0
}

// Less orders two values of one key: paths from least to most native,
// parity cases in Cases' order and parallelisms in Pars' (auto first),
// unknown values after the known ones; numbers numerically, durations
// (linger, ckpt) by length, anything else alphabetically.
func Less(key, a, b string) bool {
	if key == Path || key == Case || key == Par {
		vs := Values(key)
		ra, rb := slices.Index(vs, a), slices.Index(vs, b)
		switch {
		case ra >= 0 && rb >= 0:
			return ra < rb
		case (ra >= 0) != (rb >= 0):
			return ra >= 0
		}
	}
	fa, errA := strconv.ParseFloat(a, 64)
	fb, errB := strconv.ParseFloat(b, 64)
	if errA == nil && errB == nil {
		return fa < fb
	}
	da, errA := time.ParseDuration(a)
	db, errB := time.ParseDuration(b)
	if errA == nil && errB == nil {
		return da < db
	}
	return a < b
}

// MaxPartitions is the most partitions a corpus topic may have: the
// embedded cluster, the loader, every consume path and the ceiling refuse
// more, and a spec asking for more is refused when it is read. One bound,
// so a topic one of them accepts is never refused by another.
const MaxPartitions = 1024
