package clusters_test

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/fastpathlab/fplab/clusters"
	"github.com/fastpathlab/fplab/clusters/clusterstest"
	"github.com/fastpathlab/fplab/workloads"
)

// mustLayout is workloads.NewLayout that fails the test on error.
func mustLayout(t *testing.T, seed uint64, n, partitions int, shape workloads.Shape) *workloads.Layout {
	t.Helper()
	l, err := workloads.NewLayout(seed, n, partitions, shape)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// midAbortSeed returns the first seed from 1 whose layout aborts a
// transaction other than the last, so a test sees aborted records between
// committed ones, not only at the tail; 1 when there are fewer than three
// transactions (the first is never aborted, the last always).
func midAbortSeed(t *testing.T, n, partitions int, shape workloads.Shape) uint64 {
	t.Helper()
	if mustLayout(t, 1, n, partitions, shape).Txns() < 3 {
		return 1
	}
	for seed := uint64(1); seed < 1000; seed++ {
		l := mustLayout(t, seed, n, partitions, shape)
		for k := 1; k < l.Txns()-1; k++ {
			if l.Aborted(k) {
				return seed
			}
		}
	}
	t.Fatalf("no seed below 1000 aborts a transaction before the last of %d records over %d partitions", n, partitions)
	return 0
}

// wantRecords is the indices of the records a consumer of partition p
// gets, in order: every record, or the committed ones.
func wantRecords(l *workloads.Layout, p int, committed bool) []int {
	var out []int
	for seq := range l.Records(p) {
		i, _ := l.Index(int32(p), seq)
		if !committed || l.Committed(i) {
			out = append(out, i)
		}
	}
	return out
}

// endOffsets lists topic's high watermarks (or last stable offsets).
func endOffsets(t *testing.T, ctx context.Context, bootstrap []string, topic string, stable bool) map[int32]int64 {
	t.Helper()
	cl, err := kgo.NewClient(kgo.SeedBrokers(bootstrap...))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	adm := kadm.NewClient(cl)
	list := adm.ListEndOffsets
	if stable {
		list = adm.ListCommittedOffsets
	}
	listed, err := list(ctx, topic)
	if err == nil {
		err = listed.Error()
	}
	if err != nil {
		t.Fatal(err)
	}
	out := map[int32]int64{}
	for p, o := range listed[topic] {
		out[p] = o.Offset
	}
	return out
}

// readLayout consumes topic from its start, read_committed or not, and
// checks that every partition holds, in order and at the layout's offsets,
// exactly the records the layout says such a consumer gets: testMessage(i)
// for record i, a nil value for a tombstone.
func readLayout(t *testing.T, ctx context.Context, bootstrap []string, topic string, l *workloads.Layout, committed bool) {
	t.Helper()
	want := make([][]int, l.Partitions())
	total := 0
	for p := range l.Partitions() {
		want[p] = wantRecords(l, p, committed)
		total += len(want[p])
	}
	got := make([]int, l.Partitions())
	var msg []byte
	poll(t, ctx, bootstrap, topic, fromStart(l.Partitions()), committed, total, func(r *kgo.Record) {
		p, k := r.Partition, got[r.Partition]
		got[p]++
		if k >= len(want[p]) {
			t.Fatalf("partition %d: record #%d at offset %d, want only %d records", p, k, r.Offset, len(want[p]))
		}
		i := want[p][k]
		if at, ok := l.At(p, r.Offset); !ok || at != i {
			t.Fatalf("partition %d: record #%d at offset %d is record (%d, %v) there, want record %d", p, k, r.Offset, at, ok, i)
		}
		if l.Null(i) {
			if r.Value != nil {
				t.Fatalf("partition %d offset %d: tombstone %d has value %q, want nil", p, r.Offset, i, r.Value)
			}
			return
		}
		if msg = testMessage(msg[:0], i); !bytes.Equal(r.Value, msg) {
			t.Fatalf("partition %d offset %d = %q, want record %d %q", p, r.Offset, r.Value, i, msg)
		}
	})
	for p := range got {
		if got[p] != len(want[p]) {
			t.Errorf("partition %d: read %d records, want %d", p, got[p], len(want[p]))
		}
	}
}

// checkLoaded checks Load's stats and the topic's offsets for layout l.
func checkLoaded(t *testing.T, ctx context.Context, c clusters.Cluster, topic string, l *workloads.Layout, stats clusters.LoadStats) {
	t.Helper()
	nulls := 0
	for i := range l.Count() {
		if l.Null(i) {
			nulls++
		}
	}
	if wantBytes := int64(l.Count()-nulls) * 100; stats.Records != int64(l.Count()) || stats.Bytes != wantBytes {
		t.Errorf("LoadStats = %+v, want %d records, %d bytes", stats, l.Count(), wantBytes)
	}
	ends := endOffsets(t, ctx, c.Bootstrap, topic, false)
	stable := endOffsets(t, ctx, c.Bootstrap, topic, true)
	for p := range l.Partitions() {
		if ends[int32(p)] != l.End(p) || stable[int32(p)] != l.End(p) {
			t.Errorf("partition %d: high watermark %d, last stable offset %d, want both %d", p, ends[int32(p)], stable[int32(p)], l.End(p))
		}
	}
	if ok, err := clusters.TopicHolds(ctx, c, topic, l); err != nil || !ok {
		t.Errorf("TopicHolds after Load = %v, %v; want true", ok, err)
	}
}

// TestLoadTxnLayout: a transactional layout loads with every partition
// ending at the layout's end (one control record per transaction and
// partition), a read_committed consumer gets exactly the committed records
// in order, tombstones as nulls, and a read_uncommitted one every record;
// the codec still applies.
func TestLoadTxnLayout(t *testing.T) {
	e := clusterstest.StartSelfT(t, 3, 3)
	c := clusters.Cluster{Bootstrap: e.Bootstrap()}
	ctx, cancel := context.WithTimeout(t.Context(), 2*failSafe)
	defer cancel()
	for _, k := range []struct {
		name  string
		shape workloads.Shape
		codec string
	}{
		// 767, 767 and 766 records: two transactions, the second partial.
		{"even", workloads.Shape{Txn: true, Nulls: 0.1}, "zstd"},
		// 767 and 1533 records and an empty partition: partition 0 is in
		// two of the four transactions, partition 2 in none.
		{"uneven-empty", workloads.Shape{Txn: true, Nulls: 0.05, Uneven: true, Empty: 1}, ""},
	} {
		t.Run(k.name, func(t *testing.T) {
			const n, partitions = 2300, 3
			l := mustLayout(t, midAbortSeed(t, n, partitions, k.shape), n, partitions, k.shape)
			topic := "txn-" + k.name
			if ok, err := clusters.TopicHolds(ctx, c, topic, l); err != nil || ok {
				t.Fatalf("TopicHolds before Load = %v, %v; want false, nil", ok, err)
			}
			stats, err := clusters.Load(ctx, c, topic, partitions, n, testMessage,
				clusters.WithLayout(l), clusters.WithCompression(k.codec))
			if err != nil {
				t.Fatal(err)
			}
			checkLoaded(t, ctx, c, topic, l, stats)
			if l.Tally().Aborted == 0 || l.Tally().Nulls == 0 {
				t.Fatalf("layout tally %+v: want aborted records and tombstones", l.Tally())
			}
			readLayout(t, ctx, c.Bootstrap, topic, l, true)
			readLayout(t, ctx, c.Bootstrap, topic, l, false)
			if k.codec != "" {
				if got, err := clusters.StoredCompression(ctx, c, topic, partitions); err != nil || got != k.codec {
					t.Errorf("StoredCompression = %q, %v; want %q", got, err, k.codec)
				}
			}
		})
	}
}

// TestLoadLayoutUnevenEmpty: without transactions a layout's records land
// at the partitions and offsets it places them at, and an empty partition
// stays empty; TopicReady's round-robin check does not take it for its
// corpus.
func TestLoadLayoutUnevenEmpty(t *testing.T) {
	const n, partitions = 1000, 4
	c := clusters.Cluster{Bootstrap: clusterstest.StartSelfT(t, 1, partitions).Bootstrap()}
	ctx, cancel := context.WithTimeout(t.Context(), failSafe)
	defer cancel()
	l := mustLayout(t, 7, n, partitions, workloads.Shape{Uneven: true, Empty: 1, Nulls: 0.2})
	stats, err := clusters.Load(ctx, c, "uneven", partitions, n, testMessage, clusters.WithLayout(l), clusters.WithGenerators(2))
	if err != nil {
		t.Fatal(err)
	}
	checkLoaded(t, ctx, c, "uneven", l, stats)
	if r := []int{l.Records(0), l.Records(1), l.Records(2), l.Records(3)}; r[3] != 0 || r[0] >= r[1] || r[1] >= r[2] {
		t.Fatalf("layout records %v, want about 1:2:3:0", r)
	}
	readLayout(t, ctx, c.Bootstrap, "uneven", l, false)
	if ok, err := clusters.TopicReady(ctx, c, "uneven", partitions, n); err != nil || ok {
		t.Errorf("TopicReady of an uneven topic = %v, %v; want false", ok, err)
	}

	// The zero Shape's layout is Load's own round robin.
	zero := mustLayout(t, 1, n, partitions, workloads.Shape{})
	if _, err := clusters.Load(ctx, c, "zero", partitions, n, testMessage, clusters.WithLayout(zero)); err != nil {
		t.Fatal(err)
	}
	consumeAll(t, ctx, c.Bootstrap, "zero", partitions, n)
	if ok, err := clusters.TopicReady(ctx, c, "zero", partitions, n); err != nil || !ok {
		t.Errorf("TopicReady of the zero layout = %v, %v; want true", ok, err)
	}
}

// TestTopicHoldsOnlyTheWholeLayout: a half-loaded topic, one of another
// shape or partition count, one with records appended and one with records
// deleted do not hold the layout.
func TestTopicHoldsOnlyTheWholeLayout(t *testing.T) {
	const n, partitions = 1200, 3
	c := clusters.Cluster{Bootstrap: clusterstest.StartSelfT(t, 1, partitions).Bootstrap()}
	ctx, cancel := context.WithTimeout(t.Context(), failSafe)
	defer cancel()
	shape := workloads.Shape{Txn: true}
	l := mustLayout(t, 3, n, partitions, shape)
	if _, err := clusters.Load(ctx, c, "half", partitions, n/2, testMessage, clusters.WithLayout(mustLayout(t, 3, n/2, partitions, shape))); err != nil {
		t.Fatal(err)
	}
	if ok, err := clusters.TopicHolds(ctx, c, "half", l); err != nil || ok {
		t.Errorf("TopicHolds of a half-loaded topic = %v, %v; want false", ok, err)
	}
	if _, err := clusters.Load(ctx, c, "whole", partitions, n, testMessage, clusters.WithLayout(l)); err != nil {
		t.Fatal(err)
	}
	for _, other := range []struct {
		name string
		l    *workloads.Layout
	}{
		{"no transactions", mustLayout(t, 3, n, partitions, workloads.Shape{})},
		{"uneven", mustLayout(t, 3, n, partitions, workloads.Shape{Txn: true, Uneven: true})},
		{"one partition empty", mustLayout(t, 3, n, partitions, workloads.Shape{Txn: true, Empty: 1})},
		{"more partitions", mustLayout(t, 3, n, partitions+1, shape)},
		{"fewer partitions", mustLayout(t, 3, n, partitions-1, shape)},
		{"more records", mustLayout(t, 3, n+1, partitions, shape)},
	} {
		if ok, err := clusters.TopicHolds(ctx, c, "whole", other.l); err != nil || ok {
			t.Errorf("TopicHolds(%s) = %v, %v; want false", other.name, ok, err)
		}
	}
	if ok, err := clusters.TopicHolds(ctx, c, "whole", l); err != nil || !ok {
		t.Fatalf("TopicHolds = %v, %v; want true", ok, err)
	}
	if err := clusters.Append(ctx, c, "whole", map[int32][][]byte{1: {[]byte("x")}}); err != nil {
		t.Fatal(err)
	}
	if ok, err := clusters.TopicHolds(ctx, c, "whole", l); err != nil || ok {
		t.Errorf("TopicHolds after Append = %v, %v; want false", ok, err)
	}
	if err := clusters.DeleteRecords(ctx, c, "half", []int64{1, 0, 0}); err != nil {
		t.Fatal(err)
	}
	if ok, err := clusters.TopicHolds(ctx, c, "half", mustLayout(t, 3, n/2, partitions, shape)); err != nil || ok {
		t.Errorf("TopicHolds after DeleteRecords = %v, %v; want false", ok, err)
	}
	// Emptied by DeleteRecords, "half" has no record but its offsets do not
	// start at 0: Load accepts it as empty, and then finds the ends wrong.
	half := mustLayout(t, 3, n/2, partitions, shape)
	all := make([]int64, partitions)
	for p := range all {
		all[p] = half.End(p)
	}
	if err := clusters.DeleteRecords(ctx, c, "half", all); err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("partition 0 has high watermark %d, want %d (200 records, 1 control records)", 2*half.End(0), half.End(0))
	if _, err := clusters.Load(ctx, c, "half", partitions, n/2, testMessage, clusters.WithLayout(half)); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("Load into an emptied topic: %v, want %q", err, want)
	}
	if _, err := clusters.TopicHolds(ctx, c, "whole", nil); err == nil {
		t.Error("TopicHolds of a nil layout: no error")
	}
}

