package rung

import (
	"hash/crc32"
	"strings"
	"testing"
	"time"

	"github.com/fastpathlab/fplab/cell"
	"github.com/fastpathlab/fplab/ladder/rungargs"
	"github.com/fastpathlab/fplab/results"
)

// An outside reader's ranges are measured as a Go path's batches holding
// the same rows: the same latencies, lag series, counts and hand-overs.
func TestLiveRangesMeasureAsBatches(t *testing.T) {
	t0 := time.Unix(1_700_000_000, 0)
	b := newLiveRecorder(t0, 1000, 10, 4, 2, 4*time.Millisecond)
	r := newLiveRecorder(t0, 1000, 10, 4, 2, 4*time.Millisecond)
	at1, at2 := t0.Add(20*time.Millisecond), t0.Add(130*time.Millisecond)
	b.batch(at1, []int32{0, 0, 0, 1, 1, 1}, []int64{0, 1, 2, 0, 1, 2})
	r.ranges(at1, []LiveRange{{0, 0, 2}, {1, 0, 2}})
	b.batch(at2, []int32{0, 0, 1, 1}, []int64{3, 4, 3, 4})
	r.ranges(at2, []LiveRange{{0, 3, 4}, {1, 3, 4}})
	for _, l := range []*liveRecorder{b, r} {
		if err := l.complete(); err != nil {
			t.Fatal(err)
		}
	}
	if r.handed != b.handed || r.batches != b.batches || r.measured != b.measured || r.lagMax != b.lagMax || !r.last.Equal(b.last) {
		t.Errorf("ranges: handed %d batches %d measured %d lag %d last %v; batches: %d %d %d %d %v",
			r.handed, r.batches, r.measured, r.lagMax, r.last, b.handed, b.batches, b.measured, b.lagMax, b.last)
	}
	if len(r.lag) != len(b.lag) || r.lag[0] != b.lag[0] || r.lag[1] != b.lag[1] {
		t.Errorf("lag series %v, batches' %v", r.lag, b.lag)
	}
	for _, q := range []float64{50, 99, 100} {
		if x, y := results.LatencyMs(r.hist, q), results.LatencyMs(b.hist, q); x != y {
			t.Errorf("p%v: %v ms from ranges, %v ms from batches", q, x, y)
		}
	}
}

// An outside reader's ranges must follow each other per partition from
// offset 0: a gap names the first missing offset, a repeat the repeated
// one, and the end names the first offset never handed over.
func TestLiveCheckGapsAndRepeats(t *testing.T) {
	k := newLiveCheck(3, 10) // partitions hold 4, 3, 3 records
	if k.count[0] != 4 || k.count[1] != 3 || k.count[2] != 3 {
		t.Fatalf("counts %v", k.count)
	}
	if err := k.ranges([]LiveRange{{0, 0, 1}, {1, 0, 0}, {2, 0, 2}}); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		r    LiveRange
		want string
	}{
		{LiveRange{0, 3, 3}, "partition 0: offset 2 missing"},
		{LiveRange{1, 0, 1}, "partition 1: offset 0 handed over twice"},
		{LiveRange{2, 3, 3}, "partition 2: offset 3 handed over, past the 3 records"},
		{LiveRange{3, 0, 0}, "a range of partition 3, the topic has 3"},
		{LiveRange{0, 2, 1}, "range 2..1 ends before it starts"},
	} {
		if err := k.ranges([]LiveRange{c.r}); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("range %v: %v, want %q", c.r, err, c.want)
		}
	}
	if err := k.ranges([]LiveRange{{0, 2, 3}}); err != nil {
		t.Fatal(err)
	}
	if err := k.end(); err == nil || !strings.Contains(err.Error(), "partition 1: offset 1 missing (the reader ended there") {
		t.Errorf("end with partition 1 short: %v", err)
	}
	if err := k.ranges([]LiveRange{{1, 1, 2}}); err != nil {
		t.Fatal(err)
	}
	if err := k.end(); err != nil {
		t.Errorf("end of a whole read: %v", err)
	}
}

// The expected sums are the corpus's values chained per partition in
// offset order; a reader's count or checksum off them fails the read.
func TestLiveCheckSums(t *testing.T) {
	c := rungargs.Cell{Cell: cell.Cell{Path: cell.PathJava, Format: cell.FormatJSON}, Schema: "bid", Seed: 1,
		Records: 50, Partitions: 3}
	k := newLiveCheck(c.Partitions, c.Records)
	if err := k.sums(nil); err == nil || !strings.Contains(err.Error(), "not computed") {
		t.Errorf("sums before expect: %v", err)
	}
	if err := k.expect(&c); err != nil {
		t.Fatal(err)
	}
	got := append([]PartitionSum(nil), k.want...)
	if err := k.sums(got); err != nil {
		t.Fatalf("the corpus's own sums: %v", err)
	}
	if got[0].Count != 17 || got[1].Count != 17 || got[2].Count != 16 {
		t.Errorf("counts %v", got)
	}
	bad := append([]PartitionSum(nil), got...)
	bad[1].CRC ^= 1
	if err := k.sums(bad); err == nil || !strings.Contains(err.Error(), "partition 1: the checksum of the 17 values read is") {
		t.Errorf("a changed value: %v", err)
	}
	bad = append([]PartitionSum(nil), got...)
	bad[2].Count--
	if err := k.sums(bad); err == nil || !strings.Contains(err.Error(), "partition 2: the reader counted 15 records, the producer wrote 16") {
		t.Errorf("a lost value: %v", err)
	}
	if err := k.sums(got[:2]); err == nil || !strings.Contains(err.Error(), "2 partitions' checksums, the topic has 3") {
		t.Errorf("a partition short: %v", err)
	}
}

// SumValue is CRC-32C over a 4-byte big-endian length and the bytes; a
// null value's length is 0xFFFFFFFF, so it differs from an empty one.
func TestSumValue(t *testing.T) {
	tab := crc32.MakeTable(crc32.Castagnoli)
	if got, want := SumValue(0, []byte("ab")), crc32.Checksum([]byte{0, 0, 0, 2, 'a', 'b'}, tab); got != want {
		t.Errorf("SumValue(ab) = %08x, want %08x", got, want)
	}
	if SumValue(0, nil) == SumValue(0, []byte{}) {
		t.Error("a null value sums as an empty one")
	}
	if SumValue(SumValue(0, []byte("a")), []byte("b")) == SumValue(SumValue(0, []byte("b")), []byte("a")) {
		t.Error("the order of values does not matter")
	}
}
