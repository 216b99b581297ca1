package ladder

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fastpathlab/fplab/cell"
	"github.com/fastpathlab/fplab/clusters"
	"github.com/fastpathlab/fplab/clusters/kafka"
	"github.com/fastpathlab/fplab/clusters/kafka/kafkatest"
)

// goPaths are the Arrow paths, which the embedded-cluster smoke spec must
// cover; the references (java, java-perf, flink, ceiling) count records,
// cannot checkpoint as every smoke cell does, and are covered by
// kafka-smoke.yaml.
func goPaths() []string {
	var out []string
	for _, p := range cell.Paths() {
		if !cell.CountingPath(p) {
			out = append(out, p)
		}
	}
	return out
}

const killSpecBase = `
path: [fast, java]
format: [json]
batch: [8192]
brokers: [1, 3]
alloc: [go]
crc: [off]
cluster: [kafka]
records: 1000
repetitions: 1
timeout: 30s
seed: 1
`

func TestBrokerKillSpec(t *testing.T) {
	s, err := ParseSpec("k.yaml", []byte(killSpecBase+"broker_kill: {path: fast, brokers: 3}\n"))
	if err != nil {
		t.Fatal(err)
	}
	cells, err := Expand(s)
	if err != nil {
		t.Fatal(err)
	}
	var killed []string
	for _, c := range cells {
		if c.Fault != "" {
			killed = append(killed, c.Name())
		}
	}
	want := "path=fast/format=json/batch=8192/brokers=3/alloc=go/crc=off/cluster=kafka/fault=kill"
	if len(killed) != 1 || killed[0] != want {
		t.Fatalf("kill cells = %v, want [%s]", killed, want)
	}
	e := Entry{Cell: cell.Cell{Path: "fast", Format: "json", Batch: 8192, Brokers: 3, Alloc: "go", Cluster: "kafka", Fault: "kill", AA: "a"}}
	rc := rungCell(s, e, staticCluster{bootstrap: []string{"h:1"}, sock: "/tmp/f.sock"}, "t", "")
	args := strings.Join(rc.Args(), " ")
	for _, w := range []string{"--fault kill --aa a", "--fault-socket /tmp/f.sock", "--cluster kafka"} {
		if !strings.Contains(args, w) {
			t.Errorf("rung args %q lack %q", args, w)
		}
	}
	if err := rc.Validate(); err != nil || rc.Name() != "path=fast/format=json/batch=8192/brokers=3/alloc=go/crc=off/cluster=kafka/fault=kill/aa=a" {
		t.Errorf("child cell %s: %v", rc.Name(), err)
	}
	// The selections a spec may not make are pinned with every other
	// refused spec, in TestSpecErrors.
}

func TestKafkaSmokeSpec(t *testing.T) {
	s, err := LoadSpec("specs/kafka-smoke.yaml")
	if err != nil {
		t.Fatal(err)
	}
	cells, err := Expand(s)
	if err != nil {
		t.Fatal(err)
	}
	paths, brokers, kills := map[string]bool{}, map[int]bool{}, 0
	for _, c := range cells {
		if c.Cluster != "kafka" {
			t.Errorf("cell %s is not on cluster kafka", c.Name())
		}
		paths[c.Path], brokers[c.Brokers] = true, true
		if c.Fault != "" {
			kills++
		}
	}
	if len(paths) != len(cell.Paths()) || !brokers[1] || !brokers[3] || kills != 1 {
		t.Errorf("kafka-smoke covers paths %v brokers %v with %d kill cells; want every path, 1 and 3 brokers, 1 kill cell", paths, brokers, kills)
	}
}

// TestKafkaInfra starts a cluster=kafka shape of 3 brokers through the
// ladder's Infra, loads a corpus with replication factor 3 and checks the
// fault socket and the broker logs in the run directory, and that Stop
// removes the brokers' data but keeps their logs.
func TestKafkaInfra(t *testing.T) {
	kafkatest.Dist(t)
	run := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	inf := &KafkaInfra{}
	cl, err := inf.Start(ctx, ClusterSpec{Shape: Shape{Cluster: "kafka", Brokers: 3}, Partitions: 3, Dir: run})
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(run, "kafka", "brokers=3")
	t.Cleanup(func() {
		if err := cl.Stop(); err != nil {
			t.Error(err)
		}
		if left := kafkatest.Leftovers(dir); len(left) > 0 {
			t.Errorf("processes %v left after Stop", left)
		}
		if data, _ := filepath.Glob(filepath.Join(dir, "node-*", "data")); len(data) > 0 {
			t.Errorf("broker data %v left after Stop", data)
		}
		if logs, _ := filepath.Glob(filepath.Join(dir, "broker-*.log")); len(logs) != 3 {
			t.Errorf("broker logs after Stop: %v, want 3", logs)
		}
	})
	topic, err := cl.Load(ctx, CorpusSpec{Format: "json", Schema: "bid", Seed: 1, Records: 3000, Partitions: 3})
	if err != nil {
		t.Fatal(err)
	}
	n, err := clusters.BrokerCount(ctx, clusters.Cluster{Bootstrap: cl.Bootstrap()})
	if err != nil || n != 3 {
		t.Fatalf("BrokerCount = %d, %v", n, err)
	}
	if _, err := os.Stat(filepath.Join(dir, "broker-2.log")); err != nil {
		t.Errorf("no broker log in the run directory: %v", err)
	}
	rc := rungCell(&Spec{}, Entry{Cell: cell.Cell{Fault: "kill"}}, cl, "t", "")
	if rc.FaultSocket == "" {
		t.Fatal("a kill cell on a real cluster got no fault socket")
	}
	fc, err := kafka.DialFaults(ctx, rc.FaultSocket)
	if err != nil {
		t.Fatal(err)
	}
	defer fc.Close()
	if _, err := fc.Kill(ctx, topic, 0); err != nil {
		t.Fatal(err)
	}
	if _, err := fc.Restart(ctx); err != nil {
		t.Fatal(err)
	}
	// Loading again finds the corpus in place.
	if again, err := cl.Load(ctx, CorpusSpec{Format: "json", Schema: "bid", Seed: 1, Records: 3000, Partitions: 3}); err != nil || again != topic {
		t.Fatalf("second Load = %q, %v", again, err)
	}
}
