package ladder

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/fastpathlab/fplab/cell"
)

// staticCluster is a Cluster at fixed addresses, with a fault socket when
// sock is set, for tests that only render a child's argv.
type staticCluster struct {
	bootstrap []string
	sock      string
}

func (c staticCluster) Bootstrap() []string                              { return c.bootstrap }
func (c staticCluster) Load(context.Context, CorpusSpec) (string, error) { return "t", nil }
func (c staticCluster) Alive(context.Context) error                      { return nil }
func (c staticCluster) Stop() error                                      { return nil }
func (c staticCluster) FaultSocket() string                              { return c.sock }

// rungArgs is the argv (after the binary) of entry e's child on a cluster
// at bootstrap, in run directory runDir.
func rungArgs(s *Spec, e Entry, bootstrap []string, topic, runDir string) []string {
	rc := rungCell(s, e, staticCluster{bootstrap: bootstrap}, topic, runDir)
	return append([]string{"rung"}, rc.Args()...)
}

func TestRungArgs(t *testing.T) {
	s := &Spec{Partitions: 6, Records: 2000000, Seed: 42, Schema: "bid", Timeout: 100 * time.Second,
		ClusterProps: map[string]string{"sasl.username": "u", "security.protocol": "SASL_SSL"}}
	e := Entry{Cell: cell.Cell{Path: "fast", Format: "json", Batch: 8192, Brokers: 3, Alloc: "mimalloc2", Cluster: "embedded", AA: "b"}}
	got := strings.Join(rungArgs(s, e, []string{"h:1", "h:2"}, "bid-json-s42-n2000000", "/run"), " ")
	want := "rung --path fast --format json --batch 8192 --brokers 3 --alloc mimalloc2 --crc off --cluster embedded" +
		" --bootstrap h:1,h:2 --topic bid-json-s42-n2000000 --partitions 6 --records 2000000 --seed 42 --schema bid --timeout 1m35s --aa b --hash-cache /run/hashes"
	if got != want {
		t.Errorf("\n got %s\nwant %s", got, want)
	}
	s.Checkpoint, s.Failures = []time.Duration{500 * time.Millisecond}, 3
	e.Cell.Ckpt = 500 * time.Millisecond
	e.Cell.Cluster, e.Cell.AA = "external", ""
	got = strings.Join(rungArgs(s, e, []string{"k:9092"}, "t", ""), " ")
	want = "rung --path fast --format json --batch 8192 --brokers 3 --alloc mimalloc2 --crc off --cluster external" +
		" --bootstrap k:9092 --topic t --partitions 6 --records 2000000 --seed 42 --schema bid --timeout 1m35s" +
		" --checkpoint-interval 500ms --cluster-prop security.protocol=SASL_SSL --secrets-fd 3 --failures 3 --kill-seed 1925283395309014351"
	if got != want {
		t.Errorf("\n got %s\nwant %s", got, want)
	}
}

func TestKillSeedDiffersPerCellAndRep(t *testing.T) {
	a, b, c := killSeed(7, "x", 0), killSeed(7, "x", 1), killSeed(7, "y", 0)
	if a == b || a == c || b == c || a != killSeed(7, "x", 0) {
		t.Errorf("kill seeds %d %d %d", a, b, c)
	}
}
