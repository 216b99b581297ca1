package kafka_test

import (
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fastpathlab/fplab/clusters"
	"github.com/fastpathlab/fplab/clusters/kafka"
	"github.com/fastpathlab/fplab/clusters/kafka/kafkatest"
	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
)

func message(dst []byte, i int) []byte {
	return strconv.AppendInt(append(dst, "rec-"...), int64(i), 10)
}

func TestKafkaOneBroker(t *testing.T) {
	c := kafkatest.Start(t, kafka.Options{Brokers: 1, Partitions: 3})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute) // fail-safe only
	defer cancel()
	cl := clusters.Cluster{Bootstrap: c.Bootstrap()}
	if n, err := clusters.BrokerCount(ctx, cl); err != nil || n != 1 {
		t.Fatalf("BrokerCount = %d, %v; want 1", n, err)
	}
	if _, err := clusters.Load(ctx, cl, "t1", 3, 1000, message); err != nil {
		t.Fatal(err)
	}
	if ok, err := clusters.TopicReady(ctx, cl, "t1", 3, 1000); err != nil || !ok {
		t.Fatalf("TopicReady = %v, %v; want true", ok, err)
	}
	b, err := os.ReadFile(filepath.Join(c.Dir(), "broker-0.log"))
	if err != nil || !strings.Contains(string(b), "Kafka Server started") && !strings.Contains(string(b), "started (kafka.server") {
		t.Errorf("broker-0.log does not show a started server (err %v, %d bytes)", err, len(b))
	}
	dir := c.Dir()
	if err := c.Stop(); err != nil {
		t.Fatal(err)
	}
	if left := kafkatest.Leftovers(dir); len(left) > 0 {
		t.Fatalf("processes %v left after Stop", left)
	}
	if err := c.KillBroker(0); err == nil {
		t.Error("KillBroker after Stop: want an error")
	}
}

func TestKafkaThreeBrokersKillRestart(t *testing.T) {
	c := kafkatest.Start(t, kafka.Options{Brokers: 3, Partitions: 3})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute) // fail-safe only
	defer cancel()
	cl := clusters.Cluster{Bootstrap: c.Bootstrap()}
	leadersAnswerAtOnce(ctx, t, cl, c.Bootstrap())
	if _, err := clusters.Load(ctx, cl, "t3", 3, 3000, message); err != nil {
		t.Fatal(err)
	}
	sock := filepath.Join(t.TempDir(), "faults.sock")
	stop, err := c.ServeFaults(sock)
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	fc, err := kafka.DialFaults(ctx, sock)
	if err != nil {
		t.Fatal(err)
	}
	defer fc.Close()
	if _, err := fc.Restart(ctx); err == nil {
		t.Error("restart before any kill: want an error")
	}
	victim, err := fc.Kill(ctx, "t3", 0)
	if err != nil {
		t.Fatal(err)
	}
	if pid := c.Pids()[victim]; pid > 0 {
		if _, err := os.Stat("/proc/" + strconv.Itoa(pid)); err == nil {
			t.Errorf("killed node %d (pid %d) still in /proc", victim, pid)
		}
	}
	// With replication factor 3 every record stays readable once the
	// controller has moved the dead node's leaderships (3s session). The
	// move is the cluster's own and announces itself nowhere, so this
	// polls; the test's context is only the fail-safe, no measure of how
	// fast the move must be.
	if err := readableAgain(ctx, cl, "t3", 3, 3000); err != nil {
		t.Errorf("with node %d down: %v", victim, err)
	}
	if _, err := fc.Kill(ctx, "t3", 0); err == nil {
		t.Error("second kill on one connection: want an error")
	}
	if n, err := fc.Restart(ctx); err != nil || n != victim {
		t.Fatalf("Restart = %d, %v; want %d", n, err, victim)
	}
	if n, err := clusters.BrokerCount(ctx, cl); err != nil || n != 3 {
		t.Fatalf("after restart BrokerCount = %d, %v; want 3", n, err)
	}
	if err := c.RestartBroker(ctx, victim); err == nil {
		t.Error("RestartBroker of a running node: want an error")
	}
}

