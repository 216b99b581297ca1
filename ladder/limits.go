package ladder

import (
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/fastpathlab/fplab/cell"
)

// The bounds LoadSpec checks, so that a spec the lab cannot run is refused
// before any process starts or any directory is made. Each mirrors a limit
// enforced further down the flow, where it would cost a broker start, a
// corpus load or a whole run of failed cells to find out; the comment names
// the code that enforces it. Those packages keep theirs unexported, so the
// numbers are repeated here (TestLimitsMatchDownstream pins the ones it can
// reach through an exported API; source's own TestBoundsLadderMirrors pins
// its bounds).
const (
	// maxBatch is source's limits.maxBatch (source/config.go, pinned by
	// source's TestBoundsLadderMirrors): every path refuses a batch of more
	// than 1<<20 rows, so such a cell could only fail.
	maxBatch = 1 << 20
	// maxBrokers is clusters' brokersLimit (clusters/limits.go) and
	// clusters/kafka's maxBrokers: neither the embedded cluster nor real
	// Kafka starts with more than 9 brokers. An external cluster's broker
	// count is the cluster's business and is not bounded.
	maxBrokers = 9
	// maxPartitions is the loader's and every reader's bound.
	maxPartitions = cell.MaxPartitions
	// maxRecords bounds the corpus. The embedded cluster (kfake) keeps every
	// record in the broker process's memory, and every corpus of a run stays
	// there until the run ends: at about 2 x the encoded size + 64 bytes a
	// record (memory.go; 352 B for bid json and raw) 50M records are 16 GiB
	// per corpus, against the 24 GiB of the lab VM; the corpora of a run
	// together are held to the host's memory when it starts
	// (checkHostMemory). A cell holds nothing per record: its verifier
	// reads the expected hashes from a file in windows (ladder/rung/window.go).
	maxRecords = 50_000_000
	// maxKafkaRecords bounds the corpus of a spec whose cells all run on
	// real Kafka, which keeps it on disk (the run's disk estimate, disk.go,
	// is checked against the free space before it starts): the bound is
	// the hash cache's (8 bytes a record, 1.6 GB) and the load's time.
	maxKafkaRecords = 200_000_000
	// maxSizedBytes bounds records x size for scaled records (size above
	// 100): an embedded broker holds the corpus in memory, and 16 KiB
	// records at the default record counts would be tens of GB.
	maxSizedBytes = 2 << 30
	// maxRounds bounds repetitions and warm-up rounds. The schedule is laid
	// out in memory before the first child starts, so 10^9 rounds died with
	// an out-of-memory trace; and past a few dozen rounds a figure's
	// confidence interval no longer narrows enough to pay for the hours.
	// 1000 leaves room for long A/A studies.
	maxRounds = 1000
	// maxFailures is checkpointcost's bound on injected reader kills
	// (SuperviseOptions.validate in checkpointcost/supervise.go).
	maxFailures = 10000
	// minKillBrokers is the smallest cluster=kafka shape a broker_kill
	// cell may run on: topics get replication factor min(N, 3)
	// (startRealKafka), so only 3 or more brokers keep every partition's
	// data and the controller quorum through one broker's death.
	minKillBrokers = 3
	// maxCells bounds the product of the axes, computed before it is
	// expanded (productSize): product lays every cell out in memory
	// (about 250 bytes each, so 50 MB at the bound) before exclusions and
	// covering reduce it. full.yaml, the whole matrix, is 720;
	// smoke.yaml's product is 172,800 (57,600 bounded cells and as many
	// live and maxrate ones each before its exclusions), which its
	// covering set reduces to five cells.
	maxCells = 200_000
	// maxEntries bounds the child runs of a schedule (cells plus the A/A
	// pair, times warm-up and measured rounds): at a second each, a million
	// is eleven days.
	maxEntries = 1_000_000
	// maxPartFetch, maxQueueMin and maxFetchWait are librdkafka's own
	// ranges for max.partition.fetch.bytes, queued.min.messages and
	// fetch.wait.max.ms (source/tuning.go refuses more); minRdkStats and
	// maxRdkStats source's bounds on the statistics interval
	// (Config.Stats, source/config.go).
	maxPartFetch = 1_000_000_000
	maxQueueMin  = 10_000_000
	maxFetchWait = 300 * time.Second
	minRdkStats  = 10 * time.Millisecond
	maxRdkStats  = time.Hour
)

