// Package kafkatest gives tests a real Kafka cluster (package
// clusters/kafka) that is stopped when the test ends, and checks that no
// broker process outlives it. Tests skip, with the reason, only when no
// distribution is in force: FPLAB_KAFKA_DIST unset and the default cache
// missing. With FPLAB_KAFKA_DIST set (as CI does) a missing or broken
// distribution fails the test instead.
package kafkatest

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fastpathlab/fplab/clusters/kafka"
	"github.com/fastpathlab/fplab/internal/proctest"
)

// Dist returns the distribution directory in force, skipping or failing
// the test when there is none (see the package doc).
func Dist(t testing.TB) string {
	t.Helper()
	dir := kafka.DistDir()
	err := kafka.CheckDist(dir)
	switch {
	case err == nil:
		return dir
	case os.Getenv(kafka.DistEnv) != "":
		t.Fatalf("%s is set but: %v", kafka.DistEnv, err)
	default:
		t.Skipf("real Kafka tests skipped: %s is unset and no distribution is cached at %s (run `make kafka-dist`)", kafka.DistEnv, dir)
	}
	return ""
}

// startFailSafe is the tests' default StartTimeout: a JVM start that takes
// seconds alone can take minutes on a machine loaded by parallel test
// binaries, and the bound is there to turn a hang into a failure, not to
// measure the start.
const startFailSafe = 5 * time.Minute

// Start starts a cluster with o (Dir defaults to a test temp directory,
// HeapMB to 512, StartTimeout to startFailSafe) and registers a cleanup that stops it and fails the test
// if any process whose command line names the cluster's directory is
// still alive afterwards.
func Start(t testing.TB, o kafka.Options) *kafka.Cluster {
	t.Helper()
	o.Dist = Dist(t)
	if o.Dir == "" {
		o.Dir = t.TempDir()
	}
	if o.HeapMB == 0 {
		o.HeapMB = 512
	}
	if o.StartTimeout == 0 {
		o.StartTimeout = startFailSafe
	}
	c, err := kafka.Start(context.Background(), o)
	if err != nil {
		if left := Leftovers(o.Dir); len(left) > 0 {
			t.Errorf("failed start left processes %v behind", left)
		}
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := c.Stop(); err != nil {
			t.Errorf("stop kafka: %v", err)
		}
		if left := Leftovers(o.Dir); len(left) > 0 {
			t.Errorf("processes %v still running after Stop", left)
		}
	})
	return c
}

// Leftovers lists the live processes whose command line mentions dir (every
// node's command names its config file under dir).
func Leftovers(dir string) []int {
	abs, err := filepath.Abs(dir)
	if err == nil {
		dir = abs
	}
	ents, _ := os.ReadDir("/proc")
	var out []int
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err != nil || !strings.Contains(string(b), dir) {
			continue
		}
		if proctest.Alive(pid) {
			out = append(out, pid)
		}
	}
	return out
}
