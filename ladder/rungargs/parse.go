package rungargs

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/fastpathlab/fplab/cell"
	"github.com/fastpathlab/fplab/internal/listflag"
)

// Parse decodes `fplab rung` flags, the inverse of Cell.Args, and validates
// the cell (Cell.Validate). It uses its own flag set (no globals). A bad
// flag is only returned, for the caller to print once; -h writes the flags
// to usage and returns flag.ErrHelp.
func Parse(args []string, usage io.Writer) (Cell, error) {
	c, err := Decode(args, usage)
	if err != nil {
		return Cell{}, err
	}
	return c, c.Validate()
}

// Decode is Parse without Cell.Validate: the flags as given, for a fake
// child in tests that must answer whatever argv it is handed.
func Decode(args []string, usage io.Writer) (Cell, error) {
	fs := flag.NewFlagSet("fplab rung", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	var (
		c         Cell
		crc       = fs.String(cell.CRC, cell.Off, "check.crcs: on or off")
		prof      = fs.String(cell.Prof, "", "prof=on: the cell's name says it is profiled")
		commit    = fs.String(cell.Commit, "", "commit=on: the checkpointing readers commit each completed checkpoint's positions for a consumer group")
		rescale   = fs.String(cell.RescaleKey, "", "<from>to<to>: the first reader process runs <from> subtasks, those restored after a failure <to>")
		bootstrap = fs.String("bootstrap", "", "bootstrap servers, host:port[,host:port...]")
		secretsFD = fs.Int("secrets-fd", 0, "internal: read secret cluster props (a JSON object) from this inherited descriptor, then close it")
		props     listflag.Strings
	)
	fs.StringVar(&c.Path, cell.Path, cell.PathFast, "consume path: "+strings.Join(cell.Paths(), ", "))
	fs.StringVar(&c.Format, cell.Format, cell.FormatJSON, "message format: "+strings.Join(cell.Formats(), ", "))
	fs.IntVar(&c.Batch, cell.Batch, 8192, "rows per Arrow batch")
	fs.IntVar(&c.Brokers, cell.Brokers, 1, "broker count the cluster must have (read back from metadata)")
	fs.StringVar(&c.Alloc, cell.Alloc, cell.AllocGo, "allocator the binary must be built for: "+strings.Join(cell.Allocs(), ", "))
	fs.StringVar(&c.Cluster, cell.Cluster, cell.ClusterEmbedded, "cluster kind, reported in the result: "+strings.Join(cell.Clusters(), ", "))
	shape := map[string]*string{}
	for k, usage := range map[string]string{
		cell.Compression: "codec the corpus was produced with, asserted from the stored batches",
		cell.Size:        "bytes the corpus's records are scaled to",
		cell.Keyed:       "on: records carry a key and two headers, read into key and headers columns",
		cell.Nulls:       "share of tombstones (null values) in the corpus",
		cell.Txn:         "aborts: the corpus is written in transactions, some aborted, and read read_committed",
		cell.Case:        "parity case",
		cell.Decoder:     "stock: the shallow or fast path decodes with the format's fastest stock Go library on this host (measured before the window) instead of the lab's decoder",
		cell.Mode:        "live: a producer writes at --rate while the path reads unbounded",
		cell.Rate:        "mode=live: target produce rate, records per second",
		cell.Linger:      "mode=live: a batch is handed over short once this has passed since its first row",
		cell.Par:         "path=flink, flink-warm: the job's parallelism (auto: the partition count, at most the usable cores)",
	} {
		if vs := cell.Values(k); vs != nil {
			usage += ": " + strings.Join(vs, ", ")
		}
		shape[k] = fs.String(k, cell.Default(k), usage)
	}
	fs.DurationVar(&c.Pause, cell.Pause, 0, "pause one partition in turn at this interval and resume it an interval later, measuring both (0: never)")
	drainFlag := fs.String(cell.Drain, "", "path=fast: the librdkafka crossing, callback (rd_kafka_consume_callback_queue), batchqueue (rd_kafka_consume_batch_queue) or ahead (the callback drain, one crossing ahead of the decoder); empty: the fast path's default for the read (ahead where a bounded read decodes, else callback)")
	fs.IntVar(&c.PartFetch, cell.PartFetch, 0, "librdkafka paths: max.partition.fetch.bytes (0: the lab's 1 MiB)")
	fs.IntVar(&c.QueueMin, cell.QueueMin, 0, "librdkafka paths: queued.min.messages (0: the lab's 100000)")
	fs.DurationVar(&c.FetchWait, cell.FetchWait, 0, "librdkafka paths: fetch.wait.max.ms, whole milliseconds (0: the lab's 500ms)")
	fs.DurationVar(&c.RdkStats, cell.RdkStats, 0, "bounded librdkafka cells: sample librdkafka's statistics at this interval and report them (0: off)")
	fs.DurationVar(&c.Wake, cell.Wake, 0, "wake the reader (cancel the Next under way) at this interval and measure how long it takes to return (0: never)")
	fs.DurationVar(&c.Ckpt, "checkpoint-interval", 0, "checkpoint barrier interval (0: checkpointing off)")
	fs.StringVar(&c.Fault, cell.Fault, "", "fault=kill: a broker is killed and restarted mid-cell (needs --fault-socket)")
	fs.StringVar(&c.AA, cell.AA, "", "a or b: one side of the A/A calibration pair")
	fs.StringVar(&c.Topic, "topic", "", "topic holding the corpus")
	fs.IntVar(&c.Partitions, "partitions", 6, "partition count of the topic")
	fs.IntVar(&c.Records, "records", 0, "corpus record count")
	fs.Uint64Var(&c.Seed, "seed", 1, "corpus seed")
	fs.StringVar(&c.Schema, "schema", "bid", "corpus schema: bid or bid-wide")
	fs.DurationVar(&c.Timeout, "timeout", 2*time.Minute, "hard limit for the whole cell")
	fs.StringVar(&c.HashCache, "hash-cache", "", "directory caching the corpus's expected row hashes")
	fs.IntVar(&c.Failures, "failures", 0, "reader processes to kill with SIGKILL at seeded moments (needs checkpoints)")
	fs.Uint64Var(&c.KillSeed, "kill-seed", 0, "seed of the reader kill positions (0: the corpus seed)")
	fs.StringVar(&c.CkptDir, "ckpt-dir", "", "directory for the checkpoint store and the sink's output (default: a temporary one)")
	fs.StringVar(&c.FaultSocket, "fault-socket", "", "internal: fault server socket of a fault=kill cell (cluster=kafka)")
	fs.DurationVar(&c.Discover, cell.Discover, 0, "partition discovery interval of a live cell, which adds partitions mid-read (0: none)")
	fs.IntVar(&c.Subtasks, "subtasks", 0, "internal: how many subtasks a rescale cell's reader process runs")
	fs.StringVar(&c.Group, "group", "", "internal: the consumer group a commit=on cell's reader commits for")
	fs.StringVar(&c.Role, "role", "", "internal: \""+RoleReader+"\" for a checkpointing reader process, \""+RoleProducer+"\" for a live cell's producer")
	fs.StringVar(&c.CPUProfile, "cpuprofile", "", "write a CPU profile of the cell to this file")
	fs.StringVar(&c.MemProfile, "memprofile", "", "write a heap profile at the end of the cell to this file")
	fs.DurationVar(&c.Warmup, "live-warmup", 0, "mode=live: time the producer writes before the measured window")
	fs.DurationVar(&c.Duration, "live-duration", 0, "mode=live: the measured window")
	fs.StringVar(&c.LiveDir, "live-dir", "", "mode=live: directory for the latency histogram and the lag series")
	fs.IntVar(&c.Rep, "rep", 0, "repetition number, in the names of the live cell's files")
	fs.IntVar(&c.MaxRateFrom, "maxrate-from", 0, "mode=maxrate: the search's lowest rate, records per second")
	fs.IntVar(&c.MaxRateTo, "maxrate-to", 0, "mode=maxrate: the search's highest rate, records per second")
	fs.DurationVar(&c.MaxRateP99, "maxrate-p99", 0, "mode=maxrate: the latency budget a sustained rate's p99 and lag stay within")
	fs.Int64Var(&c.T0, "t0", 0, "internal: a live producer's start, Unix nanoseconds")
	fs.Var(&props, "cluster-prop", "client property k=v for an external cluster (repeatable)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(usage, "usage: fplab rung [flags]")
			fs.SetOutput(usage)
			fs.PrintDefaults()
		}
		return Cell{}, err
	}
	if fs.NArg() > 0 {
		return Cell{}, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	for _, k := range shapeKeys {
		if err := c.Set(k, *shape[k]); err != nil {
			return Cell{}, fmt.Errorf("--%w", err)
		}
	}
	if *drainFlag != "" {
		if err := c.Set(cell.Drain, *drainFlag); err != nil {
			return Cell{}, fmt.Errorf("--%w", err)
		}
	}
	// the lab's own buffering is no part of a name (cell.Set's rule)
	if c.PartFetch == cell.LabPartFetch {
		c.PartFetch = 0
	}
	if c.QueueMin == cell.LabQueueMin {
		c.QueueMin = 0
	}
	if c.FetchWait == cell.LabFetchWait {
		c.FetchWait = 0
	}
	switch {
	case c.Mode == "" && (c.Rate != 0 || c.Linger != 0), c.Mode == cell.ModeLive && (c.Rate == 0 || c.Linger == 0):
		return Cell{}, fmt.Errorf("--rate and --linger go with --mode %s, and it needs both", cell.ModeLive)
	case c.MaxRate() && (c.Rate != 0 || c.Linger == 0):
		return Cell{}, fmt.Errorf("--mode %s needs --linger and no --rate (it searches for the rate)", cell.ModeMaxRate)
	}
	switch *crc {
	case cell.On, cell.Off:
		c.CRC = *crc == cell.On
	default:
		return Cell{}, fmt.Errorf("--crc must be on or off, got %q", *crc)
	}
	switch *prof {
	case cell.On, cell.Off, "":
		c.Prof = *prof == cell.On
	default:
		return Cell{}, fmt.Errorf("--prof must be on or off, got %q", *prof)
	}
	switch *commit {
	case cell.On, cell.Off, "":
		c.Commit = *commit == cell.On
	default:
		return Cell{}, fmt.Errorf("--commit must be on or off, got %q", *commit)
	}
	if *rescale != "" {
		r, err := cell.ParseRescale(*rescale)
		if err != nil {
			return Cell{}, err
		}
		c.Rescale = r
	}
	pm, err := cell.ParseProps(props)
	if err != nil {
		return Cell{}, err
	}
	if *secretsFD > 0 {
		secrets, err := readSecrets(*secretsFD)
		if err != nil {
			return Cell{}, err
		}
		if pm, err = mergeSecrets(pm, secrets); err != nil {
			return Cell{}, err
		}
	}
	if len(pm) > 0 {
		c.Props = pm
	}
	if *bootstrap != "" {
		if c.Bootstrap, err = cell.ParseBootstrap(*bootstrap); err != nil {
			return Cell{}, err
		}
	}
	return c, nil
}