// killableFraction is the share of the corpus in which the checkpoint
// supervisor places its kills: it draws `failures` distinct record
// positions in the first 9/10 of the range (killTargets in
// checkpointcost/supervise.go), so it cannot place more than that.
const killableNum, killableDen = 9, 10

// checkSpec runs the checks that need more than one field or the expanded
// cells: sizes, failures against records and checkpoints, and the axis
// combinations that cannot run. It runs on every spec the ladder is given,
// parsed or stored in a manifest, before anything starts.
func checkSpec(s *Spec) error {
	if err := checkBounds(s); err != nil {
		return err
	}
	if err := checkLiveSpec(s); err != nil {
		return err
	}
	if err := checkMaxRateSpec(s); err != nil {
		return err
	}
	if err := checkSizes(s); err != nil {
		return err
	}
	if err := checkFailures(s); err != nil {
		return err
	}
	if err := checkDecodeMem(s); err != nil {
		return err
	}
	cells, err := Expand(s)
	if err != nil {
		return &SpecError{Field: "exclude", Msg: err.Error(), Err: err}
	}
	if err := checkLiveCells(cells); err != nil {
		return err
	}
	if err := checkCombinations(s, cells); err != nil {
		return err
	}
	if err := checkBrokerKill(s, cells); err != nil {
		return err
	}
	if err := checkHeadline(s, cells); err != nil {
		return err
	}
	if _, err := calibrationCell(s, cells); err != nil {
		return &SpecError{Field: "calibrate", Msg: err.Error(), Err: err}
	}
	return nil
}

// checkBounds holds a spec that did not come through the parser (built in
// code, or stored in a manifest) to the parser's value bounds.
func checkBounds(s *Spec) error {
	for _, k := range cell.Axes() { // the optional axes may be absent: [their default]
		vs := s.Axis(k)
		if len(vs) == 0 {
			return fieldErrorf(k, "the axis is empty")
		}
		for _, v := range vs {
			var c cell.Cell
			if err := c.Set(k, v); err != nil {
				return &SpecError{Field: k, Msg: err.Error(), Err: err}
			}
		}
	}
	for _, b := range s.Batch {
		if b < 1 || b > maxBatch {
			return fieldErrorf(cell.Batch, "%d is out of 1..%d", b, maxBatch)
		}
	}
	for _, b := range s.Brokers {
		if b < 1 {
			return fieldErrorf(cell.Brokers, "%d is not positive", b)
		}
	}
	if err := checkRdkBounds(s); err != nil {
		return err
	}
	// A spec of live cells only has no corpus: records is 0 (checkLiveSpec).
	minRecords := 1
	if !s.hasBounded() {
		minRecords = 0
	}
	for _, v := range []struct {
		field     string
		n, lo, hi int
	}{
		{"records", s.Records, minRecords, s.maxRecords()},
		{"repetitions", s.Repetitions, 1, maxRounds},
		{"warmup", s.Warmup, 0, maxRounds},
		{"partitions", s.Partitions, 1, maxPartitions},
		{"failures", s.Failures, 0, maxFailures},
	} {
		if v.field == "records" && v.n > v.hi && v.hi < maxKafkaRecords {
			return fieldErrorf(v.field, "%d is over the bound of %d for embedded cells (an embedded broker holds the corpus in memory); a spec on cluster kafka alone may read up to %d", v.n, v.hi, maxKafkaRecords)
		}
		if v.n < v.lo || v.n > v.hi {
			return fieldErrorf(v.field, "%d is out of %d..%d", v.n, v.lo, v.hi)
		}
	}
	if s.Timeout <= 0 {
		return fieldErrorf("timeout", "%v is not positive", s.Timeout)
	}
	for _, v := range s.Size {
		if n, _ := strconv.Atoi(v); v != cell.SizeNatural && int64(n)*int64(s.Records) > maxSizedBytes {
			return fieldErrorf(cell.Size, "%s-byte records x %d records is over the lab's %d GiB bound on a scaled corpus (use fewer records)", v, s.Records, maxSizedBytes>>30)
		}
	}
	return nil
}

