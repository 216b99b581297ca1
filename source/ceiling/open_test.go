package ceiling_test

import (
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/fastpathlab/fplab/source/ceiling"
)

// TestOpenRetries: a partition without leader in the metadata, or whose
// leader moved when its offsets are asked, is looked up again.
func TestOpenRetries(t *testing.T) {
	c, k := small(t)
	c.Fault(
		kfake.Fault{Keys: []kmsg.Key{kmsg.Metadata}, Topic: "t", Partitions: []int32{1}, Err: kerr.LeaderNotAvailable},
		kfake.Fault{Keys: []kmsg.Key{kmsg.ListOffsets}, Topic: "t", Partitions: []int32{2}, Err: kerr.NotLeaderForPartition, Count: 2},
	)
	got, err := read(t, config(c, "t", 3))
	if err != nil {
		t.Fatal(err)
	}
	check(t, got, k.want)
}

func TestOpenErrors(t *testing.T) {
	c, _ := small(t)
	h := c.Fault(kfake.Fault{Keys: []kmsg.Key{kmsg.ListOffsets}, Topic: "t", Partitions: []int32{0}, Err: kerr.TopicAuthorizationFailed})
	_, err := read(t, config(c, "t", 3))
	oneLine(t, err, `list offsets of "t" on broker 0: partition 0: TOPIC_AUTHORIZATION_FAILED (code 29)`)
	h.Remove()

	// A partition that never gets a leader.
	h = c.Fault(kfake.Fault{Keys: []kmsg.Key{kmsg.Metadata}, Topic: "t", Partitions: []int32{1}, Err: kerr.LeaderNotAvailable, Count: -1})
	_, err = read(t, config(c, "t", 3))
	oneLine(t, err, `partition 1 of "t": no leader, still after 8 metadata refreshes`)
	h.Remove()

	// A broker that takes a ListOffsets and never answers: the step's
	// Timeout ends the wait.
	c.ControlKey(int16(kmsg.ListOffsets), func(kmsg.Request) (kmsg.Response, error, bool) {
		c.KeepControl()
		return nil, nil, true
	})
	cfg := config(c, "t", 3)
	cfg.Timeout = time.Second
	_, err = read(t, cfg)
	oneLine(t, err, `list offsets of "t" on broker 0: no answer within 1s: context deadline exceeded`)
}

// TestNoBroker: a bootstrap nobody answers on fails within the timeout.
func TestNoBroker(t *testing.T) {
	cfg := ceiling.Config{Bootstrap: []string{"127.0.0.1:1"}, Topic: "t", Partitions: 1, Timeout: time.Second}
	_, err := read(t, cfg)
	oneLine(t, err, `metadata of topic "t": `)
}
