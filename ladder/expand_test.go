package ladder

import (
	"fmt"
	"strings"
	"testing"

	"github.com/fastpathlab/fplab/cell"
)

// uncovered lists the axis=value pairs of s (surviving exclusions) that no
// cell has.
func uncovered(s *Spec, cells []cell.Cell) []string {
	have := map[string]bool{}
	for _, c := range cells {
		for _, a := range cell.Axes() {
			have[a+"="+c.Value(a)] = true
		}
	}
	var missing []string
	for _, c := range product(s) {
		if excluded(c, s.Exclude) {
			continue
		}
		for _, a := range cell.Axes() {
			if k := a + "=" + c.Value(a); !have[k] {
				have[k] = true
				missing = append(missing, k)
			}
		}
	}
	return missing
}

func bigSpec() *Spec {
	return &Spec{
		Path: goPaths(), Format: cell.Formats(), Batch: []int{1024, 8192, 65536}, Brokers: []int{1, 3},
		Alloc: cell.Allocs(), CRC: cell.CRCs(), Cluster: []string{"embedded"},
		Records: 10, Repetitions: 1, Seed: 1,
	}
}

func TestExpandFullProduct(t *testing.T) {
	s := bigSpec()
	cells, err := Expand(s)
	if err != nil {
		t.Fatal(err)
	}
	if want := 4 * 5 * 3 * 2 * 3 * 2; len(cells) != want {
		t.Fatalf("%d cells, want %d", len(cells), want)
	}
	names := map[string]bool{}
	for _, c := range cells {
		if names[c.Name()] {
			t.Fatalf("duplicate cell %s", c.Name())
		}
		names[c.Name()] = true
	}
	if got, want := cells[0].Name(), "path=rowwise/format=json/batch=1024/brokers=1/alloc=go/crc=on"; got != want {
		t.Errorf("first cell %s, want %s", got, want)
	}
}

func TestExpandExclusions(t *testing.T) {
	s := bigSpec()
	s.Exclude = []map[string]string{{"path": "franz", "crc": "on"}, {"format": "csv"}}
	cells, err := Expand(s)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cells {
		if (c.Path == "franz" && c.CRC) || c.Format == "csv" {
			t.Errorf("excluded cell kept: %s", c.Name())
		}
	}
	// franz with crc=off survives the first exclusion.
	if want := 4*4*3*2*3*2 - 4*3*2*3; len(cells) != want {
		t.Errorf("%d cells, want %d", len(cells), want)
	}
}

func TestCoveringCoversEveryValue(t *testing.T) {
	for i, mod := range []func(*Spec){
		func(*Spec) {},
		func(s *Spec) {
			s.Exclude = []map[string]string{{"path": "franz", "crc": "on"}, {"format": "raw", "alloc": "go"}}
		},
		func(s *Spec) { s.Batch = []int{1, 2, 3, 4, 5, 6, 7}; s.Cluster = []string{"embedded", "external"} },
		func(s *Spec) { s.Exclude = []map[string]string{{"crc": "on"}} }, // crc=on cannot be covered
	} {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			s := bigSpec()
			mod(s)
			s.Covering = true
			cells, err := Expand(s)
			if err != nil {
				t.Fatal(err)
			}
			if m := uncovered(s, cells); len(m) > 0 {
				t.Errorf("not covered: %v", m)
			}
			s.Covering = false
			full, _ := Expand(s)
			if len(cells)*10 > len(full) {
				t.Errorf("covering set has %d cells, product %d: not much smaller", len(cells), len(full))
			}
			for _, c := range cells {
				if excluded(c, s.Exclude) {
					t.Errorf("covering picked excluded cell %s", c.Name())
				}
			}
		})
	}
}

func TestCoveringIsSmallAndStable(t *testing.T) {
	s := bigSpec()
	s.Covering = true
	a, _ := Expand(s)
	b, _ := Expand(s)
	// The longest axis (format) has 5 values: no covering set is smaller.
	if len(a) != 5 {
		t.Errorf("covering set has %d cells, want 5", len(a))
	}
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("covering not deterministic at %d: %s vs %s", i, a[i].Name(), b[i].Name())
		}
	}
}

