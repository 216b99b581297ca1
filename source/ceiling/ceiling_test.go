package ceiling_test

import (
	"context"
	"testing"

	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/sasl/plain"

	"github.com/fastpathlab/fplab/source/ceiling"
)

// loaded is a topic of 6 partitions on 3 brokers, partition p led by
// broker p%3: partition 0 empty, the others uneven, batches in every codec
// kgo writes, a committed and an aborted transaction, and partition 5's
// first batch deleted, so its log start is past 0.
func loaded(t *testing.T) (*kfake.Cluster, *corpus) {
	t.Helper()
	const topic, parts = "corpus", 6
	c, k := newTopic(t, topic, parts, kfake.NumBrokers(3))
	for p := range int32(parts) {
		if err := c.MoveTopicPartition(topic, p, p%3); err != nil {
			t.Fatal(err)
		}
	}
	k.produce(t, 0, map[int32]int{5: 4, 1: 7, 2: 3})
	k.produce(t, 1, map[int32]int{1: 2, 3: 11, 5: 6})
	k.produce(t, 2, map[int32]int{2: 9, 4: 1})
	k.produce(t, 3, map[int32]int{1: 5, 3: 2, 4: 8, 5: 1})
	k.produce(t, 4, map[int32]int{2: 13, 4: 3})
	k.transactions(t, map[int32]int{1: 3, 3: 4}, map[int32]int{2: 5, 4: 2})
	k.produce(t, 0, map[int32]int{3: 1})
	// Partition 5's first batch (4 records, none) goes.
	if err := c.DeleteRecords(topic, 5, 4); err != nil {
		t.Fatal(err)
	}
	k.want.Start[5] = 4
	k.want.Records -= 4
	k.want.Batches--
	k.want.Codecs["none"]--
	return c, k
}

func TestCounts(t *testing.T) {
	c, k := loaded(t)
	sizes := []struct {
		name              string
		fetchMax, partMax int32
	}{
		{"librdkafka defaults", 0, 0},
		// One batch per response: many fetches, every position carried
		// from one to the next.
		{"one batch per fetch", 1, 1},
	}
	var bytes int64
	for _, s := range sizes {
		cfg := config(c, k.topic, 6)
		cfg.FetchMaxBytes, cfg.PartitionMaxBytes = s.fetchMax, s.partMax
		ctx, cancel := context.WithTimeout(t.Context(), failSafe)
		got, err := ceiling.Read(ctx, cfg)
		cancel()
		if err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		check(t, got, k.want)
		t.Logf("%s: %+v", s.name, got)
		if bytes == 0 {
			bytes = got.Bytes
		} else if got.Bytes != bytes {
			t.Errorf("%s: %d bytes, %d with the defaults", s.name, got.Bytes, bytes)
		}
		// Every response holds at least one batch: one fetch per
		// batch at the most, per leader with data at the least.
		if s.fetchMax == 1 && (got.Fetches < got.Batches || got.Fetches > got.Batches+6) {
			t.Errorf("%s: %d fetches for %d batches", s.name, got.Fetches, got.Batches)
		}
		if s.fetchMax == 0 && got.Fetches > 6 {
			t.Errorf("%s: %d fetches, want one per leader (3), more only if a response was cut", s.name, got.Fetches)
		}
	}
}

// TestEmptyTopic: every partition's start is its stop, nothing is fetched.
func TestEmptyTopic(t *testing.T) {
	c, k := newTopic(t, "empty", 3)
	got, err := ceiling.Read(t.Context(), config(c, "empty", 3))
	if err != nil {
		t.Fatal(err)
	}
	check(t, got, k.want)
	if got.Fetches != 0 || !got.First.IsZero() || !got.Sent.IsZero() {
		t.Errorf("fetches %d, first %v; want none", got.Fetches, got.First)
	}
}

func TestSASL(t *testing.T) {
	c, k := newTopic(t, "sasl", 2, kfake.EnableSASL(), kfake.Superuser("PLAIN", "alice", "pw-plain"))
	props := map[string]string{"security.protocol": "SASL_PLAINTEXT", "sasl.mechanism": "PLAIN",
		"sasl.username": "alice", "sasl.password": "pw-plain"}
	k.opts = []kgo.Opt{kgo.SASL(plain.Auth{User: "alice", Pass: "pw-plain"}.AsMechanism())}
	k.produce(t, 1, map[int32]int{0: 3, 1: 4})
	cfg := config(c, "sasl", 2)
	cfg.Props = props
	ctx, cancel := context.WithTimeout(t.Context(), failSafe)
	defer cancel()
	got, err := ceiling.Read(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	check(t, got, k.want)
}
