package clusterstest

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/fastpathlab/fplab/clusters"
	"github.com/twmb/franz-go/pkg/kfake"
)

// brokerArg, as the first argument, turns a test binary into a broker.
const brokerArg = "fplab-clusters-broker"

// StartTimeout is how long StartEmbeddedT waits for the bootstrap line.
const StartTimeout = 30 * time.Second

// SelfArgv returns the command that re-executes the running test binary as
// an embedded broker; the binary's TestMain must call BrokerMain.
func SelfArgv(brokers, partitions int) []string {
	exe, err := os.Executable()
	if err != nil {
		exe = os.Args[0]
	}
	return []string{exe, brokerArg, strconv.Itoa(brokers), strconv.Itoa(partitions)}
}

// BrokerMain returns at once unless the process was started by SelfArgv.
// Then it runs clusters.RunEmbedded until stdin reaches EOF or SIGINT or
// SIGTERM arrives, and exits: 0 after a clean stop, 2 on error.
func BrokerMain() {
	if len(os.Args) < 2 || os.Args[1] != brokerArg {
		return
	}
	os.Exit(runBroker(os.Args[2:]))
}

func runBroker(args []string) int {
	if len(args) != 2 {
		fmt.Fprintf(os.Stderr, "clusterstest: want <brokers> <partitions>, got %q\n", args)
		return 2
	}
	brokers, err1 := strconv.Atoi(args[0])
	partitions, err2 := strconv.Atoi(args[1])
	if err1 != nil || err2 != nil {
		fmt.Fprintf(os.Stderr, "clusterstest: brokers and partitions must be integers, got %q\n", args)
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	ctx, cancel := clusters.ContextUntilStdinEOF(ctx)
	defer cancel()
	if err := clusters.RunEmbedded(ctx, brokers, partitions, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	return 0
}

// StartEmbeddedT starts argv as an embedded broker (see
// clusters.StartEmbedded), fails the test if it does not come up, and stops
// it when the test ends, failing the test if it did not stop cleanly.
func StartEmbeddedT(t testing.TB, argv []string) *clusters.Embedded {
	t.Helper()
	e, err := clusters.StartEmbedded(context.Background(), argv, StartTimeout)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := e.Stop(); err != nil {
			t.Errorf("stop embedded broker: %v", err)
		}
	})
	return e
}

// StartSelfT is StartEmbeddedT of SelfArgv(brokers, partitions).
func StartSelfT(t testing.TB, brokers, partitions int) *clusters.Embedded {
	t.Helper()
	return StartEmbeddedT(t, SelfArgv(brokers, partitions))
}

// InProcess starts a kfake cluster in the test's own process (one broker
// unless opts say otherwise) and closes it when the test ends. It shares
// the test's cores and heap: fine for behaviour and counts, never for
// figures, which come from a broker in its own process (StartSelfT).
func InProcess(t testing.TB, opts ...kfake.Opt) *kfake.Cluster {
	t.Helper()
	c, err := kfake.NewCluster(append([]kfake.Opt{kfake.NumBrokers(1)}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return c
}