// TestDeleteRecordsAndAppend: DeleteRecords moves the log start of the
// partitions asked and no other, refuses offsets past the end, and Append
// adds records, nulls included, after the end.
func TestDeleteRecordsAndAppend(t *testing.T) {
	const n, partitions, topic = 300, 3, "del"
	c := clusters.Cluster{Bootstrap: clusterstest.StartSelfT(t, 1, partitions).Bootstrap()}
	ctx, cancel := context.WithTimeout(t.Context(), failSafe)
	defer cancel()
	if _, err := clusters.Load(ctx, c, topic, partitions, n, testMessage); err != nil {
		t.Fatal(err)
	}
	starts := func() []int64 {
		t.Helper()
		s, err := clusters.LogStart(ctx, c, topic, partitions)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	if got := starts(); !slices.Equal(got, []int64{0, 0, 0}) {
		t.Fatalf("LogStart after Load = %v, want 0s", got)
	}
	if err := clusters.DeleteRecords(ctx, c, topic, []int64{10, 0, -1}); err != nil {
		t.Fatal(err)
	}
	if got := starts(); !slices.Equal(got, []int64{10, 0, 0}) {
		t.Errorf("LogStart after deleting below 10 of partition 0 = %v", got)
	}
	// Below the log start already: nothing to do, on Kafka as on kfake.
	if err := clusters.DeleteRecords(ctx, c, topic, []int64{5, 100, 0}); err != nil {
		t.Fatal(err)
	}
	if got := starts(); !slices.Equal(got, []int64{10, 100, 0}) {
		t.Errorf("LogStart after the second delete = %v", got)
	}
	for _, bad := range []struct {
		before []int64
		want   string
	}{
		{[]int64{0, 0, 101}, "offset 101 is past its high watermark 100"},
		{[]int64{0, 0}, "has 3 partitions, want 2"},
		{[]int64{0, -2, 0}, "offset must be >= -1, got -2"},
	} {
		if err := clusters.DeleteRecords(ctx, c, topic, bad.before); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("DeleteRecords(%v) = %v, want %q", bad.before, err, bad.want)
		}
	}
	if err := clusters.DeleteRecords(ctx, c, "no-such-topic", []int64{1}); err == nil || !strings.Contains(err.Error(), "does not exist") {
		t.Errorf("DeleteRecords of a missing topic: %v", err)
	}
	if _, err := clusters.LogStart(ctx, c, topic, 2); err == nil {
		t.Error("LogStart with the wrong partition count: no error")
	}

	// Partition 0 starts at offset 10, which holds record 10*3+0.
	readFrom(t, ctx, c.Bootstrap, topic, 0, 0, 1, func(r *kgo.Record) {
		if want := testMessage(nil, 30); r.Offset != 10 || !bytes.Equal(r.Value, want) {
			t.Errorf("first record of partition 0 after the delete: offset %d %q, want 10 %q", r.Offset, r.Value, want)
		}
	})

	appended := map[int32][][]byte{0: {[]byte("a0"), nil, []byte("a2")}, 2: {[]byte{}}}
	if err := clusters.Append(ctx, c, topic, appended); err != nil {
		t.Fatal(err)
	}
	ends := endOffsets(t, ctx, c.Bootstrap, topic, false)
	if ends[0] != 103 || ends[1] != 100 || ends[2] != 101 {
		t.Errorf("high watermarks after Append = %v, want 103 100 101", ends)
	}
	for p, vs := range appended {
		var got [][]byte
		readFrom(t, ctx, c.Bootstrap, topic, p, 100, len(vs), func(r *kgo.Record) { got = append(got, r.Value) })
		for j := range vs {
			if (vs[j] == nil) != (got[j] == nil) || !bytes.Equal(vs[j], got[j]) {
				t.Errorf("partition %d offset %d = %q (nil %v), want %q (nil %v)", p, 100+j, got[j], got[j] == nil, vs[j], vs[j] == nil)
			}
		}
	}
	if err := clusters.Append(ctx, c, topic, map[int32][][]byte{3: {[]byte("x")}}); err == nil || !strings.Contains(err.Error(), "no partition 3") {
		t.Errorf("Append to a missing partition: %v", err)
	}
	if err := clusters.Append(ctx, c, "no-such-topic", map[int32][][]byte{0: {[]byte("x")}}); err == nil || !strings.Contains(err.Error(), "does not exist") {
		t.Errorf("Append to a missing topic: %v", err)
	}
}

