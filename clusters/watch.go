package clusters

import (
	"context"
	"time"
)

// watchEvery is how often a load dials its bootstrap brokers. A dead
// broker refuses connections at once, so a load notices a death within
// this period plus one dial; a few connects every quarter second cost
// nothing beside a load of millions of records.
const watchEvery = 250 * time.Millisecond

// watchBrokers returns a context that is cancelled, with a
// *BrokerDownError as its cause (see context.Cause), as soon as one of
// addrs stops accepting TCP connections. franz-go retries a produce to a
// dead broker until the record delivery timeout, minutes away, and a load
// whose broker died would hang that long without this watch. stop ends the
// watch and returns once its goroutine has.
func watchBrokers(ctx context.Context, addrs []string, every time.Duration) (watched context.Context, stop func()) {
	ctx, cancel := context.WithCancelCause(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		tick := time.NewTicker(every)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
			for _, a := range addrs {
				// A dial cut short by the end of ctx says nothing of the broker.
				if err := dial(ctx, a); err != nil && ctx.Err() == nil {
					cancel(&BrokerDownError{Addr: a, Err: err})
					return
				}
			}
		}
	}()
	return ctx, func() {
		cancel(context.Canceled)
		<-done
	}
}

// brokerDown returns the *BrokerDownError that ended ctx, if a watch ended
// it; else, when addrs are given, it dials each of them once now (a load
// can fail on a dead broker before the watch's next tick) and returns a
// *BrokerDownError for the first that does not answer; else err. A load
// that failed because its broker died says so, not how franz-go noticed.
func brokerDown(ctx context.Context, err error, addrs ...string) error {
	if bd, ok := context.Cause(ctx).(*BrokerDownError); ok {
		return bd
	}
	if err == nil || len(addrs) == 0 {
		return err
	}
	dctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*dialTimeout)
	defer cancel()
	for _, a := range addrs {
		if derr := dial(dctx, a); derr != nil {
			return &BrokerDownError{Addr: a, Err: derr}
		}
	}
	return err
}
