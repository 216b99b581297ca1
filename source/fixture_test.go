package source_test

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/fastpathlab/fplab/clusters"
	"github.com/fastpathlab/fplab/clusters/clusterstest"
	"github.com/fastpathlab/fplab/source"
	"github.com/fastpathlab/fplab/source/consume"
	"github.com/fastpathlab/fplab/workloads"
)

// The package's one test fixture: a corpus of the bid schema in one format
// loaded into a topic of testParts partitions on a test cluster
// (loadTopic), by default the package's embedded cluster (bootstrap).

const (
	testParts   = 3
	testRecords = 5000
)

// The package's cluster: one embedded 3-broker cluster in a child process,
// shared by the tests of this package, started by the first test that
// needs it and stopped when the test binary's tests end (TestMain).
var (
	clusterOnce sync.Once
	clusterBS   []string
	atExit      []func()
)

func bootstrap(t *testing.T) []string {
	t.Helper()
	clusterOnce.Do(func() {
		e, err := clusters.StartEmbedded(context.Background(), clusterstest.SelfArgv(3, testParts), clusterstest.StartTimeout)
		if err != nil {
			t.Fatal(err)
		}
		atExit = append(atExit, func() { _ = e.Stop() })
		clusterBS = e.Bootstrap()
	})
	if clusterBS == nil {
		t.Fatal("embedded cluster did not start")
	}
	return clusterBS
}

// bidCodec is the bid schema's codec in format f.
func bidCodec(t *testing.T, f workloads.Format) (*workloads.Schema, workloads.Codec) {
	t.Helper()
	s, err := workloads.SchemaByName("bid")
	if err != nil {
		t.Fatal(err)
	}
	codec, err := workloads.NewCodec(f, s)
	if err != nil {
		t.Fatal(err)
	}
	return s, codec
}

// topic is a corpus loaded into a topic of a test cluster.
type topic struct {
	name    string
	cluster clusters.Cluster
	corpus  *workloads.Corpus
	codec   workloads.Codec
	layout  *workloads.Layout // where record i lies: the zero Shape's unless withShape
}

// topicOpt tunes loadTopic.
type topicOpt func(*topicSpec)

type topicSpec struct {
	seed    uint64
	count   int
	shape   workloads.Shape
	keyed   bool
	fresh   string // prefix of a topic of its own; "" the shared one
	name    string // an exact topic name, on a cluster of the test's own
	cluster *clusters.Cluster
	message func(c *workloads.Corpus) func(dst []byte, i int) []byte
}

// withSeed sets the corpus's and the layout's seed (default 7).
func withSeed(seed uint64) topicOpt { return func(s *topicSpec) { s.seed = seed } }

// withRecords sets the record count (default testRecords).
func withRecords(n int) topicOpt { return func(s *topicSpec) { s.count = n } }

// withShape lays the records out by a workloads.Layout of shape:
// tombstones, transactions, uneven and empty partitions.
func withShape(shape workloads.Shape) topicOpt { return func(s *topicSpec) { s.shape = shape } }

// withKeys loads a keyed corpus (workloads.Keys): keys and headers.
func withKeys() topicOpt { return func(s *topicSpec) { s.keyed = true } }

// withMessage replaces the corpus's values by msg(corpus).
func withMessage(msg func(c *workloads.Corpus) func(dst []byte, i int) []byte) topicOpt {
	return func(s *topicSpec) { s.message = msg }
}

// fresh loads into a topic of its own, named prefix<n>-<corpus ID>, and
// deletes it when the test ends: for a test that changes the topic, or a
// shape or message of its own.
func fresh(prefix string) topicOpt { return func(s *topicSpec) { s.fresh = prefix } }

// on loads into topic name on cluster c (the caller's, which it closes)
// instead of the package's.
func on(c clusters.Cluster, name string) topicOpt {
	return func(s *topicSpec) { s.cluster, s.name = &c, name }
}

// freshRuns numbers fresh topics: -count reuses the package's cluster.
var freshRuns atomic.Int64

// shared holds the shared topics already loaded into the package's
// cluster, by name: each corpus is loaded once per test binary.
var shared sync.Map

// loadTopic loads the bid corpus in format f into a topic of testParts
// partitions and returns it. Without options it is the shared topic of f
// (seed 7, testRecords records, the zero Shape) on the package's cluster,
// loaded by the first test that asks for it; with fresh or on, a topic of
// the test's own.
func loadTopic(t *testing.T, f workloads.Format, opts ...topicOpt) *topic {
	t.Helper()
	spec := topicSpec{seed: 7, count: testRecords}
	for _, o := range opts {
		o(&spec)
	}
	s, codec := bidCodec(t, f)
	var copts []workloads.CorpusOpt
	if spec.keyed {
		copts = append(copts, workloads.Keys())
	}
	tp := &topic{corpus: workloads.NewCorpus(s, codec, spec.seed, spec.count, copts...), codec: codec}
	var err error
	if tp.layout, err = workloads.NewLayout(spec.seed, spec.count, testParts, spec.shape); err != nil {
		t.Fatal(err)
	}
	isShared := false
	switch {
	case spec.cluster != nil:
		tp.cluster, tp.name = *spec.cluster, spec.name
	case spec.fresh != "":
		tp.cluster = clusters.Cluster{Bootstrap: bootstrap(t)}
		tp.name = fmt.Sprintf("%s%d-%s", spec.fresh, freshRuns.Add(1), tp.corpus.ID())
		t.Cleanup(func() { tp.delete(t) })
	default:
		tp.cluster = clusters.Cluster{Bootstrap: bootstrap(t)}
		tp.name = tp.corpus.ID()
		if _, done := shared.Load(tp.name); done {
			return tp
		}
		isShared = true
	}
	message := tp.corpus.Message
	if spec.message != nil {
		message = spec.message(tp.corpus)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if _, err := clusters.Load(ctx, tp.cluster, tp.name, testParts, spec.count, message,
		clusters.WithLayout(tp.layout), clusters.WithKeys(tp.corpus)); err != nil {
		t.Fatal(err)
	}
	if isShared {
		shared.Store(tp.name, true)
	}
	return tp
}

// delete removes a fresh topic from the package's cluster.
func (tp *topic) delete(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cl, err := kgo.NewClient(kgo.SeedBrokers(tp.cluster.Bootstrap...))
	if err != nil {
		t.Errorf("delete topic %s: %v", tp.name, err)
		return
	}
	defer cl.Close()
	if _, err := kadm.NewClient(cl).DeleteTopic(ctx, tp.name); err != nil {
		t.Errorf("delete topic %s: %v", tp.name, err)
	}
}

// append produces values[p], in order, after partition p's records (a nil
// value is a tombstone); opts as clusters.Append takes them (keys and
// headers with clusters.WithRecordMeta).
func (tp *topic) append(t *testing.T, values map[int32][][]byte, opts ...clusters.LoadOpt) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := clusters.Append(ctx, tp.cluster, tp.name, values, opts...); err != nil {
		t.Fatal(err)
	}
}

// ends is every partition's end offset by the layout.
func (tp *topic) ends() []int64 {
	e := make([]int64, testParts)
	for p := range e {
		e[p] = tp.layout.End(p)
	}
	return e
}

// config is a reader of the topic on path p: batch rows a batch, a stall
// timeout of 20 s.
func (tp *topic) config(p consume.Path, batch int, mem memory.Allocator) source.Config {
	return source.Config{
		Path: p, Bootstrap: tp.cluster.Bootstrap, Topic: tp.name, Partitions: testParts,
		Batch: batch, Codec: tp.codec, Mem: mem, Timeout: 20 * time.Second,
	}
}