// readFrom reads count records of partition p from offset at and hands
// them to fn in order.
func readFrom(t *testing.T, ctx context.Context, bootstrap []string, topic string, p int32, at int64, count int, fn func(*kgo.Record)) {
	t.Helper()
	seen := 0
	poll(t, ctx, bootstrap, topic, map[int32]kgo.Offset{p: kgo.NewOffset().At(at)}, false, count, func(r *kgo.Record) {
		if seen++; seen <= count {
			fn(r)
		}
	})
}

// TestLoadLayoutRejects: a layout that does not match Load's partitions
// and record count is refused before anything is produced.
func TestLoadLayoutRejects(t *testing.T) {
	c := clusters.Cluster{Bootstrap: []string{"127.0.0.1:1"}}
	l := mustLayout(t, 1, 2300, 3, workloads.Shape{Txn: true})
	for _, k := range []struct{ partitions, n int }{{3, 2299}, {4, 2300}} {
		_, err := clusters.Load(context.Background(), c, "t", k.partitions, k.n, testMessage, clusters.WithLayout(l))
		want := fmt.Sprintf("load %d records into %d partitions with a layout of 2300 records over 3 partitions; they must match", k.n, k.partitions)
		if err == nil || err.Error() != want {
			t.Errorf("Load(%d, %d) = %v, want %q", k.partitions, k.n, err, want)
		}
	}
}
