package rungargs

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/fastpathlab/fplab/cell"
)

// Cell is one point of the ladder's matrix (the embedded cell.Cell, whose
// Name the child prints) plus what the child needs to reach its corpus and
// what it is asked to record.
type Cell struct {
	cell.Cell

	Bootstrap  []string
	Props      map[string]string
	Topic      string
	Partitions int
	Records    int
	Seed       uint64
	Schema     string
	// Timeout bounds the whole cell.
	Timeout time.Duration
	// HashCache is a directory where the corpus's expected row hashes are
	// cached between cells ("" = compute them in every cell).
	HashCache string

	// Failures is how many reader processes to kill (needs Cell.Ckpt > 0).
	Failures int
	// KillSeed picks where the readers are killed (0: the corpus seed);
	// the ladder derives it per cell and repetition, so kills land at
	// different positions in every cell-repetition.
	KillSeed uint64
	// CkptDir holds the checkpoint store and the sink's output ("": a
	// temporary directory removed afterwards).
	CkptDir string
	// FaultSocket, when set, is the fault server (clusters/kafka) the cell
	// asks to kill a broker at its first batch and restart it at half the
	// corpus.
	FaultSocket string
	// Role is "" for the cell itself, or RoleReader for a checkpointing
	// reader process the cell's supervisor started.
	Role string
	// Group is the consumer group a commit=on cell's readers commit for;
	// the supervisor names one per cell and passes it to every reader.
	Group string
	// Subtasks is how many subtasks a rescale cell's reader process runs
	// (its supervisor passes Rescale.Subtasks of the process's index); 0
	// elsewhere: one reader.
	Subtasks int
	// CPUProfile and MemProfile, when set, are where the child writes a CPU
	// profile of its measured window and a heap profile at its end.
	CPUProfile, MemProfile string

	// A live cell (mode=live) writes Records = LiveRecords(Rate, Warmup +
	// Duration) records at its rate: a Warmup, then the measured Duration.
	Warmup, Duration time.Duration
	// LiveDir, when set, is where a live cell keeps its latency histogram
	// and lag series (<cell name>-rep<k>.hgrm.json, .lag.csv); Rep names
	// the repetition in those files.
	LiveDir string
	Rep     int
	// A maxrate cell searches [MaxRateFrom, MaxRateTo] records/s for the
	// highest rate at which a live read of Warmup + Duration keeps its
	// lag and its p99 latency within MaxRateP99; Records is what its
	// largest trial writes, LiveRecords(MaxRateTo, Warmup + Duration).
	MaxRateFrom, MaxRateTo int
	MaxRateP99             time.Duration
	// T0 is a live cell's producer's start: record i's intended send time
	// is T0 + i/Rate (Unix nanoseconds, the host's wall clock, which the
	// cell and its producer share). Set for RoleProducer only.
	T0 int64
}

// LiveRecords is how many records a live cell at rate writes in d.
func LiveRecords(rate int, d time.Duration) int {
	return int(int64(rate) * int64(d) / int64(time.Second))
}

// shapeKeys are the optional axes that shape the corpus's topic and how it
// is read and decoded: each is a flag of its own, absent at its default.
var shapeKeys = []string{cell.Compression, cell.Size, cell.Keyed, cell.Nulls, cell.Txn, cell.Case, cell.Decoder, cell.Mode, cell.Rate, cell.Linger, cell.Par}

// RoleReader is the Role of a checkpointing reader process; RoleProducer
// that of a live cell's producer process.
const (
	RoleReader   = "reader"
	RoleProducer = "producer"
)

