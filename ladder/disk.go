package ladder

import (
	"errors"
	"os"
	"path/filepath"
	"time"

	"golang.org/x/sys/unix"

	"github.com/fastpathlab/fplab/cell"
	"github.com/fastpathlab/fplab/workloads"
)

// A run's disk is held to the free space under its root when it starts:
// real Kafka nodes keep every corpus of a cluster=kafka shape, replicated,
// under <run>/kafka until the shape stops, and the run keeps 8 bytes of
// expected hash per record of every corpus (<run>/hashes). Measured on real
// Kafka 4.1.1 (1M bid records, 6 partitions, uncompressed, blocks used
// under the nodes' data directories, 2026-12-04): json (144 B encoded)
// 155 B a record per replica, avro (58 B) 68 B; three brokers, three
// replicas: 467 B and 205 B. kafkaBytesPerRecord bounds the overhead;
// keyed corpora add their key and two headers (keyedBytesPerRecord).
const (
	kafkaBytesPerRecord = 16
	keyedBytesPerRecord = 64
	hashBytesPerRecord  = 8
	// kafkaDeleteDelay is how long real Kafka keeps a deleted topic's
	// segments (file.delete.delay.ms, 60000 by default; clusters/kafka
	// leaves it so).
	kafkaDeleteDelay = time.Minute
	// diskShareNum/Den is the share of the free space a run may plan to
	// take: the broker logs, journal, profiles and plots need the rest.
	diskShareNum, diskShareDen = 9, 10
)

// diskNeed estimates the bytes a run writes under its root that grow with
// its corpora.
func diskNeed(s *Spec, cells []cell.Cell) (int64, error) {
	schema, err := workloads.SchemaByName(s.Schema)
	if err != nil {
		return 0, err
	}
	seen := map[group]bool{}
	var total int64
	for _, c := range cells {
		g := groupOf(c)
		if !hasCorpus(c) || seen[g] {
			continue
		}
		seen[g] = true
		total += int64(s.Records) * hashBytesPerRecord
		if c.Value(cell.Cluster) != cell.ClusterKafka {
			continue
		}
		mean, err := groupMeanEncoded(s, schema, g)
		if err != nil {
			return 0, err
		}
		per := int64(mean + kafkaBytesPerRecord)
		if g.topic.Keys {
			per += keyedBytesPerRecord
		}
		total += int64(s.Records) * per * int64(min(g.shape.Brokers, 3))
	}
	live, err := liveDiskNeed(s, schema, cells)
	return total + live, err
}

// liveDiskNeed estimates what live cells write under the run's root: the
// expected hashes of every live corpus (format, topic shape, record count;
// the child caches them like a bounded cell's), and the replicated logs of
// the live topics on a cluster=kafka shape. A live topic is deleted when
// its cell ends, but Kafka removes its segments only kafkaDeleteDelay
// later, so the topics of the cells that end within that delay are on
// disk together: at most 1 + delay / (live_warmup + duration) of them,
// each counted as the largest. A maxrate cell writes a topic per trial,
// each counted at its largest (max_rate.to), and caches no hashes (each
// trial's corpus is its own; ladder/rung's maxrate.go).
func liveDiskNeed(s *Spec, schema *workloads.Schema, cells []cell.Cell) (int64, error) {
	type corpus struct {
		format string
		topic  cell.Cell
		n      int
	}
	seen := map[corpus]bool{}
	var hashes, log int64
	runs := 0
	for _, c := range cells {
		if !c.Live() {
			continue
		}
		k := corpus{c.Format, topicParts(c), s.topRecords(c)}
		if !seen[k] && !c.MaxRate() {
			seen[k] = true
			hashes += int64(k.n) * hashBytesPerRecord
		}
		if c.Value(cell.Cluster) != cell.ClusterKafka {
			continue
		}
		runs += (s.Warmup + s.Repetitions) * s.maxRateTrials(c)
		mean, err := meanEncodedOf(s, schema, k.format, k.topic, k.n)
		if err != nil {
			return 0, err
		}
		per := int64(mean + kafkaBytesPerRecord)
		if c.Keys {
			per += keyedBytesPerRecord
		}
		log = max(log, int64(k.n)*per*int64(min(c.Brokers, 3)))
	}
	span := s.LiveWarmup + s.Duration
	together := 1
	if span > 0 {
		together += int((kafkaDeleteDelay + span - 1) / span)
	}
	return hashes + log*int64(min(together, runs)), nil
}

// checkDisk refuses a run whose corpora would take more than diskShare of
// the free space free.
func checkDisk(s *Spec, cells []cell.Cell, free int64) error {
	need, err := diskNeed(s, cells)
	if err != nil || free <= 0 {
		return err
	}
	if limit := free / diskShareDen * diskShareNum; need > limit {
		return fieldErrorf("records", "the run would write about %s of corpora (real Kafka's replicated logs and the expected hashes), more than %d%% of the %s free under its root; lower records, free space or give another --root",
			gib(need), 100*diskShareNum/diskShareDen, gib(free))
	}
	return nil
}

// freeBytes is the space an unprivileged writer may still use on the file
// system of root, or of its nearest existing ancestor (root is made by the
// run); 0 when it cannot be read (the check is then skipped, not guessed).
func freeBytes(root string) int64 {
	dir, err := filepath.Abs(root)
	if err != nil {
		return 0
	}
	for {
		var st unix.Statfs_t
		err := unix.Statfs(dir, &st)
		if err == nil {
			return int64(st.Bavail) * int64(st.Bsize)
		}
		parent := filepath.Dir(dir)
		if !errors.Is(err, os.ErrNotExist) || parent == dir {
			return 0
		}
		dir = parent
	}
}
