package clusters_test

import (
	"bufio"
	"context"
	"io"
	"strings"
	"testing"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/fastpathlab/fplab/cell"
	"github.com/fastpathlab/fplab/clusters"
)

// TestRunEmbeddedInProcess checks the bootstrap line and that RunEmbedded
// returns once its context ends. (In-process only for this functional
// check; figures always use a broker in its own process.)
func TestRunEmbeddedInProcess(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- clusters.RunEmbedded(ctx, 2, 4, pw)
		pw.Close()
	}()
	sc := bufio.NewScanner(pr)
	if !sc.Scan() {
		t.Fatalf("no output: %v", <-done)
	}
	line := sc.Text()
	rest, ok := strings.CutPrefix(line, "bootstrap: ")
	if !ok {
		t.Fatalf("line %q does not start with %q", line, "bootstrap: ")
	}
	addrs, err := cell.ParseBootstrap(rest)
	if err != nil || len(addrs) != 2 {
		t.Fatalf("bootstrap %q: %v %v, want 2 addresses", rest, addrs, err)
	}
	for _, a := range addrs {
		if !strings.HasPrefix(a, "127.0.0.1:") {
			t.Errorf("broker %s not on 127.0.0.1", a)
		}
	}
	n, err := clusters.BrokerCount(ctx, clusters.Cluster{Bootstrap: addrs})
	if err != nil || n != 2 {
		t.Fatalf("BrokerCount = %d, %v, want 2", n, err)
	}
	checkBrokerLimits(t, ctx, addrs)
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("RunEmbedded after cancel: %v", err)
	}
	if sc.Scan() {
		t.Errorf("more than one line printed: %q", sc.Text())
	}
}

func TestRunEmbeddedRejects(t *testing.T) {
	cases := []struct {
		brokers, partitions int
		opts                []clusters.EmbeddedOpt
		want                string
	}{
		{0, 6, nil, "brokers must be 1..9, got 0"},
		{3, 2000, nil, "partitions must be 1..1024, got 2000"},
		{3, 6, []clusters.EmbeddedOpt{clusters.WithPorts(0)}, "1 ports given for 3 brokers"},
	}
	for _, c := range cases {
		var out strings.Builder
		err := clusters.RunEmbedded(context.Background(), c.brokers, c.partitions, &out, c.opts...)
		if err == nil || err.Error() != c.want {
			t.Errorf("RunEmbedded(%d, %d) = %v, want %q", c.brokers, c.partitions, err, c.want)
		}
		if out.Len() != 0 {
			t.Errorf("RunEmbedded(%d, %d) printed %q before failing", c.brokers, c.partitions, out.String())
		}
	}
}

func TestContextUntilEOF(t *testing.T) {
	pr, pw := io.Pipe()
	ctx, cancel := clusters.ContextUntilEOF(context.Background(), pr)
	defer cancel()
	if _, err := pw.Write([]byte("ignored input\n")); err != nil {
		t.Fatal(err)
	}
	select {
	case <-ctx.Done():
		t.Fatal("context ended before EOF")
	default:
	}
	pw.Close()
	await(t, ctx.Done(), "context cancelled at EOF")
}

// checkBrokerLimits reads back the limits RunEmbedded lifts so that a
// multi-million-record corpus is neither refused nor trimmed.
func checkBrokerLimits(t *testing.T, ctx context.Context, addrs []string) {
	t.Helper()
	cl, err := kgo.NewClient(kgo.SeedBrokers(addrs...))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	rcs, err := kadm.NewClient(cl).DescribeBrokerConfigs(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"message.max.bytes":   "67108864",
		"log.retention.ms":    "-1",
		"log.retention.bytes": "-1",
	}
	got := map[string]string{}
	for _, rc := range rcs {
		for _, c := range rc.Configs {
			if _, ok := want[c.Key]; ok && c.Value != nil {
				got[c.Key] = *c.Value
			}
		}
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("broker config %s = %q, want %q", k, got[k], v)
		}
	}
}
