package ceiling_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/fastpathlab/fplab/clusters/clusterstest"
	"github.com/fastpathlab/fplab/source/ceiling"
)

// small is a one-broker cluster with topic "t" of 3 partitions holding
// uneven batches.
func small(t *testing.T) (*kfake.Cluster, *corpus) {
	t.Helper()
	c, k := newTopic(t, "t", 3)
	k.produce(t, 0, map[int32]int{0: 5, 1: 2})
	k.produce(t, 4, map[int32]int{0: 3, 2: 7})
	return c, k
}

func read(t *testing.T, cfg ceiling.Config) (ceiling.Result, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), failSafe)
	defer cancel()
	return ceiling.Read(ctx, cfg)
}

func TestUnknownTopic(t *testing.T) {
	c := clusterstest.InProcess(t)
	_, err := read(t, config(c, "nope", 1))
	oneLine(t, err, `topic "nope" does not exist`)
}

func TestPartitionCount(t *testing.T) {
	c, _ := small(t)
	for _, n := range []int{2, 4} {
		_, err := read(t, config(c, "t", n))
		oneLine(t, err, `topic "t" has 3 partitions, want `)
	}
}

// TestPartitionError: an error code in a Fetch response that no metadata
// refresh cures ends the read, named by kerr.
func TestPartitionError(t *testing.T) {
	c, _ := small(t)
	c.Fault(kfake.Fault{Keys: []kmsg.Key{kmsg.Fetch}, Topic: "t", Partitions: []int32{2}, Err: kerr.CorruptMessage})
	_, err := read(t, config(c, "t", 3))
	oneLine(t, err, `fetch "t" from broker 0: partition 2: CORRUPT_MESSAGE (code 2)`)
}

// TestLeaderErrorsRetried: NOT_LEADER and leader-epoch errors refresh the
// metadata and fetch again, a bounded number of times.
func TestLeaderErrorsRetried(t *testing.T) {
	c, k := small(t)
	h := c.Fault(
		kfake.Fault{Keys: []kmsg.Key{kmsg.Fetch}, Topic: "t", Partitions: []int32{0}, Err: kerr.NotLeaderForPartition, Count: 2},
		kfake.Fault{Keys: []kmsg.Key{kmsg.Fetch}, Topic: "t", Partitions: []int32{2}, Err: kerr.FencedLeaderEpoch, Count: 3},
	)
	got, err := read(t, config(c, "t", 3))
	if err != nil {
		t.Fatal(err)
	}
	check(t, got, k.want)
	if n := h.Hits(); n != 5 {
		t.Errorf("%d leader errors answered, want 5", n)
	}

	h = c.Fault(kfake.Fault{Keys: []kmsg.Key{kmsg.Fetch}, Topic: "t", Partitions: []int32{1}, Err: kerr.NotLeaderForPartition, Count: -1})
	defer h.Remove()
	_, err = read(t, config(c, "t", 3))
	oneLine(t, err, `partition 1 of "t": NOT_LEADER_FOR_PARTITION (code 6), still after 8 metadata refreshes`)
}

// TestDeletedInsideBatch: a log start inside a batch cannot be counted
// without decoding, so it is an error, not a guess.
func TestDeletedInsideBatch(t *testing.T) {
	c, _ := small(t)
	if err := c.DeleteRecords("t", 0, 2); err != nil {
		t.Fatal(err)
	}
	_, err := read(t, config(c, "t", 3))
	oneLine(t, err, `fetch "t" from broker 0: partition 0: batch 0..4 starts before the fetch offset 2`)
}

// gate makes the cluster swallow every Fetch, answering none, and returns
// a channel that gets a value at the first.
func gate(c *kfake.Cluster) <-chan struct{} {
	first := make(chan struct{}, 1)
	c.ControlKey(int16(kmsg.Fetch), func(kmsg.Request) (kmsg.Response, error, bool) {
		c.KeepControl()
		select {
		case first <- struct{}{}:
		default:
		}
		return nil, nil, true // handled, no answer
	})
	return first
}

// TestCancel: a read waiting on a fetch ends when its context does, long
// before its stall timeout.
func TestCancel(t *testing.T) {
	c, _ := small(t)
	first := gate(c)
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	done := make(chan error, 1)
	go func() {
		_, err := ceiling.Read(ctx, config(c, "t", 3)) // Timeout failSafe: only cancel ends it
		done <- err
	}()
	await(t, first, "a fetch")
	cancel()
	err := await(t, done, "Read's return after cancel")
	oneLine(t, err, "") // one line, whichever wait the cancel ended
	if !errors.Is(err, context.Canceled) {
		t.Errorf("error %v, want context.Canceled", err)
	}

	// Cancelled before it starts: no request is waited on.
	_, err = ceiling.Read(ctx, config(c, "t", 3))
	if !errors.Is(err, context.Canceled) {
		t.Errorf("Read with a done context: %v, want context.Canceled", err)
	}
}

// TestStall: fetches that never answer end the read after Timeout.
func TestStall(t *testing.T) {
	c, _ := small(t)
	gate(c)
	cfg := config(c, "t", 3)
	cfg.Timeout = time.Second
	_, err := read(t, cfg)
	oneLine(t, err, "no progress for 1s: 3 of 3 partitions unfinished, partition 0 at offset 0 of [0, 8) on leader 0")
}
