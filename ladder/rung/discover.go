package rung

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/fastpathlab/fplab/clusters"
	"github.com/fastpathlab/fplab/ladder/rungargs"
	"github.com/fastpathlab/fplab/results"
	"github.com/fastpathlab/fplab/source/consume"
)

// discoverSlack is what a discover cell allows on top of two discovery
// intervals and the added partitions' write for each one's first row: a
// metadata round trip, an assignment and a fetch, on a loaded host.
const discoverSlack = 2 * time.Second

// discoverProbe is how many records are written to each added partition
// (fewer when the corpus is smaller).
const discoverProbe = 500

// discoverer is a discover=<interval> cell's reader (its source opened
// with Config.Discovery at that interval): once half the producer's
// records are handed over, it doubles the topic's partitions and writes
// the corpus's first records to each added one (grow, on a goroutine of
// its own, so the read goes on), then times each added partition's first
// row from their creation. The rows themselves are verified by the cell's
// verifier (expectAdded: every record of every added partition, in order
// from offset 0). A first row later than the bound, or records of an
// added partition still missing by then, fail the cell.
type discoverer struct {
	consume.Reader
	parts, added, probe int
	after               int64 // the producer's rows handed over before growing
	interval            time.Duration
	grow                func(ctx context.Context) (created, acked time.Time, err error)
	ctx                 context.Context
	now                 func() time.Time

	handed  int64
	started bool
	done    chan struct{} // closed once grow returned
	created time.Time
	acked   time.Time
	growErr error

	first []time.Time // per added partition, its first row's hand-over
	rows  []int
}

func newDiscoverer(ctx context.Context, r consume.Reader, c *rungargs.Cell, probe int, grow func(context.Context) (time.Time, time.Time, error)) *discoverer {
	return &discoverer{
		Reader: r, parts: c.Partitions, added: c.Partitions, probe: probe,
		after: int64(c.Records / 2), interval: c.Discover, grow: grow, ctx: ctx, now: time.Now,
		done: make(chan struct{}), first: make([]time.Time, c.Partitions), rows: make([]int, c.Partitions),
	}
}

// bound is how long after their creation the added partitions' records
// may take to be handed over.
func (d *discoverer) bound() time.Duration {
	return d.acked.Sub(d.created) + 2*d.interval + discoverSlack
}

// grown reports whether grow has returned.
func (d *discoverer) grown() bool {
	select {
	case <-d.done:
		return true
	default:
		return false
	}
}

func (d *discoverer) Next(ctx context.Context) (*consume.Batch, error) {
	var deadline time.Time
	if d.grown() {
		if d.growErr != nil {
			return nil, d.growErr
		}
		if d.missing() > 0 {
			deadline = d.created.Add(d.bound())
			var cancel context.CancelFunc
			ctx, cancel = context.WithDeadline(ctx, deadline)
			defer cancel()
		}
	}
	b, err := d.Reader.Next(ctx)
	if err != nil {
		if !deadline.IsZero() && errors.Is(err, context.DeadlineExceeded) && !d.now().Before(deadline) {
			return nil, fmt.Errorf("discover: %d of the %d records written to the added partitions not handed over within %v of their creation (discovery every %v)",
				d.missing(), d.added*d.probe, d.bound().Round(time.Millisecond), d.interval)
		}
		return nil, err
	}
	now := d.now()
	for _, p := range b.Partitions {
		k := int(p) - d.parts
		if k < 0 {
			d.handed++
			continue
		}
		if k < d.added {
			if d.first[k].IsZero() {
				d.first[k] = now
			}
			d.rows[k]++
		}
	}
	if !d.started && d.handed >= d.after {
		d.started = true
		go func() {
			defer close(d.done)
			d.created, d.acked, d.growErr = d.grow(d.ctx)
		}()
	}
	return b, nil
}

// missing counts the added partitions' records not handed over yet.
func (d *discoverer) missing() int {
	n := 0
	for _, r := range d.rows {
		n += max(0, d.probe-r)
	}
	return n
}

// pending reports whether the read must go on for the added partitions:
// they are not added yet, or not all their records are handed over.
func (d *discoverer) pending() bool {
	return !d.grown() || d.growErr != nil || d.missing() > 0
}

func (d *discoverer) close() {}

// figures waits for grow (bounded by the cell's context) and reports the
// added partitions' figures; a first row later than the bound fails.
func (d *discoverer) figures() ([]results.Metric, error) {
	if !d.started {
		return nil, fmt.Errorf("discover: the read ended before %d rows were handed over, so no partition was added", d.after)
	}
	select {
	case <-d.done:
	case <-d.ctx.Done():
		return nil, fmt.Errorf("discover: adding partitions: %w", d.ctx.Err())
	}
	if d.growErr != nil {
		return nil, d.growErr
	}
	firsts := make([]time.Duration, d.added)
	for k, t := range d.first {
		if t.IsZero() {
			return nil, fmt.Errorf("discover: added partition %d handed over no row", d.parts+k)
		}
		firsts[k] = t.Sub(d.created)
		if firsts[k] > d.bound() {
			return nil, fmt.Errorf("discover: added partition %d's first row came %v after its creation, past the bound of %v (discovery every %v)",
				d.parts+k, firsts[k].Round(time.Millisecond), d.bound().Round(time.Millisecond), d.interval)
		}
	}
	slices.Sort(firsts)
	return []results.Metric{
		{Value: float64(d.added), Unit: results.UnitDiscoverAdded},
		{Value: ms(d.acked.Sub(d.created)), Unit: results.UnitDiscoverWriteMs},
		{Value: ms(firsts[(len(firsts)-1)/2]), Unit: results.UnitDiscoverFirstP50},
		{Value: ms(firsts[len(firsts)-1]), Unit: results.UnitDiscoverFirstMax},
	}, nil
}

// growTopic is a discover cell's grow: it doubles topic's partitions and
// writes the corpus's first probe messages to each added partition, and
// returns when the partitions were created and when the writes were
// acknowledged.
func growTopic(cl clusters.Cluster, topic string, parts, probe int, message func(dst []byte, i int) []byte) func(context.Context) (time.Time, time.Time, error) {
	return func(ctx context.Context) (time.Time, time.Time, error) {
		ctx, cancel := context.WithTimeout(ctx, time.Minute)
		defer cancel()
		if err := clusters.AddPartitions(ctx, cl, topic, 2*parts); err != nil {
			return time.Time{}, time.Time{}, fmt.Errorf("discover: %w", err)
		}
		created := time.Now()
		vs := make([][]byte, probe) // the same records for every added partition
		for j := range vs {
			vs[j] = message(nil, j)
		}
		values := make(map[int32][][]byte, parts)
		for k := range parts {
			values[int32(parts+k)] = vs
		}
		if err := clusters.Append(ctx, cl, topic, values); err != nil {
			return created, time.Time{}, fmt.Errorf("discover: write the added partitions: %w", err)
		}
		return created, time.Now(), nil
	}
}
