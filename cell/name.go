package cell

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
)

// Cell is one point of a ladder's matrix: one value per axis, plus what the
// spec sets per cell. Its Name is the sub-benchmark name of every row the
// cell produces.
type Cell struct {
	Path    string
	Format  string
	Batch   int
	Brokers int
	Alloc   string
	CRC     bool
	// Cluster is embedded, external or kafka; Name treats "" as embedded,
	// and Parse returns embedded when the name has no cluster part.
	Cluster string
	// Compression is the codec of the corpus's batches; Name treats "" as
	// none, and Parse returns none when the name has no compression part.
	Compression string
	// Size is the bytes records are scaled to; 0 (what Parse returns
	// without a size part) is the natural ~100 B record, size=100.
	Size int
	// Keys is set when records carry a key and two headers.
	Keys bool
	// Nulls is the share of tombstones (0: none).
	Nulls float64
	// Txn is set when the corpus is written in transactions, some aborted.
	Txn bool
	// Case is a parity case (cell.Cases); "" (what Parse returns without a
	// case part) is case=none.
	Case string
	// Decoder is "" or lab for the lab's decoder, stock for the stock
	// library route (Parse returns "" without a decoder part).
	Decoder string
	// Mode is "" or bounded for a bounded read, live for a live one
	// (Parse returns "" without a mode part).
	Mode string
	// Rate is a live cell's target produce rate (records per second; 0 for
	// a bounded cell).
	Rate int
	// Linger is a live cell's batch linger (0 for a bounded cell).
	Linger time.Duration
	// Par is a Flink cell's parallelism: "" (what Parse returns without a
	// par part) for auto, else one of Pars.
	Par string
	// Drain is the fast path's crossing as the cell names it: "" for the
	// fast path's default (FastDrain), else DrainCallback, DrainBatchQueue
	// or DrainAhead.
	Drain string
	// PartFetch, QueueMin and FetchWait override the lab's librdkafka
	// buffering (max.partition.fetch.bytes, queued.min.messages,
	// fetch.wait.max.ms) on a rowwise, shallow or fast cell; 0 keeps the
	// lab's setting (source's rdkBuffering).
	PartFetch int
	QueueMin  int
	FetchWait time.Duration
	// RdkStats is the interval at which a bounded librdkafka cell samples
	// librdkafka's statistics (0: none).
	RdkStats time.Duration
	// Wake is the interval at which the cell wakes its reader (cancels the
	// Next under way and calls it again), as a Flink fetcher does for a
	// checkpoint or a split change (0: never).
	Wake time.Duration
	// Pause is the interval at which the cell pauses a partition of its
	// reader and, one interval later, resumes it (0: never).
	Pause time.Duration
	// Discover is a live cell's partition discovery interval: its reader
	// looks for added partitions that often, and the cell adds some
	// mid-read (0: no discovery).
	Discover time.Duration
	// Ckpt is the checkpoint interval (0: checkpointing off).
	Ckpt time.Duration
	// Commit is set for a checkpointing cell whose readers commit every
	// completed checkpoint's positions for a consumer group (commit=on).
	Commit bool
	// Rescale is a checkpointing cell's change of parallelism after its
	// first failure (rescale=3to2; zero: none).
	Rescale Rescale
	// Prof is set for a profiled cell.
	Prof bool
	// Fault is FaultKill for a cell that kills and restarts a broker, else "".
	Fault string
	// AA is "a" or "b" for the two sides of an A/A calibration pair, else "".
	AA string
}

// ParN is the cell's parallelism as a count, 0 for auto (the rung
// resolves auto against the topic and the host, jvmref).
func (c Cell) ParN() int {
	n, _ := strconv.Atoi(c.Par) // Parse admits only Pars: auto or a count
	return n
}

// Name encodes the cell as a sub-benchmark name (without the
// "BenchmarkLadder/" prefix), key=value parts in the fixed order of Keys, so
// benchproc can project any of them:
//
//	path=fast/format=json/batch=8192/brokers=3/alloc=go/crc=off[/cluster=kafka][/compression=lz4][/size=1024][/keys=on][/nulls=0.01][/txn=aborts][/case=appended][/decoder=stock][/mode=live/rate=100000/linger=10ms][/par=2][/drain=batchqueue][/partfetch=4194304][/queuemin=1000000][/fetchwait=10ms][/rdkstats=100ms][/wake=20ms][/pause=100ms][/discover=100ms][/ckpt=1s][/commit=on][/rescale=3to2][/prof=on][/fault=kill][/aa=a]
//
// The optional axes (cluster to case) are left out at their Default. Parse
// is its inverse.
func (c Cell) Name() string { return join(c.parts()...) }