// checkSizes refuses a spec whose expansion or schedule is too large to lay
// out, before either is built.
func checkSizes(s *Spec) error {
	n := productSize(s)
	if n > maxCells {
		return fieldErrorf("spec", "the axes multiply to more than %d cells (the lab's bound on one spec)", maxCells)
	}
	if entries := (n + 2) * (s.Warmup + s.Repetitions); entries > maxEntries {
		return fieldErrorf("repetitions", "%d cells plus the A/A pair over %d rounds are %d child runs, more than the lab's bound of %d", n, s.Warmup+s.Repetitions, entries, maxEntries)
	}
	return nil
}

// productSize is the number of cells product builds (before exclusions),
// exactly, or maxCells+1 when it is more: every combination of the axes
// other than mode and the live axes, and of profile, is a bounded cell once
// per checkpoint value, a live cell once per rate x linger and a maxrate
// cell once per linger.
func productSize(s *Spec) int {
	// times multiplies, capped past maxCells so that no product overflows
	// (each factor is a list's length).
	times := func(n int, ks ...int) int {
		for _, k := range ks {
			n = min(n*k, maxCells+1)
		}
		return n
	}
	base := max(1, len(s.Profile))
	for _, k := range cell.Axes() {
		if k != cell.Mode && !slices.Contains(cell.LiveAxes(), k) {
			base = times(base, len(s.Axis(k)))
		}
	}
	n := 0
	if s.hasBounded() {
		n += times(base, max(1, len(s.Checkpoint)), max(1, len(s.CommitOffsets)), max(1, len(s.Rescale)), max(1, len(s.Wake)), max(1, len(s.Pause)), rdkTimes(s), max(1, len(s.RdkStats)))
	}
	if s.hasLive() {
		n += times(base, len(s.Rate), len(s.Linger), max(1, len(s.Wake)), max(1, len(s.Pause)), max(1, len(s.Discover)), rdkTimes(s))
	}
	if s.hasMaxRate() {
		n += times(base, len(s.Linger))
	}
	return min(n, maxCells+1)
}

// rdkTimes is how many librdkafka tunings each librdkafka cell takes
// (at most: other paths take one), capped like productSize's factors.
func rdkTimes(s *Spec) int {
	return min(max(1, len(s.Drain))*max(1, len(s.PartFetch))*max(1, len(s.QueueMin))*max(1, len(s.FetchWait)), maxCells+1)
}

// checkRdkBounds holds the librdkafka tuning and rdkstats settings to
// librdkafka's and source's ranges.
func checkRdkBounds(s *Spec) error {
	for _, n := range s.PartFetch {
		if n < 1 || n > maxPartFetch {
			return fieldErrorf(cell.PartFetch, "%d is out of librdkafka's 1..%d", n, maxPartFetch)
		}
	}
	for _, n := range s.QueueMin {
		if n < 1 || n > maxQueueMin {
			return fieldErrorf(cell.QueueMin, "%d is out of librdkafka's 1..%d", n, maxQueueMin)
		}
	}
	for _, d := range s.FetchWait {
		if d < 0 || d > maxFetchWait || d%time.Millisecond != 0 {
			return fieldErrorf(cell.FetchWait, "%v is not whole milliseconds up to %v (librdkafka's fetch.wait.max.ms)", d, maxFetchWait)
		}
	}
	for _, d := range s.RdkStats {
		if d != 0 && (d < minRdkStats || d > maxRdkStats || d%time.Millisecond != 0) {
			return fieldErrorf(cell.RdkStats, "%v is not whole milliseconds from %v to %v (statistics.interval.ms)", d, minRdkStats, maxRdkStats)
		}
	}
	return nil
}

// checkFailures refuses reader kills that could not be placed: without a
// checkpointing cell nothing restores a killed reader, and the supervisor
// draws distinct positions from the first 9/10 of the corpus.
// checkDecodeMem refuses decode_mem without the decode micro-benchmark it
// configures, and values a hand-built spec could hold.
func checkDecodeMem(s *Spec) error {
	if len(s.DecodeMem) > 0 && !slices.Contains(s.Micro, cell.MicroDecode) {
		return fieldErrorf("decode_mem", "configures the decode micro-benchmark, which the spec does not run (add micro: [decode])")
	}
	for _, m := range s.DecodeMem {
		if !slices.Contains(cell.DecodeMems(), m) {
			return fieldErrorf("decode_mem", "unknown allocator %q (want %s)", m, strings.Join(cell.DecodeMems(), ", "))
		}
	}
	return nil
}

