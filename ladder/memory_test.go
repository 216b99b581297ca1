package ladder

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fastpathlab/fplab/cell"
)

func TestMemTotalOf(t *testing.T) {
	got := memTotalOf(strings.NewReader("MemTotal:       24570524 kB\nMemFree: 1 kB\n"))
	if got != 24570524<<10 {
		t.Errorf("memTotalOf = %d", got)
	}
	if got := memTotalOf(strings.NewReader("nothing\n")); got != 0 {
		t.Errorf("memTotalOf without MemTotal = %d, want 0", got)
	}
}

// TestEmbeddedLoads: one corpus per group an embedded cluster holds,
// estimated from the encoded size; kafka cells hold none in memory.
func TestEmbeddedLoads(t *testing.T) {
	s := mustSpec(t, runnerSpec) // json and raw, 1 broker, embedded, 500 records
	cells, err := Expand(s)
	if err != nil {
		t.Fatal(err)
	}
	loads, err := embeddedLoads(s, cells)
	if err != nil {
		t.Fatal(err)
	}
	if len(loads) != 2 {
		t.Fatalf("%d corpora, want json and raw: %+v", len(loads), loads)
	}
	for _, l := range loads {
		// bid json and raw encode to about 144 bytes: 2 x 144 + 64.
		if per := l.bytes / int64(l.records); per < 330 || per > 370 {
			t.Errorf("%s: %d bytes a record, want about 352", l.group.format, per)
		}
	}
	for i := range cells {
		cells[i].Cluster = cell.ClusterKafka
	}
	if loads, _ := embeddedLoads(s, cells); len(loads) != 0 {
		t.Errorf("kafka cells: %d embedded corpora", len(loads))
	}
}

// TestRunRefusesCorporaPastTheHost: a run whose embedded corpora would
// outgrow the host is refused before the run directory exists, with the
// figure.
func TestRunRefusesCorporaPastTheHost(t *testing.T) {
	s := mustSpec(t, runnerSpec) // 2 corpora x 500 records x ~352 B = ~352 kB
	root := t.TempDir()
	infra := &fakeInfra{}
	opt := Options{Spec: s, BinDir: fakeBinDir(t, "go", "mimalloc2"), Root: root, Infra: infra, memTotal: 400 << 10,
		Progress: &bytes.Buffer{}, ChildEnv: fakeEnv("")}
	_, err := Run(context.Background(), opt)
	want := "spec runner: records: the embedded brokers would hold about 0.3 MiB (2 corpora of 500 records, about 35"
	if err == nil || !strings.HasPrefix(err.Error(), want) || !strings.Contains(err.Error(), "more than 70% of this host's 0.4 MiB") {
		t.Errorf("Run = %v\nwant %s...", err, want)
	}
	if ents, _ := os.ReadDir(root); len(ents) != 0 || len(infra.started) != 0 {
		t.Errorf("a refused run left %v, started %v", ents, infra.started)
	}
	opt.memTotal = 1 << 30
	if _, err := Run(context.Background(), opt); err != nil {
		t.Errorf("the same spec on 1 GiB: %v", err)
	}
}

// TestDiskNeed: real Kafka cells count their corpus once per replica
// (min(brokers, 3)); every corpus counts its expected hashes.
func TestDiskNeed(t *testing.T) {
	s := mustSpec(t, runnerSpec) // json and raw, 1 broker, 500 records
	cells, err := Expand(s)
	if err != nil {
		t.Fatal(err)
	}
	need, err := diskNeed(s, cells)
	if err != nil || need != 2*500*hashBytesPerRecord {
		t.Errorf("embedded: %d, %v; want only the hashes, %d", need, err, 2*500*hashBytesPerRecord)
	}
	for i := range cells {
		cells[i].Cluster, cells[i].Brokers = cell.ClusterKafka, 3
	}
	need, _ = diskNeed(s, cells)
	// 2 corpora x 500 records x 3 replicas x (~145 encoded + 16) + hashes.
	if per := (need - 2*500*hashBytesPerRecord) / (2 * 500 * 3); per < 155 || per > 165 {
		t.Errorf("kafka: %d bytes a record per replica, want about 161", per)
	}
}

func TestRunRefusesCorporaPastTheDisk(t *testing.T) {
	s := mustSpec(t, runnerSpec)
	root := t.TempDir()
	_, err := Run(context.Background(), Options{Spec: s, BinDir: fakeBinDir(t, "go", "mimalloc2"), Root: root, Infra: &fakeInfra{}, freeDisk: 4000})
	want := "spec runner: records: the run would write about 0.0 MiB of corpora (real Kafka's replicated logs and the expected hashes), more than 90% of the 0.0 MiB free under its root"
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("Run = %v\nwant %s...", err, want)
	}
	if ents, _ := os.ReadDir(root); len(ents) != 0 {
		t.Errorf("a refused run left %v", ents)
	}
	if free := freeBytes(filepath.Join(root, "not", "made", "yet")); free <= 0 {
		t.Errorf("freeBytes of a root to be made = %d", free)
	}
}