func TestCellNames(t *testing.T) {
	c := cell.Cell{Path: "fast", Format: "json", Batch: 8192, Brokers: 3, Alloc: "mimalloc2", Cluster: "embedded"}
	if got, want := c.Name(), "path=fast/format=json/batch=8192/brokers=3/alloc=mimalloc2/crc=off"; got != want {
		t.Errorf("%s, want %s", got, want)
	}
	c.Cluster, c.AA = "external", "a"
	if got, want := c.Name(), "path=fast/format=json/batch=8192/brokers=3/alloc=mimalloc2/crc=off/cluster=external/aa=a"; got != want {
		t.Errorf("%s, want %s", got, want)
	}
}

func TestCheckpointListIsADimension(t *testing.T) {
	s, err := ParseSpec("x.yaml", []byte("path: [fast]\nformat: [raw]\nbatch: [256, 4096]\nbrokers: [1]\nalloc: [go]\ncrc: [off]\n"+
		"records: 1000\nrepetitions: 1\nwarmup: 0\nseed: 1\ntimeout: 10s\ncheckpoint: [off, 1s]\nfailures: 1\n"))
	if err != nil {
		t.Fatal(err)
	}
	cells, err := Expand(s)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, c := range cells {
		names = append(names, c.Name())
	}
	want := []string{
		"path=fast/format=raw/batch=256/brokers=1/alloc=go/crc=off",
		"path=fast/format=raw/batch=256/brokers=1/alloc=go/crc=off/ckpt=1s",
		"path=fast/format=raw/batch=4096/brokers=1/alloc=go/crc=off",
		"path=fast/format=raw/batch=4096/brokers=1/alloc=go/crc=off/ckpt=1s",
	}
	if strings.Join(names, "\n") != strings.Join(want, "\n") {
		t.Errorf("cells\n%s\nwant\n%s", strings.Join(names, "\n"), strings.Join(want, "\n"))
	}
	// failures go only to the checkpointing cells
	for _, c := range cells {
		args := strings.Join(rungArgs(s, Entry{Cell: c}, []string{"h:1"}, "t", ""), " ")
		if got := strings.Contains(args, "--failures 1"); got != (c.Ckpt > 0) {
			t.Errorf("%s: args %s", c.Name(), args)
		}
	}
}

// TestCompressionIsAnAxis: compression expands like any axis, names only
// its non-default values, defaults to none when absent (older specs and
// stored manifests), and gives each codec its own corpus topic.
func TestCompressionIsAnAxis(t *testing.T) {
	base := "path: [fast]\nformat: [raw]\nbatch: [256]\nbrokers: [1]\nalloc: [go]\ncrc: [off]\nrecords: 1000\nrepetitions: 1\nwarmup: 0\nseed: 1\ntimeout: 10s\n"
	s, err := ParseSpec("x.yaml", []byte(base+"compression: [none, lz4, zstd]\n"))
	if err != nil {
		t.Fatal(err)
	}
	cells, err := Expand(s)
	if err != nil {
		t.Fatal(err)
	}
	var names, topics []string
	for _, c := range cells {
		names = append(names, c.Name())
		topics = append(topics, corpusTopic("bid-raw-s1-n1000", groupOf(c).topic))
	}
	want := []string{
		"path=fast/format=raw/batch=256/brokers=1/alloc=go/crc=off",
		"path=fast/format=raw/batch=256/brokers=1/alloc=go/crc=off/compression=lz4",
		"path=fast/format=raw/batch=256/brokers=1/alloc=go/crc=off/compression=zstd",
	}
	if strings.Join(names, "\n") != strings.Join(want, "\n") {
		t.Errorf("cells\n%s\nwant\n%s", strings.Join(names, "\n"), strings.Join(want, "\n"))
	}
	if got := strings.Join(topics, " "); got != "bid-raw-s1-n1000 bid-raw-s1-n1000-lz4 bid-raw-s1-n1000-zstd" {
		t.Errorf("topics %s", got)
	}
	s, err = ParseSpec("x.yaml", []byte(base))
	if err != nil {
		t.Fatal(err)
	}
	if cells, err := Expand(s); err != nil || len(cells) != 1 || cells[0].Value(cell.Compression) != cell.CompressionNone {
		t.Errorf("without the axis: %v, %v", cells, err)
	}
	if _, err := ParseSpec("x.yaml", []byte(base+"compression: [brotli]\n")); err == nil ||
		err.Error() != `x.yaml:12: compression: unknown value "brotli" (want none, gzip, snappy, lz4, zstd)` {
		t.Errorf("brotli: %v", err)
	}
}
