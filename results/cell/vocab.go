package cell

import (
	"slices"
	"strconv"
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

	// Ckpt is the checkpoint interval of a checkpointing cell.
	Ckpt = "ckpt"
	// Prof marks a profiled cell (prof=on).
	Prof = "prof"
	// Fault names a fault injected into the cell (fault=kill).
	Fault = "fault"
	// AA marks one side of an A/A calibration pair (aa=a, aa=b).
	AA = "aa"
)

// Axes lists the axis keys in name order.
func Axes() []string {
	return []string{Path, Format, Batch, Brokers, Alloc, CRC, Cluster, Compression}
}

// Keys lists every key a Cell's name can hold, in name order.
func Keys() []string { return append(Axes(), Ckpt, Prof, Fault, AA) }

// Consume paths, from least to most native, then the JVM reference.
const (
	PathRowwise = "rowwise"
	PathShallow = "shallow"
	PathFast    = "fast"
	PathFranz   = "franz"
	PathJava    = "java"
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

// On and Off are the values of the crc and prof parts.
const (
	On  = "on"
	Off = "off"
)

// FaultKill is the fault part of a cell that kills and restarts a broker.
const FaultKill = "kill"

// Paths lists every consume path a spec may name, least to most native,
// the JVM reference last.
func Paths() []string { return []string{PathRowwise, PathShallow, PathFast, PathFranz, PathJava} }

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

// Less orders two values of one key: numbers numerically, paths from least
// to most native, anything else alphabetically (unknown paths after the
// known ones).
func Less(key, a, b string) bool {
	fa, errA := strconv.ParseFloat(a, 64)
	fb, errB := strconv.ParseFloat(b, 64)
	if errA == nil && errB == nil {
		return fa < fb
	}
	if key == Path {
		ra, aok := PathRank(a)
		rb, bok := PathRank(b)
		switch {
		case aok && bok:
			return ra < rb
		case aok != bok:
			return aok
		}
	}
	return a < b
}
