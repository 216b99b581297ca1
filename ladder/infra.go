package ladder

import (
	"context"

	"github.com/fastpathlab/fplab/cell"
)

// Errors of an Infra or a Cluster carry no package prefix, as no error of
// the ladder does: the runner wraps them (into ErrInfra), and only the CLI
// writes a prefix ("fplab ladder: ").
//
// Infra brings up the clusters a run needs and loads corpora onto them. The
// real one (KafkaInfra) starts `fplab broker` processes and produces
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
	Scratch    string            // the ladder's scratch directory (fault sockets); "" is os.TempDir()
	// Auth starts a cluster=kafka shape with SASL/PLAIN and an ACL
	// authorizer: a cell of the shape is case=denied. Its cells then read
	// as a user allowed to read every corpus topic, the denied cells as one
	// with no ACL (CellProps).
	Auth bool
}

// cellProper is a Cluster whose cells need client properties of their own
// (a cluster with users and ACLs).
type cellProper interface {
	CellProps(c cell.Cell) map[string]string
}

// CorpusSpec names one corpus: the records every cell of a (format,
// topic shape, cluster shape) group consumes.
type CorpusSpec struct {
	Format string
	// Topic holds the parts of the cells' names that shape their topic:
	// compression, size, keys, nulls, txn, and a case that shapes or changes the
	// topic (cell.TopicCase); every other field of it is unset.
	Topic      cell.Cell
	Schema     string
	Seed       uint64
	Records    int
	Partitions int
}

// topicParts are the cell parts that make a topic of its own.
func topicParts(c cell.Cell) cell.Cell {
	return cell.Cell{Compression: c.Value(cell.Compression), Size: c.Size, Keys: c.Keys, Nulls: c.Nulls, Txn: c.Txn, Case: cell.TopicCase(c.Value(cell.Case))}
}

// corpusTopic names the topic of a corpus: its ID (which carries the record
// size and the keys, workloads.Corpus.ID), plus every topic part not at its
// default — codec, tombstone share, transactions, case — so no shape ever
// reuses another's topic, and plain runs' topics stay as they were.
func corpusTopic(corpusID string, t cell.Cell) string {
	name := corpusID
	for _, k := range []string{cell.Compression, cell.Nulls, cell.Txn, cell.Case} {
		v := t.Value(k)
		switch {
		case v == cell.Default(k):
		case k == cell.Compression || k == cell.Case:
			name += "-" + v
		case k == cell.Nulls:
			name += "-nulls" + v
		case k == cell.Txn:
			name += "-txn"
		}
	}
	return name
}