// parts are the name's key=value parts, in Keys' order: every key with a
// value, except the optional axes at their defaults.
func (c Cell) parts() []Part {
	ps := make([]Part, 0, len(Keys()))
	for _, k := range Keys() {
		v := c.Value(k)
		if v == "" || v == Default(k) {
			continue
		}
		ps = append(ps, Part{k, v})
	}
	return ps
}

// Value is the cell's value under key as it is written in its name (and in
// a spec): an optional axis's Default when it is unset, "" for an unset
// optional part or an unknown key.
func (c Cell) Value(key string) string {
	switch key {
	case Path:
		return c.Path
	case Format:
		return c.Format
	case Batch:
		return strconv.Itoa(c.Batch)
	case Brokers:
		return strconv.Itoa(c.Brokers)
	case Alloc:
		return c.Alloc
	case CRC:
		return onOff(c.CRC)
	case Cluster:
		if c.Cluster == "" {
			return ClusterEmbedded
		}
		return c.Cluster
	case Compression:
		if c.Compression == "" {
			return CompressionNone
		}
		return c.Compression
	case Size:
		if c.Size == 0 {
			return SizeNatural
		}
		return strconv.Itoa(c.Size)
	case Keyed:
		return onOff(c.Keys)
	case Nulls:
		return strconv.FormatFloat(c.Nulls, 'g', -1, 64)
	case Txn:
		if c.Txn {
			return TxnAborts
		}
		return Off
	case Case:
		if c.Case == "" {
			return CaseNone
		}
		return c.Case
	case Decoder:
		if c.Decoder == "" {
			return DecoderLab
		}
		return c.Decoder
	case Mode:
		if c.Mode == "" {
			return ModeBounded
		}
		return c.Mode
	case Rate:
		return strconv.Itoa(c.Rate)
	case Linger:
		if c.Linger > 0 {
			return c.Linger.String()
		}
		return "0"
	case Par:
		if c.Par == "" {
			return ParAuto
		}
		return c.Par
	case Drain:
		return c.Drain
	case PartFetch:
		if c.PartFetch > 0 {
			return strconv.Itoa(c.PartFetch)
		}
	case QueueMin:
		if c.QueueMin > 0 {
			return strconv.Itoa(c.QueueMin)
		}
	case FetchWait:
		if c.FetchWait > 0 {
			return c.FetchWait.String()
		}
	case RdkStats:
		if c.RdkStats > 0 {
			return c.RdkStats.String()
		}
	case Wake:
		if c.Wake > 0 {
			return c.Wake.String()
		}
	case Pause:
		if c.Pause > 0 {
			return c.Pause.String()
		}
	case Discover:
		if c.Discover > 0 {
			return c.Discover.String()
		}
	case Ckpt:
		if c.Ckpt > 0 {
			return c.Ckpt.String()
		}
	case Commit:
		if c.Commit {
			return On
		}
	case RescaleKey:
		return c.Rescale.String()
	case Prof:
		if c.Prof {
			return On
		}
	case Fault:
		return c.Fault
	case AA:
		return c.AA
	}
	return ""
}

// Matches reports whether the cell has every key=value of m.
func (c Cell) Matches(m map[string]string) bool {
	for k, v := range m {
		if c.Value(k) != v {
			return false
		}
	}
	return true
}

// Parse decodes a name written by Cell.Name. It is strict: every axis
// present, known keys only, in name order, values the lab knows (paths,
// formats, allocators, check.crcs and clusters from this package's lists;
// batch and brokers positive integers; ckpt a positive duration in its
// canonical form). Names from other tools go through Split or Dims.
func Parse(name string) (Cell, error) {
	ps, err := Split(name)
	if err != nil {
		return Cell{}, err
	}
	var c Cell
	last := -1
	for _, p := range ps {
		rank, ok := KeyRank(p.Key)
		if !ok {
			return Cell{}, fmt.Errorf("%s: unknown key %q", name, p.Key)
		}
		if rank < last {
			return Cell{}, fmt.Errorf("%s: key %q out of order (want %s)", name, p.Key, strings.Join(Keys(), ", "))
		}
		last = rank
		if err := c.set(p); err != nil {
			return Cell{}, fmt.Errorf("%s: %w", name, err)
		}
		if c.Value(p.Key) == "" {
			return Cell{}, fmt.Errorf("%s: %s=%s is the lab's own setting, never written", name, p.Key, p.Value)
		}
	}
	for _, k := range Axes() {
		i := slices.IndexFunc(ps, func(p Part) bool { return p.Key == k })
		switch def := Default(k); {
		case i < 0 && def == "":
			return Cell{}, fmt.Errorf("%s: no %s part", name, k)
		case i < 0:
			_ = c.set(Part{k, def})
		case ps[i].Value == def:
			return Cell{}, fmt.Errorf("%s: %s=%s is never written (it is the default)", name, k, def)
		}
	}
	if err := c.checkLive(); err != nil {
		return Cell{}, fmt.Errorf("%s: %w", name, err)
	}
	return c, nil
}

