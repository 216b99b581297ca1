package clusters_test

import (
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fastpathlab/fplab/clusters"
	"github.com/fastpathlab/fplab/clusters/clusterstest"
)

// probeTimeout is generous: a live local broker answers in milliseconds,
// and a dead one refuses at once, so the bound never decides a result.
const probeTimeout = 30 * time.Second

func TestProbe(t *testing.T) {
	e := clusterstest.StartSelfT(t, 3, 2)
	c := clusters.Cluster{Bootstrap: e.Bootstrap()}
	if err := clusters.Probe(t.Context(), c, probeTimeout); err != nil {
		t.Fatalf("Probe of a live cluster: %v", err)
	}
	e.Kill()
	err := clusters.Probe(t.Context(), c, probeTimeout)
	checkBrokerDown(t, "Probe of a killed cluster", err, e.Bootstrap())
	if got := err.(*clusters.BrokerDownError).Addr; got != e.Bootstrap()[0] {
		t.Errorf("Probe names %s, want the first bootstrap broker %s", got, e.Bootstrap()[0])
	}
}

func TestProbeRejects(t *testing.T) {
	c := clusters.Cluster{Bootstrap: []string{"127.0.0.1:1"}}
	if err := clusters.Probe(t.Context(), c, 0); err == nil || err.Error() != "probe timeout must be > 0, got 0s" {
		t.Errorf("Probe with timeout 0: %v", err)
	}
	if err := clusters.Probe(t.Context(), clusters.Cluster{}, time.Second); err == nil || err.Error() != "no bootstrap servers" {
		t.Errorf("Probe without bootstrap: %v", err)
	}
}

// TestLoadStopsWhenBrokerDies kills the broker process in the middle of a
// load. The message func is the gate: it holds the load at record gateAt
// until the broker is dead, so the load is certainly unfinished when the
// broker dies, and Load must then fail naming a broker instead of retrying
// for its delivery timeout.
func TestLoadStopsWhenBrokerDies(t *testing.T) {
	const (
		partitions = 3
		n          = 100_000
		gateAt     = 5_000
	)
	e := clusterstest.StartSelfT(t, 3, partitions)
	c := clusters.Cluster{Bootstrap: e.Bootstrap()}
	reached := make(chan struct{})
	var once sync.Once
	message := func(dst []byte, i int) []byte {
		if i == gateAt {
			once.Do(func() { close(reached) })
			<-e.Exited()
		}
		return testMessage(dst, i)
	}
	done := make(chan error, 1)
	go func() {
		_, err := clusters.Load(t.Context(), c, "doomed", partitions, n, message, clusters.WithGenerators(1))
		done <- err
	}()
	await(t, reached, "the load never reached record 5000")
	e.Kill()
	err := await(t, done, "Load still running after its broker died")
	t.Logf("Load: %v", err)
	checkBrokerDown(t, "Load whose broker died", err, e.Bootstrap())
}

// checkBrokerDown asserts err is one line, a *BrokerDownError naming one of
// addrs, with no package prefix.
func checkBrokerDown(t *testing.T, what string, err error, addrs []string) {
	t.Helper()
	var bd *clusters.BrokerDownError
	if !errors.As(err, &bd) {
		t.Fatalf("%s: error %v (%T), want a *clusters.BrokerDownError", what, err, err)
	}
	msg := err.Error()
	if !strings.HasPrefix(msg, "broker "+bd.Addr+" is unreachable: ") || strings.Contains(msg, "\n") {
		t.Errorf("%s: error %q, want one line: broker %s is unreachable: ...", what, msg, bd.Addr)
	}
	for _, a := range addrs {
		if bd.Addr == a {
			return
		}
	}
	t.Errorf("%s: names %s, not one of the bootstrap brokers %v", what, bd.Addr, addrs)
}
