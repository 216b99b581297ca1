package rung

import (
	"context"
	"fmt"

	"github.com/fastpathlab/fplab/cell"
	"github.com/fastpathlab/fplab/clusters"
	"github.com/fastpathlab/fplab/ladder/rungargs"
	"github.com/fastpathlab/fplab/source/consume"
	"github.com/fastpathlab/fplab/workloads"
	"github.com/fastpathlab/fplab/workloads/stock"
)

// checkClaims fails the cell when what the reader proves differs from what
// the cell claims, or when it did not read the whole corpus.
func checkClaims(c *rungargs.Cell, st consume.Stats, as consume.Assertions, v *verifier) error {
	if err := checkParsed(st); err != nil {
		return err
	}
	start, stop := v.layout.Bounds()
	if err := v.checkEnd(st, start, stop); err != nil {
		return err
	}
	return checkPath(c, st, as)
}

// checkPath fails the cell when the reader is not the path, or does not run
// with the check.crcs, the cell claims.
func checkPath(c *rungargs.Cell, st consume.Stats, as consume.Assertions) error {
	if err := checkParsed(st); err != nil {
		return err
	}
	if as.CheckCRCs != c.CRC {
		return fmt.Errorf("cell claims check.crcs=%v but the client runs with %v (%s)", c.CRC, as.CheckCRCs, as.CheckCRCsSource)
	}
	var ok bool
	switch c.Value(cell.Decoder) {
	case cell.DecoderLab:
		ok = as.Decoder == consume.DecoderLab
	case cell.DecoderNone:
		ok = as.Decoder == consume.DecoderNone
	default: // stock: the route this process measured fastest (newTarget)
		pick, found := stock.Picked(workloads.Format(c.Format), c.Schema)
		ok = found && as.Decoder == pick.Route.Library
	}
	if !ok {
		return fmt.Errorf("cell claims decoder=%s but the reader decodes with %q", c.Value(cell.Decoder), as.Decoder)
	}
	switch consume.Path(c.Path) {
	case consume.PathFast:
		// One crossing per drain: a bulk drain moves many records per
		// crossing. Demand at least min(batch, 16) on average, which a
		// per-record fallback (1 per crossing) cannot meet.
		need := int64(16)
		if int64(c.Batch) < need {
			need = int64(c.Batch)
		}
		if c.Live() {
			// A live read drains what arrived since the last crossing,
			// which at a low rate is a record or two: the claim is then
			// that it drains at all, never Polls (checked below).
			need = 1
		}
		if st.NonEmpty == 0 || st.Records/st.NonEmpty < need {
			return fmt.Errorf("path=fast made %d non-empty crossings for %d records (< %d records per crossing): not a bulk drain", st.NonEmpty, st.Records, need)
		}
		if st.Polls != 0 {
			return fmt.Errorf("path=fast called Poll %d times", st.Polls)
		}
		// the drain the cell names, or the fast path's default for its read
		claim, want := c.FastDrain(), consume.DrainCallbackQueue
		switch claim {
		case cell.DrainBatchQueue:
			want = consume.DrainBatchQueue
		case cell.DrainAhead:
			want = consume.DrainCallbackAhead
		}
		if as.Drain != want {
			named := "names"
			if c.Drain == "" {
				named = "defaults to"
			}
			return fmt.Errorf("cell %s drain=%s but the reader crosses with %q", named, claim, as.Drain)
		}
	case consume.PathRowwise, consume.PathShallow:
		if st.Polls < st.Records || st.Crossings != 0 {
			return fmt.Errorf("path=%s made %d polls and %d drains for %d records: not per-record Poll", c.Path, st.Polls, st.Crossings, st.Records)
		}
	}
	return nil
}

// checkBrokers checks the cell's broker count against the cluster's
// metadata and returns the cluster the cell reads.
func checkBrokers(ctx context.Context, c *rungargs.Cell) (clusters.Cluster, error) {
	cl := clusters.Cluster{Bootstrap: c.Bootstrap, Props: c.Props}
	brokers, err := clusters.BrokerCount(ctx, cl)
	if err != nil {
		return cl, err
	}
	if brokers != c.Brokers {
		return cl, fmt.Errorf("cell claims brokers=%d but cluster metadata lists %d", c.Brokers, brokers)
	}
	return cl, nil
}

// CheckCountedTopic is a reference cell's claims (cell.CountingPath: it
// counts records and verifies none), checked before it reads: the cluster's
// broker count, a topic holding exactly the corpus in the cell's
// partitions, and the stored codec. Its count is then checked against the
// corpus by the runner.
func CheckCountedTopic(ctx context.Context, c *rungargs.Cell) error {
	cl, err := checkBrokers(ctx, c)
	if err != nil {
		return err
	}
	ready, err := clusters.TopicReady(ctx, cl, c.Topic, c.Partitions, c.Records)
	if err != nil {
		return err
	}
	if !ready {
		return fmt.Errorf("topic %q does not hold the %d-record corpus in %d partitions", c.Topic, c.Records, c.Partitions)
	}
	return checkCompression(ctx, cl, c)
}

// checkCompression reads back the codec the corpus's batches are stored
// with (clusters.StoredCompression) and fails the cell unless it is the
// one the cell claims: a compression cell measured on a plain corpus, or
// the reverse, would report another shape's throughput.
func checkCompression(ctx context.Context, cl clusters.Cluster, c *rungargs.Cell) error {
	got, err := clusters.StoredCompression(ctx, cl, c.Topic, c.Partitions)
	if err != nil {
		return fmt.Errorf("stored compression: %w", err)
	}
	if want := c.Value(cell.Compression); got != want {
		return fmt.Errorf("cell claims compression=%s but topic %s is stored with %s", want, c.Topic, got)
	}
	return nil
}