// Set assigns the value of one key as a name or a spec writes it, checking
// it against the key's vocabulary.
func (c *Cell) Set(key, value string) error { return c.set(Part{key, value}) }

// set assigns one part, checking its value.
func (c *Cell) set(p Part) error {
	var err error
	switch p.Key {
	case Path:
		c.Path, err = known(p, Paths())
	case Format:
		c.Format, err = known(p, Formats())
	case Batch:
		c.Batch, err = positive(p)
	case Brokers:
		c.Brokers, err = positive(p)
	case Alloc:
		c.Alloc, err = known(p, Allocs())
	case CRC:
		var v string
		v, err = known(p, CRCs())
		c.CRC = v == On
	case Cluster:
		c.Cluster, err = known(p, Clusters())
	case Compression:
		c.Compression, err = known(p, Compressions())
	case Size:
		if _, err = known(p, Sizes()); err == nil && p.Value != SizeNatural {
			c.Size, err = positive(p)
		}
	case Keyed:
		var v string
		v, err = known(p, KeySettings())
		c.Keys = v == On
	case Nulls:
		if _, err = known(p, NullShares()); err == nil {
			c.Nulls, err = strconv.ParseFloat(p.Value, 64)
		}
	case Txn:
		var v string
		v, err = known(p, Txns())
		c.Txn = v == TxnAborts
	case Case:
		if c.Case, err = known(p, Cases()); c.Case == CaseNone {
			c.Case = ""
		}
	case Decoder:
		if c.Decoder, err = known(p, Decoders()); c.Decoder == DecoderLab {
			c.Decoder = ""
		}
	case Mode:
		if c.Mode, err = known(p, Modes()); c.Mode == ModeBounded {
			c.Mode = ""
		}
	case Rate:
		if c.Rate = 0; p.Value != "0" {
			c.Rate, err = positive(p)
		}
	case Linger:
		if c.Linger = 0; p.Value != "0" {
			c.Linger, err = canonicalDuration(p)
		}
	case Par:
		if c.Par, err = known(p, Pars()); c.Par == ParAuto {
			c.Par = ""
		}
	case Drain:
		c.Drain, err = known(p, []string{DrainCallback, DrainBatchQueue, DrainAhead})
	case PartFetch:
		if c.PartFetch, err = positive(p); c.PartFetch == LabPartFetch {
			c.PartFetch = 0
		}
	case QueueMin:
		if c.QueueMin, err = positive(p); c.QueueMin == LabQueueMin {
			c.QueueMin = 0
		}
	case FetchWait:
		if c.FetchWait, err = canonicalDuration(p); c.FetchWait == LabFetchWait {
			c.FetchWait = 0
		}
	case RdkStats:
		c.RdkStats, err = canonicalDuration(p)
	case Wake:
		c.Wake, err = canonicalDuration(p)
	case Pause:
		c.Pause, err = canonicalDuration(p)
	case Discover:
		c.Discover, err = canonicalDuration(p)
	case Ckpt:
		c.Ckpt, err = canonicalDuration(p)
	case Commit:
		_, err = known(p, []string{On})
		c.Commit = true
	case RescaleKey:
		if c.Rescale, err = ParseRescale(p.Value); err == nil && c.Rescale.IsZero() {
			err = fmt.Errorf("rescale=off is never written")
		}
	case Prof:
		_, err = known(p, []string{On})
		c.Prof = true
	case Fault:
		c.Fault, err = known(p, Faults())
	case AA:
		c.AA, err = known(p, AASides())
	default:
		err = fmt.Errorf("unknown key %q", p.Key)
	}
	return err
}

// canonicalDuration is a positive duration written as time.Duration's
// String writes it, so a name has one spelling.
func canonicalDuration(p Part) (time.Duration, error) {
	d, err := time.ParseDuration(p.Value)
	switch {
	case err != nil || d <= 0:
		return 0, fmt.Errorf("%s=%s is not a positive duration", p.Key, p.Value)
	case d.String() != p.Value:
		return 0, fmt.Errorf("%s=%s is not written as %s", p.Key, p.Value, d)
	}
	return d, nil
}

