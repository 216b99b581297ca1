package ladder

import (
	"slices"
	"testing"
)

// TestRdkTuningExpands holds the librdkafka tuning to the librdkafka
// paths: fast takes every drain x partfetch x queuemin x rdkstats (the
// lab's own queuemin and drain as no part) the exclusions leave, franz
// runs once with its own settings.
func TestRdkTuningExpands(t *testing.T) {
	s, names := expandNames(t, `path: [fast, franz]
format: [raw]
batch: [8192]
brokers: [3]
alloc: [go]
crc: [off]
records: 1000
repetitions: 1
timeout: 10s
seed: 7
partfetch: [262144, 4194304]
queuemin: [100000, 1000000]
rdkstats: [off, 100ms]
drain: [callback, batchqueue]
exclude:
  - {drain: batchqueue, partfetch: 4194304}
  - {drain: batchqueue, queuemin: 1000000}
  - {drain: batchqueue, rdkstats: "off"}
`)
	const base = "format=raw/batch=8192/brokers=3/alloc=go/crc=off"
	want := []string{}
	for _, pf := range []string{"262144", "4194304"} {
		for _, qm := range []string{"", "/queuemin=1000000"} {
			for _, st := range []string{"", "/rdkstats=100ms"} {
				want = append(want, "path=fast/"+base+"/drain=callback/partfetch="+pf+qm+st)
			}
		}
	}
	// drain outermost: the batch-queue cell the exclusions leave comes last
	want = append(want, "path=fast/"+base+"/drain=batchqueue/partfetch=262144/rdkstats=100ms")
	want = append(want, "path=franz/"+base)
	if !slices.Equal(names, want) {
		t.Errorf("cells:\n%v\nwant:\n%v", names, want)
	}
	if n := productSize(s); n < len(names) {
		t.Errorf("productSize %d under the %d cells expanded", n, len(names))
	}
}

// TestRdkExclusions: an exclusion may name the librdkafka settings, so a
// sweep keeps its statistics or its tunings to some cells; the lab's own
// setting and off match the cells without the part.
func TestRdkExclusions(t *testing.T) {
	_, names := expandNames(t, `path: [fast]
format: [raw]
batch: [8192]
brokers: [3]
alloc: [go]
crc: [off]
decoder: [lab, none]
records: 1000
repetitions: 1
timeout: 10s
seed: 7
queuemin: [10000, 100000]
rdkstats: [off, 100ms]
exclude:
  - {decoder: lab, queuemin: 10000}
  - {decoder: lab, rdkstats: 0.1s}
  - {decoder: none, queuemin: 100000, rdkstats: "off"}
`)
	const base = "path=fast/format=raw/batch=8192/brokers=3/alloc=go/crc=off"
	want := []string{
		base,
		base + "/decoder=none/queuemin=10000",
		base + "/decoder=none/queuemin=10000/rdkstats=100ms",
		base + "/decoder=none/rdkstats=100ms",
	}
	if !slices.Equal(names, want) {
		t.Errorf("cells:\n%v\nwant:\n%v", names, want)
	}
}

// expandNames parses a spec and expands it into its cells' names.
func expandNames(t *testing.T, src string) (*Spec, []string) {
	t.Helper()
	s, err := ParseSpec("x.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	cells, err := Expand(s)
	if err != nil {
		t.Fatal(err)
	}
	names := make([]string, len(cells))
	for i, c := range cells {
		names[i] = c.Name()
	}
	return s, names
}