// Args renders the cell as `fplab rung` flags, the one encoding the ladder
// and a checkpointing supervisor use to start a cell's processes; Parse is
// its inverse. Secret props (cell.IsSecretKey) are not among them: a
// child started with these flags must inherit SecretFiles.
func (c *Cell) Args() []string {
	a := []string{
		"--" + cell.Path, c.Path, "--" + cell.Format, c.Format,
		"--" + cell.Batch, fmt.Sprint(c.Batch), "--" + cell.Brokers, fmt.Sprint(c.Brokers),
		"--" + cell.Alloc, c.Alloc, "--" + cell.CRC, c.Value(cell.CRC), "--" + cell.Cluster, c.Value(cell.Cluster),
		"--bootstrap", strings.Join(c.Bootstrap, ","), "--topic", c.Topic,
		"--partitions", fmt.Sprint(c.Partitions), "--records", fmt.Sprint(c.Records),
		"--seed", fmt.Sprint(c.Seed), "--schema", c.Schema, "--timeout", c.Timeout.String(),
	}
	opt := func(flag, v string) {
		if v != "" {
			a = append(a, "--"+flag, v)
		}
	}
	for _, k := range shapeKeys {
		if v := c.Value(k); v != cell.Default(k) {
			opt(k, v)
		}
	}
	for _, k := range []string{cell.Drain, cell.PartFetch, cell.QueueMin, cell.FetchWait, cell.RdkStats} {
		opt(k, c.Value(k))
	}
	if c.Wake > 0 {
		opt(cell.Wake, c.Wake.String())
	}
	if c.Pause > 0 {
		opt(cell.Pause, c.Pause.String())
	}
	if c.Discover > 0 {
		opt(cell.Discover, c.Discover.String())
	}
	if c.Ckpt > 0 {
		opt("checkpoint-interval", c.Ckpt.String())
	}
	opt(cell.Commit, c.Value(cell.Commit))
	opt("group", c.Group)
	opt(cell.RescaleKey, c.Rescale.String())
	if c.Subtasks > 0 {
		opt("subtasks", fmt.Sprint(c.Subtasks))
	}
	opt(cell.Prof, c.Value(cell.Prof))
	opt(cell.Fault, c.Fault)
	opt(cell.AA, c.AA)
	public, secrets := cell.SplitSecrets(c.Props)
	for _, k := range sortedKeys(public) {
		a = append(a, "--cluster-prop", k+"="+public[k])
	}
	if len(secrets) > 0 {
		// The values travel on a pipe: see SecretFiles.
		a = append(a, "--secrets-fd", fmt.Sprint(SecretsFD))
	}
	opt("hash-cache", c.HashCache)
	if c.Failures > 0 {
		opt("failures", fmt.Sprint(c.Failures))
	}
	if c.KillSeed != 0 {
		opt("kill-seed", fmt.Sprint(c.KillSeed))
	}
	opt("ckpt-dir", c.CkptDir)
	opt("role", c.Role)
	opt("fault-socket", c.FaultSocket)
	opt("cpuprofile", c.CPUProfile)
	opt("memprofile", c.MemProfile)
	if c.Live() {
		opt("live-warmup", c.Warmup.String())
		opt("live-duration", c.Duration.String())
	}
	if c.Live() || c.RdkStats > 0 {
		opt("live-dir", c.LiveDir)
		opt("rep", fmt.Sprint(c.Rep))
	}
	if c.MaxRate() {
		opt("maxrate-from", fmt.Sprint(c.MaxRateFrom))
		opt("maxrate-to", fmt.Sprint(c.MaxRateTo))
		opt("maxrate-p99", c.MaxRateP99.String())
	}
	if c.T0 != 0 {
		opt("t0", fmt.Sprint(c.T0))
	}
	return a
}

// MinDiscover and MaxDiscover bound a live cell's partition discovery
// interval, as source.Config.Discovery is bounded.
const (
	MinDiscover = 10 * time.Millisecond
	MaxDiscover = time.Hour
)