func checkFailures(s *Spec) error {
	if s.Failures == 0 {
		return nil
	}
	if !slices.ContainsFunc(s.Checkpoint, func(d time.Duration) bool { return d > 0 }) {
		return fieldErrorf("failures", "%d reader kills need checkpoints (set checkpoint to an interval, e.g. 1s)", s.Failures)
	}
	if hi := s.Records * killableNum / killableDen; s.Failures > hi {
		return fieldErrorf("failures", "%d kills cannot be placed in %d records (at most %d: kills land on distinct records in the first %d/%d of the corpus)", s.Failures, s.Records, hi, killableNum, killableDen)
	}
	return nil
}

// checkCombinations refuses the cells no run can measure:
//   - a reference path (java, java-perf, flink, flink-warm, ceiling: they count
//     records, cell.CountingPath) with transactions, a parity case or a
//     decoder other than lab: nothing of theirs can be told committed from
//     aborted, or failed on purpose (flink runs the start-up cases all the
//     same, as their oracle: it reports where it read each partition);
//     with checkpoints, except flink, which
//     checkpoints with Flink's own mechanism and reports Flink's
//     checkpoint durations (no reader kills: failures must be 0);
//   - java-perf off cluster kafka: ConsumerPerformance comes with the
//     Kafka distribution started for real brokers (docs/kafka.md);
//   - flink or flink-warm with tombstones (Flink's value-only
//     deserializers drop a null value, so its count could not equal the
//     corpus); flink-warm with checkpoints;
//   - par other than auto off the Flink paths (cell.ParPath), or above
//     the partition count;
//   - brokers over the embedded and kafka clusters' bound;
//   - wake on a reference path, a checkpointing cell, a parity case or a
//     maxrate cell (rungargs refuses them: the wakes are measured on a
//     plain read of a Go path);
//   - pause with wake, or where wake is refused;
//   - commit_offsets on a reference path;
//   - discover on a reference path, with wake or pause, keys or nulls;
//   - rescale on a reference path, with commit_offsets, without
//     failures, or with more subtasks than partitions;
//   - checkpoints in a parity case that is a special read (start-is-stop,
//     appended, the failures): those cells read once;
//   - case denied off cluster kafka: only real Kafka runs the ACL
//     authorizer the case needs;
//   - decoder stock off the shallow and fast paths, or on csv or raw (no
//     per-message stock route; workloads/stock.Best);
//   - decoder none (the consume-only twin) off the shallow, fast and franz
//     paths, with checkpoints, or in a special read.
//
// Exclusions are applied first, so `exclude: [{path: java-perf, cluster:
// embedded}]` is how a spec runs java-perf next to embedded cells.
func checkCombinations(s *Spec, cells []cell.Cell) error {
	for _, c := range cells {
		counting := cell.CountingPath(c.Path)
		switch {
		case c.Path == cell.PathFlinkWarm && c.Ckpt > 0:
			return fieldErrorf("checkpoint", "path flink-warm does not checkpoint (its warm-up reads would checkpoint too; path flink measures Flink's checkpoints), but cell %s would", c.Name())
		case counting && c.Ckpt > 0 && c.Path != cell.PathFlink:
			return fieldErrorf("checkpoint", "path %s cannot checkpoint (it only counts records), but cell %s does", c.Path, c.Name())
		case c.Path == cell.PathFlink && c.Ckpt > 0 && s.Failures > 0:
			return fieldErrorf("failures", "path flink checkpoints with Flink's own mechanism and cannot have its reader killed, but cell %s would be (failures: %d); exclude it", c.Name(), s.Failures)
		case counting && (c.Txn || (c.Value(cell.Case) != cell.CaseNone && !(c.Path == cell.PathFlink && cell.StartCase(c.Case)))):
			return fieldErrorf(cell.Path, "%s only counts records, so it cannot verify cell %s (transactions or a parity case); exclude it", c.Path, c.Name())
		case counting && c.Value(cell.Decoder) != cell.DecoderLab:
			return fieldErrorf(cell.Decoder, "path %s decodes with its own stock route, so cell %s cannot choose decoder=%s; exclude it", c.Path, c.Name(), c.Decoder)
		case c.Path == cell.PathJavaPerf && c.Cluster != cell.ClusterKafka:
			return fieldErrorf(cell.Path, "java-perf runs on cluster kafka only, but cell %s is on %s (exclude it: - {path: java-perf, cluster: %s})", c.Name(), c.Value(cell.Cluster), c.Value(cell.Cluster))
		case cell.ParPath(c.Path) && c.Value(cell.Nulls) != cell.NullsNone:
			return fieldErrorf(cell.Nulls, "path %s cannot count tombstones (its value-only deserializers drop null values), but cell %s has nulls=%s", c.Path, c.Name(), c.Value(cell.Nulls))
		case c.Par != "" && !cell.ParPath(c.Path):
			return fieldErrorf(cell.Par, "par is a Flink job's parallelism; path %s reads at par=auto only, but cell %s has par=%s (exclude it)", c.Path, c.Name(), c.Par)
		case c.Par != "" && c.ParN() > s.Partitions:
			return fieldErrorf(cell.Par, "par=%s runs more source subtasks than the topic's %d partitions (the extra ones would idle), cell %s", c.Par, s.Partitions, c.Name())
		case c.Wake > 0 && (counting || c.Ckpt > 0 || c.Case != "" || c.MaxRate()):
			return fieldErrorf(cell.Wake, "only a plain bounded or live cell of a Go path wakes its reader (no reference path, checkpoint, parity case or maxrate), but cell %s would", c.Name())
		case c.Commit && counting:
			return fieldErrorf("commit_offsets", "path %s does not commit offsets from the lab's checkpoints (flink commits on its own), but cell %s would", c.Path, c.Name())
		case !c.Rescale.IsZero() && counting:
			return fieldErrorf(cell.RescaleKey, "path %s is not restored from the lab's checkpoints, but cell %s would be", c.Path, c.Name())
		case !c.Rescale.IsZero() && c.Commit:
			return fieldErrorf(cell.RescaleKey, "a rescaled reader does not commit offsets, but cell %s has commit=on; list commit_offsets off for it", c.Name())
		case !c.Rescale.IsZero() && s.Failures < 1:
			return fieldErrorf(cell.RescaleKey, "rescale=%s restores a checkpoint after a failure, but failures is %d", c.Rescale, s.Failures)
		case c.Rescale.From > s.Partitions || c.Rescale.To > s.Partitions:
			return fieldErrorf(cell.RescaleKey, "rescale=%s runs more subtasks than the topic's %d partitions", c.Rescale, s.Partitions)
		case c.Discover > 0 && (counting || c.Wake > 0 || c.Pause > 0):
			return fieldErrorf(cell.Discover, "only a live cell of a Go path without wake or pause adds partitions mid-read, but cell %s would", c.Name())
		case c.Discover > 0 && (c.Keys || c.Nulls > 0):
			return fieldErrorf(cell.Discover, "the records a discover cell writes to its added partitions carry no keys and no tombstones, but cell %s has keys or nulls", c.Name())
		case c.Discover > 0 && 2*s.Partitions > cell.MaxPartitions:
			return fieldErrorf(cell.Discover, "a discover cell doubles its topic's %d partitions, past the bound of %d", s.Partitions, cell.MaxPartitions)
		case c.RdkStats > 0 && (c.Ckpt > 0 || cell.SpecialRead(c.Case)):
			return fieldErrorf(cell.RdkStats, "rdkstats samples a plain bounded read (no checkpoint, no special case), but cell %s is not one; list off for it", c.Name())
		case c.Pause > 0 && c.Wake > 0:
			return fieldErrorf(cell.Pause, "a pause cell wakes its reader at its pause interval, but cell %s has a wake interval too", c.Name())
		case c.Pause > 0 && (counting || c.Ckpt > 0 || c.Case != "" || c.MaxRate()):
			return fieldErrorf(cell.Pause, "only a plain bounded or live cell of a Go path pauses partitions (no reference path, checkpoint, parity case or maxrate), but cell %s would", c.Name())
		case c.Ckpt > 0 && cell.SpecialRead(c.Case):
			return fieldErrorf("checkpoint", "case %s is read once, not checkpointed, but cell %s checkpoints", c.Case, c.Name())
		case c.Decoder == cell.DecoderStock && c.Path != cell.PathShallow && c.Path != cell.PathFast:
			return fieldErrorf(cell.Decoder, "decoder stock runs on the shallow and fast paths only, but cell %s is path %s", c.Name(), c.Path)
		case c.Decoder == cell.DecoderStock && c.Format != cell.FormatJSON && c.Format != cell.FormatAvro && c.Format != cell.FormatProtobuf:
			return fieldErrorf(cell.Decoder, "decoder stock needs a per-message stock route (json, avro, protobuf), but cell %s is format %s", c.Name(), c.Format)
		case c.Decoder == cell.DecoderNone && c.Path != cell.PathShallow && c.Path != cell.PathFast && c.Path != cell.PathFranz:
			return fieldErrorf(cell.Decoder, "decoder none (the consume-only twin) runs on the shallow, fast and franz paths only, but cell %s is path %s", c.Name(), c.Path)
		case c.Decoder == cell.DecoderNone && (c.Ckpt > 0 || cell.SpecialRead(c.Case)):
			return fieldErrorf(cell.Decoder, "decoder none only counts what it drains, so it cannot checkpoint or read a special case, but cell %s does", c.Name())
		case c.Case == cell.CaseDenied && c.Cluster != cell.ClusterKafka:
			return fieldErrorf(cell.Case, "case denied needs cluster kafka (an ACL authorizer), but cell %s is on %s", c.Name(), c.Value(cell.Cluster))
		case c.Cluster != cell.ClusterExternal && c.Brokers > maxBrokers:
			return fieldErrorf(cell.Brokers, "%d brokers is over the %s cluster's bound of %d (cell %s)", c.Brokers, c.Cluster, maxBrokers, c.Name())
		}
	}
	return nil
}

