package ceiling_test

import (
	"context"
	"slices"
	"sync"
	"testing"

	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/fastpathlab/fplab/source/ceiling"
)

// TestLeaderMoves: partitions that move to another broker while the read
// runs are fetched from their new leader, and nothing is counted twice.
func TestLeaderMoves(t *testing.T) {
	const topic = "moves"
	c, k := newTopic(t, topic, 4, kfake.NumBrokers(3))
	for p := range int32(4) {
		if err := c.MoveTopicPartition(topic, p, 0); err != nil {
			t.Fatal(err)
		}
	}
	k.produce(t, 0, map[int32]int{0: 3, 1: 4, 2: 5, 3: 6})
	k.produce(t, 3, map[int32]int{0: 2, 1: 1, 3: 9})

	// The first Fetch moves partition 1 to broker 1 and 3 to broker 2
	// before the broker answers it; every Fetch is noted by broker.
	var (
		mu      sync.Mutex
		fetched = map[int32][]int32{} // broker -> partitions fetched
		moved   bool
	)
	c.ControlKey(int16(kmsg.Fetch), func(req kmsg.Request) (kmsg.Response, error, bool) {
		node := c.CurrentNode()
		mu.Lock()
		defer mu.Unlock()
		for _, rt := range req.(*kmsg.FetchRequest).Topics {
			for _, rp := range rt.Partitions {
				fetched[node] = append(fetched[node], rp.Partition)
			}
		}
		if !moved {
			moved = true
			for p, to := range map[int32]int32{1: 1, 3: 2} {
				if err := c.MoveTopicPartition(topic, p, to); err != nil {
					t.Error(err)
				}
			}
		}
		return nil, nil, false // the broker answers as usual
	})
	got, err := read(t, config(c, topic, 4))
	if err != nil {
		t.Fatal(err)
	}
	check(t, got, k.want)
	mu.Lock()
	defer mu.Unlock()
	if !slices.Contains(fetched[1], 1) || !slices.Contains(fetched[2], 3) {
		t.Errorf("fetches by broker %v: want partition 1 fetched from broker 1, 3 from broker 2", fetched)
	}
}

// TestAppendAfterStop: records appended after the stop was captured end
// their partitions and are not counted.
func TestAppendAfterStop(t *testing.T) {
	c, k := small(t)
	arrived, appended := make(chan struct{}), make(chan struct{})
	c.ControlKey(int16(kmsg.Fetch), func(kmsg.Request) (kmsg.Response, error, bool) {
		c.DropControl() // the first Fetch only
		close(arrived)
		c.SleepControl(func() { <-appended })
		return nil, nil, false // answered after the append
	})
	done := make(chan error, 1)
	var got ceiling.Result
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), failSafe)
		defer cancel()
		var err error
		got, err = ceiling.Read(ctx, config(c, "t", 3))
		done <- err
	}()
	await(t, arrived, "the first fetch")
	more := newCorpus(c, "t", 3)
	more.produce(t, 2, map[int32]int{0: 4, 1: 1, 2: 2})
	close(appended)
	if err := await(t, done, "Read's return"); err != nil {
		t.Fatal(err)
	}
	check(t, got, k.want)
}