// Validate checks what the cell's parts cannot express alone: the bounds of
// each field, and the combinations a child refuses.
func (c *Cell) Validate() error {
	for _, k := range cell.Axes() {
		if known := cell.Values(k); known != nil && !slices.Contains(known, c.Value(k)) {
			return fmt.Errorf("unknown %s %q (want %s)", k, c.Value(k), strings.Join(known, ", "))
		}
	}
	for _, n := range []struct {
		key string
		v   int
	}{{cell.Batch, c.Batch}, {cell.Brokers, c.Brokers}} {
		if n.v <= 0 {
			return fmt.Errorf("%s must be > 0, got %d", n.key, n.v)
		}
	}
	// The rest of the name (aa, fault, ckpt) is checked by the one decoder.
	if _, err := cell.Parse(c.Name()); err != nil {
		return err
	}
	switch {
	case c.Records <= 0:
		return fmt.Errorf("records must be > 0, got %d", c.Records)
	case c.Partitions <= 0:
		return fmt.Errorf("partitions must be > 0, got %d", c.Partitions)
	case len(c.Bootstrap) == 0:
		return fmt.Errorf("no bootstrap servers")
	case c.Topic == "":
		return fmt.Errorf("no topic")
	case c.Timeout <= 0:
		return fmt.Errorf("timeout must be > 0")
	case c.Failures < 0:
		return fmt.Errorf("failures must be >= 0, got %d", c.Failures)
	case c.Failures > 0 && c.Ckpt <= 0:
		return fmt.Errorf("failures need checkpoints (a checkpoint interval > 0)")
	case c.Role != "" && c.Role != RoleReader && c.Role != RoleProducer:
		return fmt.Errorf("unknown role %q", c.Role)
	case c.Role == RoleReader && c.CkptDir == "":
		return fmt.Errorf("a reader needs --ckpt-dir")
	case cell.CountingPath(c.Path) && c.Ckpt > 0 && c.Path != cell.PathFlink:
		return fmt.Errorf("path=%s cannot checkpoint (it only counts records)", c.Path)
	case c.Par != "" && !cell.ParPath(c.Path):
		return fmt.Errorf("--par is a Flink job's parallelism; path=%s reads at par=auto only", c.Path)
	case c.ParN() > c.Partitions:
		return fmt.Errorf("--par %s runs more source subtasks than the topic's %d partitions", c.Par, c.Partitions)
	case c.Path == cell.PathFlinkWarm && c.Ckpt > 0:
		return fmt.Errorf("path=flink-warm does not checkpoint (path=flink measures Flink's checkpoints)")
	case c.Path == cell.PathFlink && c.Failures > 0:
		return fmt.Errorf("path=flink cannot have its reader killed (Flink checkpoints on its own)")
	case cell.CountingPath(c.Path) && c.FaultSocket != "":
		return fmt.Errorf("path=%s cannot take a mid-cell broker kill (use a Go path)", c.Path)
	case cell.CountingPath(c.Path) && !saslOnly(c.Props):
		return fmt.Errorf("path=%s takes no cluster props but SASL/PLAIN credentials (the others are librdkafka names)", c.Path)
	case c.Decoder == cell.DecoderNone && c.Ckpt > 0:
		return fmt.Errorf("decoder=none cannot checkpoint (its batches carry no rows to stage)")
	case c.FaultSocket != "" && c.Ckpt > 0:
		return fmt.Errorf("a broker kill cell cannot also checkpoint")
	case c.Wake < 0:
		return fmt.Errorf("wake must be >= 0, got %v", c.Wake)
	case c.PartFetch < 0 || c.QueueMin < 0 || c.FetchWait < 0 || c.RdkStats < 0:
		return fmt.Errorf("partfetch, queuemin, fetchwait and rdkstats must be >= 0")
	case (c.PartFetch > 0 || c.QueueMin > 0 || c.FetchWait > 0 || c.RdkStats > 0) && !cell.RdkPath(c.Path):
		return fmt.Errorf("partfetch, queuemin, fetchwait and rdkstats set librdkafka: path=%s does not read with it", c.Path)
	case c.Drain != "" && c.Path != cell.PathFast:
		return fmt.Errorf("drain=%s is the fast path's crossing: path=%s polls", c.Drain, c.Path)
	case c.Drain == cell.DrainAhead && c.Live():
		return fmt.Errorf("drain=ahead runs on bounded reads: a crossing ahead waits out its poll, which a live batch's linger cannot")
	case c.RdkStats > 0 && (c.Live() || c.Ckpt > 0 || c.Role != "" || cell.SpecialRead(c.Case)):
		return fmt.Errorf("rdkstats=%v samples a plain bounded read (no live mode, checkpoint, role or special case)", c.RdkStats)
	case c.Commit && (c.Ckpt <= 0 || cell.CountingPath(c.Path)):
		return fmt.Errorf("commit=on commits completed checkpoints' positions: it needs a checkpointing cell of a Go path")
	case c.Group != "" && (!c.Commit || c.Role != RoleReader):
		return fmt.Errorf("--group is a commit=on cell's reader's (its supervisor names the group)")
	case !c.Rescale.IsZero() && (c.Ckpt <= 0 || c.Failures < 1 || cell.CountingPath(c.Path) || c.Commit):
		return fmt.Errorf("rescale=%s restores a checkpoint into another parallelism: it needs a checkpointing cell of a Go path with failures >= 1 and no commit=on", c.Rescale)
	case c.Rescale.From > c.Partitions || c.Rescale.To > c.Partitions:
		return fmt.Errorf("rescale=%s: at most one subtask per partition (%d)", c.Rescale, c.Partitions)
	case c.Subtasks != 0 && (c.Role != RoleReader || c.Rescale.IsZero() || c.Subtasks != c.Rescale.From && c.Subtasks != c.Rescale.To):
		return fmt.Errorf("--subtasks is a rescale cell's reader's, %d or %d (its supervisor passes it)", c.Rescale.From, c.Rescale.To)
	case c.Discover < 0 || c.Discover > 0 && (c.Discover < MinDiscover || c.Discover > MaxDiscover):
		return fmt.Errorf("discover must be 0 (none) or %v..%v, got %v", MinDiscover, MaxDiscover, c.Discover)
	case c.Discover > 0 && (c.Mode != cell.ModeLive || cell.CountingPath(c.Path) || c.Wake > 0 || c.Pause > 0):
		return fmt.Errorf("discover=%v: only a live cell of a Go path adds partitions mid-read (no reference, maxrate, wake or pause)", c.Discover)
	case c.Discover > 0 && (c.Keys || c.Nulls > 0 || c.Partitions*2 > cell.MaxPartitions):
		return fmt.Errorf("discover=%v: the records written to the added partitions carry no keys and no tombstones, and the topic doubles (at most %d partitions)", c.Discover, cell.MaxPartitions/2)
	case c.Pause < 0:
		return fmt.Errorf("pause must be >= 0, got %v", c.Pause)
	case c.Pause > 0 && c.Wake > 0:
		return fmt.Errorf("pause=%v wakes the reader at its own interval: no wake too", c.Pause)
	case c.Pause > 0 && (cell.CountingPath(c.Path) || c.Ckpt > 0 || c.FaultSocket != "" || c.Case != "" || c.MaxRate()):
		return fmt.Errorf("pause=%v: only a plain bounded or live cell of a Go path pauses partitions (no reference, checkpoint, fault, case or maxrate)", c.Pause)
	case c.Wake > 0 && (cell.CountingPath(c.Path) || c.Ckpt > 0 || c.FaultSocket != "" || c.Case != "" || c.MaxRate()):
		return fmt.Errorf("wake=%v: only a plain bounded or live cell of a Go path wakes its reader (no reference, checkpoint, fault, case or maxrate)", c.Wake)
	case (c.Fault != "") != (c.FaultSocket != ""):
		return fmt.Errorf("fault=%s needs a --fault-socket and a --fault-socket needs fault=%s", cell.FaultKill, cell.FaultKill)
	}
	if err := c.validateLive(); err != nil {
		return err
	}
	return checkNotRedacted(c.Props)
}

