package source_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/fastpathlab/fplab/source"
	"github.com/fastpathlab/fplab/workloads"
)

// TestCancelEndsAWaitAtOnce: with every wait for messages an hour long,
// a Next waiting on a quiet live topic returns its context's error once
// the context is canceled (a Next that waited out its poll would hold the
// test for the hour; its context ends first, with DeadlineExceeded). The reader stays usable, as
// after a wake-up: records written after each cancel arrive, every one
// once, in offset order (liveRead checks each batch). Each round cancels
// while Next waits or just before it does (the cancel runs on its own
// goroutine), and both must end the wait. A partition-EOF event arriving
// after the cancel would end a librdkafka wait too, so this test shows the
// cancel reaches the reader and leaves it whole; that the yield alone ends
// an hour-long wait is drain's TestWakeEndsAnHourLongWait, on a queue that
// gets nothing else.
func TestCancelEndsAWaitAtOnce(t *testing.T) {
	source.SetPollWait(t, time.Hour)
	const rounds, perRound = 5, 20
	for _, p := range livePaths {
		t.Run(fmt.Sprintf("path=%s", p), func(t *testing.T) {
			tp := loadTopic(t, workloads.FormatJSON, fresh("wake"), withRecords(10))
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			lr := openLiveRead(ctx, t, tp, p, 8)
			r, pr := lr.r, lr.pr
			for round := range rounds {
				wctx, wake := context.WithCancel(ctx)
				done := make(chan error, 1)
				go func() {
					b, err := r.Next(wctx)
					if b != nil {
						b.Rec.Release()
						err = fmt.Errorf("a batch of %d rows from a quiet topic", b.Rec.NumRows())
					}
					done <- err
				}()
				go wake()
				// a Next the cancel did not reach waits until ctx's deadline
				// and returns DeadlineExceeded, not Canceled
				if err := <-done; !errors.Is(err, context.Canceled) {
					t.Fatalf("round %d: Next after its cancel: %v, want context.Canceled", round, err)
				}
				pr.write(t, perRound)
				lr.until(ctx, t, perRound)
			}
			if st := r.Stats(); st.Records != rounds*perRound {
				t.Errorf("%d records, want %d", st.Records, rounds*perRound)
			}
		})
	}
}
