package ladder

import (
	"strings"
	"testing"

	"github.com/fastpathlab/fplab/cell"
)

// TestMicroRunsDecode: micro decode runs every (format, lib) pair of the
// spec's formats that have stock routes, the lab first, with the spec's
// schema and seed, and names each row as the child prints it.
func TestMicroRunsDecode(t *testing.T) {
	s := &Spec{Format: []string{"json", "raw", "csv"}, Micro: []string{cell.MicroDecode}, Schema: "bid-wide", Seed: 9}
	var got []string
	for _, m := range microRuns(s) {
		if m.alloc != "go" {
			t.Errorf("%s runs in alloc=%s, want go", m.name, m.alloc)
		}
		got = append(got, m.name+" | "+strings.Join(m.args, " "))
	}
	want := []string{
		"micro=decode/format=json/lib=lab | micro --bench decode --format json --lib lab --schema bid-wide --seed 9 --value-size 100",
		"micro=decode/format=json/lib=encoding-json | micro --bench decode --format json --lib encoding-json --schema bid-wide --seed 9 --value-size 100",
		"micro=decode/format=json/lib=goccy | micro --bench decode --format json --lib goccy --schema bid-wide --seed 9 --value-size 100",
		"micro=decode/format=json/lib=sonic | micro --bench decode --format json --lib sonic --schema bid-wide --seed 9 --value-size 100",
		"micro=decode/format=json/lib=arrow-unmarshal | micro --bench decode --format json --lib arrow-unmarshal --schema bid-wide --seed 9 --value-size 100",
		"micro=decode/format=json/lib=arrow-json | micro --bench decode --format json --lib arrow-json --schema bid-wide --seed 9 --value-size 100",
		"micro=decode/format=csv/lib=lab | micro --bench decode --format csv --lib lab --schema bid-wide --seed 9 --value-size 100",
		"micro=decode/format=csv/lib=arrow-csv | micro --bench decode --format csv --lib arrow-csv --schema bid-wide --seed 9 --value-size 100",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("micro runs:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestMicroRunsDecodeSizes: a spec's size axis runs the decode
// micro-benchmark at each size, the natural one without a size part.
func TestMicroRunsDecodeSizes(t *testing.T) {
	s := &Spec{Format: []string{"csv"}, Size: []string{"100", "1024"}, Micro: []string{cell.MicroDecode}, Schema: "bid", Seed: 1}
	var got []string
	for _, m := range microRuns(s) {
		got = append(got, m.name+" | "+m.args[len(m.args)-1])
	}
	want := "micro=decode/format=csv/lib=lab | 100\n" +
		"micro=decode/format=csv/lib=arrow-csv | 100\n" +
		"micro=decode/format=csv/lib=lab/size=1024 | 1024\n" +
		"micro=decode/format=csv/lib=arrow-csv/size=1024 | 1024"
	if g := strings.Join(got, "\n"); g != want {
		t.Errorf("micro runs:\n%s\nwant:\n%s", g, want)
	}
}

// TestMicroRunsDecodeMem: decode_mem runs every route on each allocator,
// the pool's rows named mem=pool and passed --mem pool; Go's rows keep the
// names they had before the pool.
func TestMicroRunsDecodeMem(t *testing.T) {
	s := &Spec{Format: []string{"csv"}, Micro: []string{cell.MicroDecode}, DecodeMem: []string{"go", "pool"}, Schema: "bid", Seed: 1}
	var got []string
	for _, m := range microRuns(s) {
		got = append(got, m.name+" | "+strings.Join(m.args[len(m.args)-2:], " "))
	}
	want := "micro=decode/format=csv/lib=lab | --value-size 100\n" +
		"micro=decode/format=csv/lib=arrow-csv | --value-size 100\n" +
		"micro=decode/format=csv/lib=lab/mem=pool | --mem pool\n" +
		"micro=decode/format=csv/lib=arrow-csv/mem=pool | --mem pool"
	if g := strings.Join(got, "\n"); g != want {
		t.Errorf("micro runs:\n%s\nwant:\n%s", g, want)
	}
}

// TestMicroSpecDecode: a spec may ask for micro: [decode], and the shipped
// decoders spec does, for every format with stock routes.
func TestMicroSpecDecode(t *testing.T) {
	s, err := LoadSpec("specs/decoders.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Micro) != 1 || s.Micro[0] != cell.MicroDecode {
		t.Fatalf("decoders.yaml micro %v, want [decode]", s.Micro)
	}
	formats := map[string]bool{}
	for _, m := range microRuns(s) {
		formats[strings.SplitN(strings.TrimPrefix(m.name, "micro=decode/format="), "/", 2)[0]] = true
	}
	for _, f := range []string{"json", "avro", "protobuf", "csv"} {
		if !formats[f] {
			t.Errorf("decoders.yaml runs no decode micro-benchmark of format %s", f)
		}
	}
}

// TestSpeedSpec: the speed guard runs the fast path and its twin on raw and
// json at the natural size, and the decode micro-benchmark of every route
// of json, avro, protobuf and csv at ~100 B and ~1 KiB.
func TestSpeedSpec(t *testing.T) {
	s, err := LoadSpec("specs/speed.yaml")
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
	want := "path=fast/format=raw/batch=8192/brokers=1/alloc=go/crc=off path=fast/format=raw/batch=8192/brokers=1/alloc=go/crc=off/decoder=none " +
		"path=fast/format=json/batch=8192/brokers=1/alloc=go/crc=off path=fast/format=json/batch=8192/brokers=1/alloc=go/crc=off/decoder=none"
	if got := strings.Join(names, " "); got != want {
		t.Errorf("speed.yaml cells:\n%s\nwant\n%s", got, want)
	}
	runs := map[string]bool{}
	for _, m := range microRuns(s) {
		runs[m.name] = true
	}
	for _, f := range []string{"json", "avro", "protobuf", "csv"} {
		for _, size := range []int{100, 1024} {
			for _, lib := range []string{"lab", map[string]string{"json": "sonic", "avro": "hamba", "protobuf": "vtprotobuf", "csv": "arrow-csv"}[f]} {
				if n := cell.DecodeName(f, lib, size, ""); !runs[n] {
					t.Errorf("speed.yaml does not run %s", n)
				}
			}
		}
	}
}