// validateLive checks what a live cell needs and what it cannot combine
// with; a bounded cell has none of its settings.
func (c *Cell) validateLive() error {
	if !c.MaxRate() && (c.MaxRateFrom != 0 || c.MaxRateTo != 0 || c.MaxRateP99 != 0) {
		return fmt.Errorf("--maxrate-from, --maxrate-to and --maxrate-p99 are for mode=%s cells", cell.ModeMaxRate)
	}
	if !c.Live() {
		switch {
		case c.Warmup != 0 || c.Duration != 0 || c.T0 != 0:
			return fmt.Errorf("--live-warmup, --live-duration and --t0 are for mode=%s cells", cell.ModeLive)
		case c.LiveDir != "" && c.RdkStats == 0:
			return fmt.Errorf("--live-dir is for mode=%s cells and rdkstats cells", cell.ModeLive)
		case c.Role == RoleProducer:
			return fmt.Errorf("role %s is a mode=%s cell's", RoleProducer, cell.ModeLive)
		}
		return nil
	}
	rate := c.Rate
	if c.MaxRate() {
		switch {
		case c.MaxRateFrom < 1 || c.MaxRateTo <= c.MaxRateFrom:
			return fmt.Errorf("a maxrate cell needs 1 <= --maxrate-from < --maxrate-to, got %d and %d", c.MaxRateFrom, c.MaxRateTo)
		case c.MaxRateP99 <= 0:
			return fmt.Errorf("a maxrate cell needs a latency budget, --maxrate-p99 > 0")
		case c.Role == RoleProducer:
			return fmt.Errorf("a maxrate cell's producers are its trials' (mode=%s)", cell.ModeLive)
		}
		rate = c.MaxRateTo
	}
	switch {
	case cell.WhyNotLive(c.Path, c.Mode) != "":
		return fmt.Errorf("path=%s cannot read live: %s", c.Path, cell.WhyNotLive(c.Path, c.Mode))
	case c.Duration <= 0:
		return fmt.Errorf("a live cell needs --live-duration > 0")
	case c.Warmup < 0:
		return fmt.Errorf("--live-warmup must be >= 0, got %v", c.Warmup)
	case c.Records != LiveRecords(rate, c.Warmup+c.Duration):
		return fmt.Errorf("a live cell at rate=%d over %v writes %d records, not --records %d", rate, c.Warmup+c.Duration, LiveRecords(rate, c.Warmup+c.Duration), c.Records)
	case c.Ckpt > 0 || c.Failures > 0 || c.FaultSocket != "":
		return fmt.Errorf("a live cell cannot checkpoint or inject faults (yet)")
	case c.Txn || c.Nulls != 0 || c.Case != "":
		return fmt.Errorf("a live cell writes the clean topic: no txn, nulls or case")
	case c.Role == RoleReader:
		return fmt.Errorf("role %s is a checkpointing cell's", RoleReader)
	case (c.Role == RoleProducer) != (c.T0 > 0):
		return fmt.Errorf("--t0 is the producer's and the producer needs it")
	}
	return nil
}

// sortedKeys orders a map's keys, so rendered flags are deterministic.
func sortedKeys(m map[string]string) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// saslOnly reports whether props hold nothing but SASL credentials, which
// the reference paths translate into their clients' settings.
func saslOnly(props map[string]string) bool {
	for k := range props {
		switch k {
		case "security.protocol", "sasl.mechanism", "sasl.mechanisms", "sasl.username", "sasl.password":
		default:
			return false
		}
	}
	return true
}
