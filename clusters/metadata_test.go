package clusters_test

import (
	"context"
	"net"
	"strings"
	"testing"

	"github.com/fastpathlab/fplab/clusters"
)

func TestUnreachableBootstrap(t *testing.T) {
	ctx, cancel := context.WithTimeout(t.Context(), failSafe)
	defer cancel()
	c := clusters.Cluster{Bootstrap: []string{"127.0.0.1:1"}}
	_, err := clusters.BrokerCount(ctx, c)
	if err == nil {
		t.Fatal("BrokerCount of 127.0.0.1:1 succeeded")
	}
	msg := err.Error()
	if !strings.HasPrefix(msg, "cannot reach bootstrap 127.0.0.1:1: dial tcp ") ||
		!strings.Contains(msg, "connection refused") || strings.Contains(msg, "\n") {
		t.Errorf("error = %q, want one line: cannot reach bootstrap 127.0.0.1:1: dial tcp ...: connection refused", msg)
	}
	if _, err := clusters.PartitionCount(ctx, c, "t"); err == nil || !strings.Contains(err.Error(), "cannot reach bootstrap") {
		t.Errorf("PartitionCount: %v", err)
	}
	if _, err := clusters.TopicReady(ctx, c, "t", 1, 1); err == nil || !strings.Contains(err.Error(), "cannot reach bootstrap") {
		t.Errorf("TopicReady: %v", err)
	}
}

// TestSilentBrokerBoundedByContext: a listener that accepts but never
// answers must not hang BrokerCount past its context. The context ends
// once the listener holds franz-go's connection (the second: the first is
// the reachability dial), so the request is certainly under way.
func TestSilentBrokerBoundedByContext(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	ctx, cancel := context.WithTimeout(t.Context(), failSafe)
	defer cancel()
	go func() {
		var held []net.Conn // open, never answered
		defer func() {
			for _, c := range held {
				c.Close()
			}
		}()
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			if held = append(held, conn); len(held) == 2 {
				cancel()
			}
		}
	}()
	_, err = clusters.BrokerCount(ctx, clusters.Cluster{Bootstrap: []string{ln.Addr().String()}})
	if err == nil {
		t.Fatal("BrokerCount of a silent listener succeeded")
	}
	if !strings.HasPrefix(err.Error(), "broker metadata from ") || strings.Contains(err.Error(), "\n") {
		t.Errorf("error = %q", err)
	}
}

func TestBrokerCountWithoutBootstrap(t *testing.T) {
	ctx := context.Background()
	if _, err := clusters.BrokerCount(ctx, clusters.Cluster{}); err == nil || err.Error() != "no bootstrap servers" {
		t.Errorf("BrokerCount without bootstrap: %v", err)
	}
}