// checkLive refuses live axes on a cell whose mode has none of them
// (AxisOf) and a live cell without them: a live cell's figures mean
// nothing without its rate and linger, a maxrate cell's without its linger.
func (c Cell) checkLive() error {
	mode := c.Value(Mode)
	switch {
	case c.Rate != 0 && !AxisOf(mode, Rate):
		if mode == ModeMaxRate {
			return fmt.Errorf("a mode=%s cell searches for its rate: it has no rate part", ModeMaxRate)
		}
		return fmt.Errorf("rate and linger are parts of a mode=%s or %s cell only", ModeLive, ModeMaxRate)
	case c.Linger != 0 && !AxisOf(mode, Linger):
		return fmt.Errorf("rate and linger are parts of a mode=%s or %s cell only", ModeLive, ModeMaxRate)
	case mode == ModeLive && (c.Rate == 0 || c.Linger == 0):
		return fmt.Errorf("a mode=%s cell needs rate and linger parts", ModeLive)
	case mode == ModeMaxRate && c.Linger == 0:
		return fmt.Errorf("a mode=%s cell needs a linger part", ModeMaxRate)
	}
	return nil
}

// Live reports whether the cell reads a topic while a producer writes it:
// mode=live, or mode=maxrate (a series of live reads).
func (c Cell) Live() bool { return c.Mode == ModeLive || c.Mode == ModeMaxRate }

// MaxRate reports whether the cell searches for the highest rate its path
// sustains live (mode=maxrate).
func (c Cell) MaxRate() bool { return c.Mode == ModeMaxRate }

func known(p Part, values []string) (string, error) {
	if !slices.Contains(values, p.Value) {
		return "", fmt.Errorf("%s=%s: unknown %s (want %s)", p.Key, p.Value, p.Key, strings.Join(values, ", "))
	}
	return p.Value, nil
}

func positive(p Part) (int, error) {
	n, err := strconv.Atoi(p.Value)
	if err != nil || n <= 0 || strconv.Itoa(n) != p.Value {
		return 0, fmt.Errorf("%s=%s is not a positive integer", p.Key, p.Value)
	}
	return n, nil
}

func onOff(b bool) string {
	if b {
		return On
	}
	return Off
}

// Part is one key=value element of a cell name.
type Part struct {
	Key, Value string
}

// Split splits any cell name ("path=fast/format=json/batch=8192") into its
// key=value parts, in order, without judging keys or values. Keys must be
// unique and usable as benchproc sub-name keys, and the name must fit on
// one benchfmt line.
func Split(name string) ([]Part, error) {
	if err := CheckName(name); err != nil {
		return nil, err
	}
	var parts []Part
	seen := map[string]bool{}
	for _, p := range strings.Split(name, "/") {
		k, v, ok := strings.Cut(p, "=")
		if !ok || k == "" {
			return nil, fmt.Errorf("%s: part %q is not key=value", name, p)
		}
		if strings.ContainsAny(k, `():@,"*`) || strings.HasPrefix(k, "-") {
			return nil, fmt.Errorf("%s: key %q has a character reserved by benchproc", name, k)
		}
		if seen[k] {
			return nil, fmt.Errorf("%s: key %q appears twice", name, k)
		}
		seen[k] = true
		parts = append(parts, Part{k, v})
	}
	return parts, nil
}

// ErrName is wrapped by CheckName's errors.
var ErrName = errors.New("bad cell name")

// CheckName refuses names that cannot round-trip through one benchfmt line.
func CheckName(name string) error {
	if name == "" {
		return fmt.Errorf("%w: empty", ErrName)
	}
	if strings.ContainsFunc(name, unicode.IsSpace) {
		return fmt.Errorf("%w: %q contains white space", ErrName, name)
	}
	return nil
}

// Dims splits a cell name into key -> value. Unlike Split it rejects
// nothing: a part without '=' is kept under its own text with an empty
// value, so plots and reports can show any name they are given.
func Dims(name string) map[string]string {
	dims := make(map[string]string)
	for _, p := range strings.Split(name, "/") {
		if p == "" {
			continue
		}
		k, v, _ := strings.Cut(p, "=")
		dims[k] = v
	}
	return dims
}

// IsAA reports whether name is one side of an A/A calibration pair.
func IsAA(name string) bool {
	_, ok := Dims(name)[AA]
	return ok
}
