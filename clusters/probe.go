package clusters

import (
	"context"
	"errors"
	"fmt"
	"net"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
)

// BrokerDownError names a bootstrap broker that does not answer: it
// refuses TCP connections, or does not answer a Kafka request in time. It
// is the error of Probe and of a Load whose broker died, so that the ladder
// can tell "the infrastructure died" from "a cell failed on its own" with
// errors.As instead of matching text.
type BrokerDownError struct {
	Addr string // host:port as the bootstrap list gives it
	Err  error  // the dial or request error
}

func (e *BrokerDownError) Error() string {
	return fmt.Sprintf("broker %s is unreachable: %v", e.Addr, e.Err)
}

func (e *BrokerDownError) Unwrap() error { return e.Err }

// Probe checks that every bootstrap broker of c answers, within timeout
// for all of them together: a TCP connect, then a metadata request from a
// client seeded with that broker alone, so that this broker and no other
// must answer. It returns nil when all answer, else a *BrokerDownError
// naming the first dead broker in bootstrap order. A broker that answers
// with a Kafka error (say, a refused SASL login) is alive: the question is
// whether the infrastructure still stands, not whether c is configured
// well. When ctx ends first the error wraps ctx.Err() and is no
// BrokerDownError: the caller gave up, so nothing is known of the brokers.
func Probe(ctx context.Context, c Cluster, timeout time.Duration) error {
	if timeout <= 0 {
		return fmt.Errorf("probe timeout must be > 0, got %v", timeout)
	}
	opts, err := c.clientOpts()
	if err != nil {
		return err
	}
	seeds := c.seeds()
	pctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	errs := make([]error, len(seeds))
	var wg sync.WaitGroup
	for i, addr := range seeds {
		wg.Go(func() { errs[i] = probeBroker(pctx, opts, addr) })
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("probe of %s abandoned: %w", strings.Join(seeds, ","), err)
	}
	for i, err := range errs {
		if err != nil {
			return &BrokerDownError{Addr: seeds[i], Err: err}
		}
	}
	return nil
}

// probeBroker is Probe for one broker; opts are the cluster's client
// options, shared read-only between goroutines.
func probeBroker(ctx context.Context, opts []kgo.Opt, addr string) error {
	if err := dial(ctx, addr); err != nil {
		return err
	}
	// No retries: the deadline, not franz-go's back-off, bounds the probe,
	// and a refused connection is the answer.
	cl, err := kgo.NewClient(append(slices.Clip(opts),
		kgo.SeedBrokers(addr), kgo.RequestRetries(0), kgo.DialTimeout(dialTimeout))...)
	if err != nil {
		return err
	}
	defer cl.Close()
	_, err = kadm.NewClient(cl).BrokerMetadata(ctx)
	var ke *kerr.Error
	if err == nil || errors.As(err, &ke) {
		return nil
	}
	return fmt.Errorf("no answer to a metadata request: %w", err)
}

// dial opens and closes one TCP connection to addr, bounded by ctx and
// dialTimeout.
func dial(ctx context.Context, addr string) error {
	d := net.Dialer{Timeout: dialTimeout}
	conn, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return err
	}
	return conn.Close()
}