func TestKafkaBadInput(t *testing.T) {
	dist := kafkatest.Dist(t)
	ctx := context.Background()
	cases := []struct {
		name string
		opt  kafka.Options
		env  map[string]string
		want string
	}{
		{"no dir", kafka.Options{Dist: dist}, nil, "no directory"},
		{"brokers", kafka.Options{Dist: dist, Dir: t.TempDir(), Brokers: 10}, nil, "brokers must be"},
		{"no dist", kafka.Options{Dist: t.TempDir(), Dir: t.TempDir()}, nil, "make kafka-dist"},
		{"no java", kafka.Options{Dist: dist, Dir: t.TempDir()}, map[string]string{"JAVA_HOME": "", "PATH": t.TempDir()}, "java not found"},
		{"bad JAVA_HOME", kafka.Options{Dist: dist, Dir: t.TempDir()}, map[string]string{"JAVA_HOME": t.TempDir()}, "has no bin/java"},
		{"ports", kafka.Options{Dist: dist, Dir: t.TempDir(), Brokers: 2, Ports: []int{1}}, nil, "1 ports given for 2"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			for k, v := range tc.env {
				t.Setenv(k, v)
			}
			_, err := kafka.Start(ctx, tc.opt)
			if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
				t.Fatalf("Start: %v; want one line containing %q", err, tc.want)
			}
		})
	}
}

func TestKafkaPortInUse(t *testing.T) {
	dist := kafkatest.Dist(t)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	port := l.Addr().(*net.TCPAddr).Port
	_, err = kafka.Start(context.Background(), kafka.Options{Dist: dist, Dir: t.TempDir(), Ports: []int{port}})
	if err == nil || !strings.Contains(err.Error(), "in use") {
		t.Fatalf("Start on a used port: %v; want an 'in use' error", err)
	}
}

// A broker that never becomes ready (here: a deadline too short for a JVM
// to start) fails Start within the bound and leaves nothing running.
func TestKafkaNeverReady(t *testing.T) {
	dist := kafkatest.Dist(t)
	dir := t.TempDir()
	_, err := kafka.Start(context.Background(), kafka.Options{Dist: dist, Dir: dir, HeapMB: 256, StartTimeout: 1500 * time.Millisecond})
	if err == nil {
		t.Fatal("Start with a 1.5s deadline succeeded; want a deadline error")
	}
	if strings.Contains(err.Error(), "\n") || strings.HasPrefix(err.Error(), "clusters/kafka: ") {
		t.Errorf("error is not one line without a package prefix: %q", err)
	}
	if left := kafkatest.Leftovers(dir); len(left) > 0 {
		t.Fatalf("processes %v left after a failed start", left)
	}
}

// readableAgain polls TopicReady until the topic holds its corpus or ctx
// ends; the error quotes the last answer.
func readableAgain(ctx context.Context, cl clusters.Cluster, topic string, partitions, n int) error {
	tick := time.NewTicker(250 * time.Millisecond)
	defer tick.Stop()
	for {
		ok, err := clusters.TopicReady(ctx, cl, topic, partitions, n)
		if ok {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("topic %s not readable before the test's deadline (last: ready=%v, %v)", topic, ok, err)
		case <-tick.C:
		}
	}
}

// leadersAnswerAtOnce: once clusters.CreateTopic returns on three brokers,
// every partition's leader answers for it at once: a client that does not
// retry lists every end offset without "not leader for partition" (live
// cells open their reader on a topic just made). Several topics, since
// the broker that answers metadata first runs ahead of the leaders only
// some of the time.
func leadersAnswerAtOnce(ctx context.Context, t *testing.T, cl clusters.Cluster, seeds []string) {
	t.Helper()
	raw, err := kgo.NewClient(kgo.SeedBrokers(seeds...), kgo.RequestRetries(0))
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	adm := kadm.NewClient(raw)
	for i := range 5 {
		topic := fmt.Sprintf("fresh-%d", i)
		if err := clusters.CreateTopic(ctx, cl, topic, 6); err != nil {
			t.Fatal(err)
		}
		ends, err := adm.ListEndOffsets(ctx, topic)
		if err == nil {
			err = ends.Error()
		}
		if err != nil {
			t.Fatalf("end offsets of %s right after CreateTopic: %v", topic, err)
		}
		if err := clusters.DeleteTopic(ctx, cl, topic); err != nil {
			t.Fatal(err)
		}
	}
}
