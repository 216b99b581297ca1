package clusters_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/fastpathlab/fplab/clusters"
	"github.com/fastpathlab/fplab/clusters/clusterstest"
)

// TestAddPartitions: a topic grown from 2 to 5 partitions shows 5 in
// metadata once AddPartitions returns, and the added ones take records at
// once; shrinking, or growing a topic that does not exist, is an error
// naming the topic.
func TestAddPartitions(t *testing.T) {
	c := clusterstest.InProcess(t, kfake.SeedTopics(2, "t"))
	cl := clusters.Cluster{Bootstrap: c.ListenAddrs()}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := clusters.AddPartitions(ctx, cl, "t", 5); err != nil {
		t.Fatal(err)
	}
	raw, err := kgo.NewClient(kgo.SeedBrokers(c.ListenAddrs()...))
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	td, err := kadm.NewClient(raw).ListTopics(ctx, "t")
	if err != nil {
		t.Fatal(err)
	}
	if n := len(td["t"].Partitions); n != 5 {
		t.Fatalf("topic has %d partitions after growing to 5", n)
	}
	if err := clusters.Append(ctx, cl, "t", map[int32][][]byte{4: {[]byte("v")}}); err != nil {
		t.Fatalf("append to an added partition: %v", err)
	}
	for total, want := range map[int]string{3: "grow topic t to 3 partitions", 0: "partitions"} {
		if err := clusters.AddPartitions(ctx, cl, "t", total); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("AddPartitions to %d: %v, want an error with %q", total, err, want)
		}
	}
	if err := clusters.AddPartitions(ctx, cl, "none", 4); err == nil || !strings.Contains(err.Error(), "none") {
		t.Errorf("AddPartitions of a missing topic: %v", err)
	}
}
