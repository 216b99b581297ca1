package ladder

import (
	"strconv"
	"time"

	"github.com/fastpathlab/fplab/cell"
)

// Spec is one parsed ladder spec: the axes to sweep and the settings shared
// by every cell. LoadSpec builds it from YAML; docs/spec.md documents each field.
// It is stored in the run manifest as JSON so that Resume can rebuild the
// exact same cells and schedule.
type Spec struct {
	// Name labels the run; defaults to the spec file's base name.
	Name string `json:"name"`

	// The axes, each a non-empty list of distinct values.
	Path    []string `json:"path"`
	Format  []string `json:"format"`
	Batch   []int    `json:"batch"`
	Brokers []int    `json:"brokers"`
	Alloc   []string `json:"alloc"`
	CRC     []string `json:"crc"`
	Cluster []string `json:"cluster"`
	// Compression lists the codecs the corpus is produced with; absent
	// means [none] (specs and stored manifests from before the axis).
	Compression []string `json:"compression,omitempty"`
	// Size, Keyed, Nulls, Txn and Case shape the corpus's topic (cell.Sizes,
	// cell.KeySettings, cell.NullShares, cell.Txns, cell.Cases); absent means the axis's
	// cell.Default (the clean ~100 B topic, read plainly).
	Size  []string `json:"size,omitempty"`
	Keys  []string `json:"keys,omitempty"`
	Nulls []string `json:"nulls,omitempty"`
	Txn   []string `json:"txn,omitempty"`
	Case  []string `json:"case,omitempty"`
	// Decoder lists whose decoder the shallow and fast paths run (lab,
	// stock); absent means [lab].
	Decoder []string `json:"decoder,omitempty"`
	// Mode lists the read modes (cell.Modes): bounded cells drain a
	// preloaded corpus, live cells read a topic a producer writes at a
	// target rate while they run, maxrate cells search for the highest
	// rate a live read sustains (MaxRate). Absent means [bounded].
	Mode []string `json:"mode,omitempty"`
	// Rate (records/s) and Linger are the live axes (cell.LiveAxes): a
	// mode=live cell takes every rate with every linger, a maxrate cell
	// every linger and no rate (cell.AxisOf); a bounded cell has rate 0
	// and linger 0. Rate is absent in a spec without mode=live cells,
	// Linger in a spec without live or maxrate cells.
	Rate   []int           `json:"rate,omitempty"`
	Linger []time.Duration `json:"linger_ns,omitempty"`
	// Par lists the Flink cells' parallelisms (cell.Pars); absent means
	// [auto]. Every other path runs at auto only (ladder/limits.go).
	Par []string `json:"par,omitempty"`

	// Covering selects a small set of cells in which every value of every
	// axis appears at least once instead of the full product.
	Covering bool `json:"covering,omitempty"`
	// Exclude drops every cell that matches all keys of one entry.
	Exclude []map[string]string `json:"exclude,omitempty"`
	// Calibrate picks the A/A calibration cell: the first cell matching all
	// its keys. Empty means the first cell of the expansion.
	Calibrate map[string]string `json:"calibrate,omitempty"`

	// Records is the corpus every bounded cell consumes; 0 in a spec of
	// live cells only, which write their own records (LiveWarmup).
	Records     int           `json:"records"`
	Repetitions int           `json:"repetitions"`
	Warmup      int           `json:"warmup"`
	Timeout     time.Duration `json:"timeout_ns"`
	Seed        uint64        `json:"seed"`
	Partitions  int           `json:"partitions"`
	Schema      string        `json:"schema"`
	// Checkpoint lists the checkpoint intervals to run every cell with; 0
	// means off. One value is a setting; several (e.g. off and 1s) make
	// checkpointing a dimension: cells with it on get a /ckpt=<interval>
	// name part, so tables compare them with the same cells without it.
	Checkpoint []time.Duration `json:"checkpoint_ns,omitempty"`
	// Wake lists the intervals at which cells wake their reader (cancel
	// the Next under way and call it again, as a Flink fetcher does for a
	// checkpoint or a split change), measuring how long the reader takes to
	// return; 0 means never. Like Checkpoint, several values make it a
	// dimension (a /wake=<interval> name part). Bounded and live cells of
	// the Go paths only, without checkpoints or a parity case.
	Wake []time.Duration `json:"wake_ns,omitempty"`
	// Pause lists the intervals at which cells pause one partition of
	// their reader in turn and resume it an interval later (0: never); a
	// dimension like Wake (a /pause=<interval> name part), for the same
	// cells, and never with a wake-up interval (a pause cell wakes its
	// reader at its pause interval).
	Pause []time.Duration `json:"pause_ns,omitempty"`
	// Discover lists the partition discovery intervals of live cells
	// (mode=live): the reader looks for added partitions that often and
	// the cell doubles the topic's partitions mid-read, measuring the time
	// to each added partition's first record (0 means no discovery; a
	// /discover=<interval> name part). Live cells of the Go paths only,
	// without wake or pause, keys or tombstones.
	Discover []time.Duration `json:"discover_ns,omitempty"`
	// Drain lists the fast path's librdkafka crossings (callback, its own;
	// batchqueue, rd_kafka_consume_batch_queue): a dimension of the fast
	// cells only (a /drain=batchqueue name part).
	Drain []string `json:"drain,omitempty"`
	// PartFetch, QueueMin and FetchWait list librdkafka buffering settings
	// (max.partition.fetch.bytes, queued.min.messages, fetch.wait.max.ms)
	// the cells of the librdkafka paths (rowwise, shallow, fast) run
	// with, each a dimension of those cells only (a /partfetch=,
	// /queuemin=, /fetchwait= name part; the lab's own setting is no
	// part). Every other path runs once with its own settings.
	PartFetch []int           `json:"partfetch,omitempty"`
	QueueMin  []int           `json:"queuemin,omitempty"`
	FetchWait []time.Duration `json:"fetchwait_ns,omitempty"`
	// RdkStats lists intervals at which bounded cells of the librdkafka
	// paths sample librdkafka's statistics and report their queue depths,
	// round trips and fetch sizes (0: off; a /rdkstats= name part).
	RdkStats []time.Duration `json:"rdkstats_ns,omitempty"`
	// CommitOffsets lists whether checkpointing cells commit each completed
	// checkpoint's positions for a consumer group, as Flink's
	// commit.offsets.on.checkpoint; [off, on] runs them both ways (a
	// /commit=on name part). Cells without checkpoints take off only.
	CommitOffsets []bool `json:"commit_offsets,omitempty"`
	// Rescale lists the changes of parallelism of checkpointing cells
	// ("3to2": the first reader process runs 3 subtasks, every one
	// restored after a failure 2; "off": one reader throughout), a
	// dimension (a /rescale=3to2 name part). It needs failures >= 1.
	// Cells without checkpoints take off only.
	Rescale []cell.Rescale `json:"rescale,omitempty"`
	// Failures is the number of injected reader failures per cell; 0 = none.
	Failures int `json:"failures,omitempty"`

	// Duration is a live cell's measured window and LiveWarmup the
	// producer's run before it: a live cell at rate r writes
	// rungargs.LiveRecords(r, LiveWarmup+Duration) records to a topic of
	// its own, and so does each trial of a maxrate cell at its rate. Both
	// are 0 in a spec without live or maxrate cells. Checkpoint and
	// Failures apply to bounded cells only.
	Duration   time.Duration `json:"duration_ns,omitempty"`
	LiveWarmup time.Duration `json:"live_warmup_ns,omitempty"`
	// MaxRate is the search of the spec's maxrate cells (mode: maxrate):
	// its bounds and latency budget; each of its trials is a live read of
	// LiveWarmup + Duration. nil in a spec without maxrate cells.
	MaxRate *MaxRateSpec `json:"max_rate,omitempty"`

	// Profile lists whether cells keep CPU and allocs profiles; [off, on]
	// runs every cell both ways, so the profiler's own cost is measured in
	// the same run (profiled cells get a /prof=on name part).
	Profile []bool `json:"profile,omitempty"`

	// Micro lists micro-benchmarks run after the cells (micro.go).
	Micro []string `json:"micro,omitempty"`

	// DecodeMem lists the allocators the decode micro-benchmark builds its
	// batches from (cell.DecodeMems); empty means [go]. It needs micro:
	// [decode].
	DecodeMem []string `json:"decode_mem,omitempty"`

	// BrokerKill selects the cells (every cell matching all its axis values)
	// in which one broker of a cluster=kafka cluster of 3+ brokers is killed
	// and restarted mid-cell (docs/kafka.md); empty: none.
	BrokerKill map[string]string `json:"broker_kill,omitempty"`

	// Headline lists the comparisons the spec was written to answer
	// ("fast/flink by format"; package results/headline), which the
	// report opens with; each names only paths and values the spec runs.
	Headline []string `json:"headline,omitempty"`

	// Bootstrap and ClusterProps describe the cluster=external cluster.
	Bootstrap    []string          `json:"bootstrap,omitempty"`
	ClusterProps map[string]string `json:"cluster_props,omitempty"`
}