// checkBrokerKill refuses a broker_kill that selects no cell, or a cell that
// cannot lose a broker mid-cell: one off cluster kafka or with fewer than
// minKillBrokers brokers; a reference path (cell.CountingPath), which
// cannot be told when it is mid-cell (only the Go paths request the kill);
// a checkpointing cell, which the rung refuses (and checkpoint is not an
// axis an exclusion can drop); a live cell, which the rung refuses too
// (rungargs' validateLive), and so a maxrate cell. Expand has marked the
// selected cells (Fault).
func checkBrokerKill(s *Spec, cells []cell.Cell) error {
	if len(s.BrokerKill) == 0 {
		return nil
	}
	const field = "broker_kill"
	n := 0
	for _, c := range cells {
		if c.Fault == "" {
			continue
		}
		n++
		switch {
		case c.Cluster != cell.ClusterKafka || c.Brokers < minKillBrokers:
			return fieldErrorf(field, "selects %s, but a broker can only be killed on cluster kafka with %d or more brokers", c.Name(), minKillBrokers)
		case cell.CountingPath(c.Path):
			return fieldErrorf(field, "selects %s, but path %s cannot be told when it is mid-cell (use a Go path)", c.Name(), c.Path)
		case c.Ckpt > 0:
			return fieldErrorf(field, "selects %s, but a broker kill cell cannot also checkpoint (rung refuses it; checkpoint is not an axis to exclude)", c.Name())
		case c.Live():
			return fieldErrorf(field, "selects %s, but a live or maxrate cell cannot lose a broker mid-cell (yet); add mode: %s to broker_kill", c.Name(), cell.ModeBounded)
		}
	}
	if n == 0 {
		return fieldErrorf(field, "selects no cell of the expansion (%s)", mapString(s.BrokerKill))
	}
	return nil
}

// maxRecords is the bound on s's corpus: maxKafkaRecords when every
// cluster it lists is real Kafka, else maxRecords, what an embedded
// broker holds in memory.
func (s *Spec) maxRecords() int {
	if len(s.Cluster) == 0 {
		return maxRecords
	}
	for _, c := range s.Cluster {
		if c != cell.ClusterKafka {
			return maxRecords
		}
	}
	return maxKafkaRecords
}
