package rung

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/fastpathlab/fplab/alloc"
	"github.com/fastpathlab/fplab/cell"
	"github.com/fastpathlab/fplab/ladder/rungargs"
	"github.com/fastpathlab/fplab/source/consume"
	"github.com/fastpathlab/fplab/workloads"
	"github.com/fastpathlab/fplab/workloads/stock"
)

// The Go paths (source/consume: rowwise, shallow, fast, franz) read and
// decode the corpus in this process, so they share one runner: each batch
// verified against the corpus, the cell's claims read back.
func init() {
	for _, p := range consume.Paths() {
		Register(string(p), runGoPath)
	}
}

// runGoPath measures a cell of a Go path. How depends on the cell's shape,
// not its path: a checkpointing reader process (role=reader), a
// checkpointing cell's supervisor (ckpt > 0), a parity case that reads
// otherwise than start to end, a live read (live.go), a search for the
// highest live rate (maxrate.go), or a plain measured read.
func runGoPath(ctx context.Context, c *rungargs.Cell, b Build, w io.Writer) error {
	cl, err := checkBrokers(ctx, c)
	if err != nil {
		return err
	}
	if c.MaxRate() {
		// each of its trials writes and verifies a corpus of its own
		return runMaxRate(ctx, c, b, cl, w)
	}
	t, err := newTarget(ctx, c)
	if err != nil {
		return err
	}
	defer t.close()
	if c.Live() {
		// its topic is made fresh, and its codec checked, once written
		return runLive(ctx, c, b, cl, t, w)
	}
	// The supervisor that started a reader checked; a denied cell's user
	// may not read the topic, which is the point.
	if c.Role != rungargs.RoleReader && c.Case != cell.CaseDenied {
		if err := checkCompression(ctx, cl, c); err != nil {
			return err
		}
	}

	mem := &countingAllocator{mem: alloc.Allocator()}
	switch {
	case c.Role == rungargs.RoleReader:
		return runReader(ctx, c, mem, t, w)
	case c.Ckpt > 0:
		return runSupervised(ctx, c, b, cl, t, w)
	case cell.SpecialRead(c.Case):
		return runCase(ctx, c, b, cl, mem, t, w)
	}
	m, err := measure(ctx, c, mem, t)
	if err != nil {
		return err
	}
	if err := checkBalanced(mem); err != nil {
		return err
	}
	extra := [][2]string{{"client-buffering", m.asserts.Buffering}}
	if m.asserts.Drain != "" {
		extra = append(extra, [2]string{"client-drain", m.asserts.Drain})
	}
	if t.pick != nil {
		extra = append(extra, [2]string{"stock-pick", t.pick.String()})
	}
	if m.rdk != nil {
		// the cell claims librdkafka's statistics: without one it fails
		if m.rdk.docs == 0 {
			return fmt.Errorf("rdkstats=%v: no statistics document arrived during the read (%d dropped); a read this short needs a shorter interval", c.RdkStats, m.stats.StatsDropped)
		}
		line, err := m.rdk.write(c, m.stats)
		if err != nil {
			return err
		}
		extra = append(extra, line)
	}
	return WriteResult(w, c, b, m.asserts.Client, m.stats.Records, m.metrics(), extra...)
}

// newTarget is what c reads: its corpus of c.Records records placed by its
// layout, with the file of their row hashes (in c.HashCache when set,
// else in a temporary directory); close it when the cell is done. For
// decoder=stock it measures the format's stock routes here (stock.Best),
// before the path opens, so the choice stays out of the cell's start-up
// and window.
func newTarget(ctx context.Context, c *rungargs.Cell) (*target, error) {
	corpus, codec, err := cellCorpus(c)
	if err != nil {
		return nil, err
	}
	var pick *stock.Pick
	if c.Value(cell.Decoder) == cell.DecoderStock {
		p, err := stock.Best(ctx, codec.Format(), c.Schema)
		if err != nil {
			return nil, err
		}
		pick = &p
	}
	layout, err := workloads.NewLayout(c.Seed, c.Records, c.Partitions, workloads.ShapeOf(c.Cell))
	if err != nil {
		return nil, err
	}
	path, cleanup, err := hashFile(corpus, c.HashCache)
	if err != nil {
		return nil, err
	}
	f, err := openHashes(path, corpus)
	if err != nil {
		cleanup()
		return nil, err
	}
	return &target{corpus: corpus, codec: codec, hashes: f, cleanup: cleanup, layout: layout, pick: pick}, nil
}

// cellCorpus is c's corpus, generated on demand, and its codec: what its
// producer writes and its checks expect.
func cellCorpus(c *rungargs.Cell) (*workloads.Corpus, workloads.Codec, error) {
	schema, err := workloads.SchemaByName(c.Schema)
	if err != nil {
		return nil, nil, err
	}
	codec, err := workloads.NewCodec(workloads.Format(c.Format), schema)
	if err != nil {
		return nil, nil, err
	}
	return workloads.NewCorpus(schema, codec, c.Seed, c.Records, workloads.CorpusOptsOf(c.Cell)...), codec, nil
}

// target is what a cell reads: the corpus's codec and row hashes (keyed
// rows' for keys=on), placed in the topic by its layout.
type target struct {
	corpus  *workloads.Corpus
	codec   workloads.Codec
	hashes  *os.File // the corpus's row hashes (hashFile)
	cleanup func()   // removes the hash file's temporary directory, if any
	layout  *workloads.Layout
	pick    *stock.Pick // decoder=stock: the stock route measured fastest here
}

// verifier is a verifier of a read of t, with hash windows of its own.
func (t *target) verifier(batch int) *verifier {
	return newVerifier(batch, t.layout, newWindows(t.hashes, t.corpus, t.layout))
}

// close closes the hash file (and removes it when it is the cell's own).
func (t *target) close() {
	t.hashes.Close()
	t.cleanup()
}
