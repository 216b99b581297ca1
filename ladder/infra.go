package ladder

import (
	"context"

	"github.com/fastpathlab/fplab/results/cell"
)

// Errors of an Infra or a Cluster carry no package prefix: the runner
// wraps them (into ErrInfra), and only the outermost error is prefixed.
//
// Infra brings up the clusters a run needs and loads corpora onto them. The
// real one (NewKafkaInfra) starts `fplab broker` processes and produces
// records with package clusters; tests use a fake, so the ladder's logic
// runs without Kafka.
type Infra interface {
	// Start starts (embedded) or attaches to (external) the cluster of one
	// shape. The ladder calls it once per shape per run and stops it at the
	// end of the run, on error and on interrupt.
	Start(ctx context.Context, c ClusterSpec) (Cluster, error)
}

// Cluster is one running cluster shape.
type Cluster interface {
	// Bootstrap is the list of host:port the child connects to.
	Bootstrap() []string
	// Load makes sure the corpus is on its topic and returns the topic name.
	// The ladder calls it once per (format, shape) group, with a deadline
	// (Options.LoadTimeout), so a broker that dies mid-load cannot hang
	// the run; an implementation should reuse a topic that already holds
	// the full corpus.
	Load(ctx context.Context, c CorpusSpec) (topic string, err error)
	// Alive reports whether the cluster still serves: nil, or an error
	// (without a package prefix: the runner wraps it into ErrInfra)
	// naming what is down. The ladder asks it after a cell fails, to tell
	// a cell's own failure from a dead broker (which stops the run, so the
	// remaining cells are not all failed in a second each); ctx carries
	// the probe's deadline.
	Alive(ctx context.Context) error
	// Stop stops what Start started (nothing, for an external cluster).
	Stop() error
}

// ClusterSpec is what Start needs to know.
type ClusterSpec struct {
	Shape      Shape
	Partitions int
	Bootstrap  []string          // external clusters
	Props      map[string]string // external clusters: client properties
	Dir        string            // run directory (cluster=kafka keeps broker logs under it)
}

// CorpusSpec names one corpus: the records every cell of a (format, shape)
// group consumes.
type CorpusSpec struct {
	Format string
	// Compression is the codec the producer compresses batches with
	// (cell.Compressions); the topic name carries it unless it is none.
	Compression string
	Schema      string
	Seed        uint64
	Records     int
	Partitions  int
}

// corpusTopic names the topic of a corpus produced with compression: the
// corpus ID, plus the codec unless it is none (so a compressed corpus never
// reuses a plain one's topic, and names of plain runs stay as they were).
func corpusTopic(corpusID, compression string) string {
	if compression == "" || compression == cell.CompressionNone {
		return corpusID
	}
	return corpusID + "-" + compression
}
