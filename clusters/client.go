package clusters

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strings"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/fastpathlab/fplab/cell"
)

const (
	// dialTimeout bounds every connection attempt.
	dialTimeout = 5 * time.Second
	// defaultOpTimeout bounds a read-back whose ctx has no deadline:
	// franz-go retries forever by default.
	defaultOpTimeout = 30 * time.Second
	// requestRetries bounds franz-go's retries of one request.
	requestRetries = 3
)

// withDefaultTimeout gives ctx a deadline if it has none.
func withDefaultTimeout(ctx context.Context) (context.Context, context.CancelFunc) {
	if _, ok := ctx.Deadline(); ok {
		return context.WithCancel(ctx)
	}
	return context.WithTimeout(ctx, defaultOpTimeout)
}

// reachAny dials the bootstrap addresses until one accepts a TCP connection.
// When none does, the error names them and quotes the first dial error, so
// an unreachable cluster is reported at once instead of after franz-go's
// retries.
func reachAny(ctx context.Context, seeds []string) error {
	d := net.Dialer{Timeout: dialTimeout}
	var first error
	for _, s := range seeds {
		conn, err := d.DialContext(ctx, "tcp", s)
		if err == nil {
			conn.Close()
			return nil
		}
		if first == nil {
			first = err
		}
		if ctx.Err() != nil {
			break
		}
	}
	return fmt.Errorf("cannot reach bootstrap %s: %w", strings.Join(seeds, ","), first)
}

// newClient probes the bootstrap list and builds a franz-go client with
// bounded retries from the Cluster's properties plus extra options.
func (c Cluster) newClient(ctx context.Context, extra ...kgo.Opt) (*kgo.Client, error) {
	opts, err := c.clientOpts()
	if err != nil {
		return nil, err
	}
	if err := reachAny(ctx, c.seeds()); err != nil {
		return nil, err
	}
	opts = append(opts,
		kgo.DialTimeout(dialTimeout),
		kgo.RequestRetries(requestRetries),
		kgo.RetryTimeout(defaultOpTimeout),
	)
	cl, err := kgo.NewClient(append(opts, extra...)...)
	if err != nil {
		return nil, fmt.Errorf("client for %s: %w", strings.Join(c.seeds(), ","), err)
	}
	return cl, nil
}

// seeds returns the bootstrap list clientOpts uses (it already validated it).
func (c Cluster) seeds() []string {
	if len(c.Bootstrap) > 0 {
		return c.Bootstrap
	}
	s, _ := cell.ParseBootstrap(c.Props["bootstrap.servers"])
	return s
}

// withAdmin runs fn with an admin client and a bounded context, and closes
// the client afterwards.
func (c Cluster) withAdmin(ctx context.Context, fn func(context.Context, *kadm.Client) error) error {
	ctx, cancel := withDefaultTimeout(ctx)
	defer cancel()
	cl, err := c.newClient(ctx)
	if err != nil {
		return err
	}
	defer cl.Close()
	return fn(ctx, kadm.NewClient(cl))
}

// requestError words a failed request to the cluster on one line.
func (c Cluster) requestError(what string, err error) error {
	if errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("%s from %s: no answer before the deadline: %w", what, strings.Join(c.seeds(), ","), err)
	}
	return fmt.Errorf("%s from %s: %w", what, strings.Join(c.seeds(), ","), err)
}