// Axis is the values of one axis in spec order, as a cell name writes them;
// an optional axis the spec leaves out is its one cell.Default.
func (s *Spec) Axis(key string) []string {
	var vs []string
	switch key {
	case cell.Batch:
		vs = itoas(s.Batch)
	case cell.Brokers:
		vs = itoas(s.Brokers)
	case cell.Rate:
		vs = itoas(s.Rate)
	case cell.Linger:
		for _, d := range s.Linger {
			vs = append(vs, d.String())
		}
	default:
		if p := s.closedAxis(key); p != nil {
			vs = *p
		}
	}
	if len(vs) == 0 && cell.Default(key) != "" {
		return []string{cell.Default(key)}
	}
	return vs
}

// closedAxis is the field holding a closed axis's values (those whose
// values cell.Values lists), nil for another key.
func (s *Spec) closedAxis(key string) *[]string {
	return map[string]*[]string{
		cell.Path: &s.Path, cell.Format: &s.Format, cell.Alloc: &s.Alloc, cell.CRC: &s.CRC,
		cell.Cluster: &s.Cluster, cell.Compression: &s.Compression, cell.Size: &s.Size,
		cell.Keyed: &s.Keys, cell.Nulls: &s.Nulls, cell.Txn: &s.Txn, cell.Case: &s.Case,
		cell.Decoder: &s.Decoder, cell.Mode: &s.Mode, cell.Par: &s.Par,
	}[key]
}

func itoas(ns []int) []string {
	out := make([]string, len(ns))
	for i, n := range ns {
		out[i] = strconv.Itoa(n)
	}
	return out
}

// Defaults applied when a field is absent.
const (
	defaultPartitions = 6
	defaultSchema     = "bid"
)
