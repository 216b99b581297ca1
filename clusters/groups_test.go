package clusters_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/fastpathlab/fplab/clusters"
	"github.com/fastpathlab/fplab/clusters/clusterstest"
)

// TestGroupsAndTimestamps: offsets committed for a group without members
// are what the broker then holds for it (an out-of-range one included, a
// negative one left out), the groups listed are those committed for, and
// OffsetsAfter answers the first offset at or after a timestamp, the end
// where no record is that late.
func TestGroupsAndTimestamps(t *testing.T) {
	c := clusterstest.InProcess(t, kfake.SeedTopics(2, "t"))
	cl := clusters.Cluster{Bootstrap: c.ListenAddrs()}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()

	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	values := map[int32][][]byte{0: make([][]byte, 10), 1: make([][]byte, 10)}
	for p := range values {
		for i := range values[p] {
			values[p][i] = []byte("v")
		}
	}
	stamp := clusters.WithRecordMeta(func(i int, r *kgo.Record) { r.Timestamp = base.Add(time.Duration(i) * time.Second) })
	if err := clusters.Append(ctx, cl, "t", values, stamp); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		at   time.Time
		want []int64
	}{
		{base, []int64{0, 0}},
		{base.Add(4500 * time.Millisecond), []int64{5, 5}},
		{base.Add(time.Hour), []int64{10, 10}},
	} {
		got, err := clusters.OffsetsAfter(ctx, cl, "t", 2, tc.at.UnixMilli())
		if err != nil || !slices.Equal(got, tc.want) {
			t.Errorf("OffsetsAfter(%v) = %v, %v; want %v", tc.at, got, err, tc.want)
		}
	}

	if ms, err := clusters.TimestampAt(ctx, cl, "t", 1, 7); err != nil || ms != base.Add(7*time.Second).UnixMilli() {
		t.Errorf("TimestampAt(t/1@7) = %d, %v; want %d", ms, err, base.Add(7*time.Second).UnixMilli())
	}
	if err := clusters.CommitOffsets(ctx, cl, "g", "t", []int64{3, -1}); err != nil {
		t.Fatal(err)
	}
	if err := clusters.CommitOffsets(ctx, cl, "above", "t", []int64{50, 50}); err != nil {
		t.Fatal(err)
	}
	raw, err := kgo.NewClient(kgo.SeedBrokers(c.ListenAddrs()...))
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	adm := kadm.NewClient(raw)
	for group, want := range map[string]map[int32]int64{"g": {0: 3}, "above": {0: 50, 1: 50}} {
		got, err := adm.FetchOffsets(ctx, group)
		if err != nil {
			t.Fatal(err)
		}
		have := map[int32]int64{}
		got.Each(func(o kadm.OffsetResponse) { have[o.Partition] = o.At })
		if len(have) != len(want) {
			t.Errorf("group %s holds %v, want %v", group, have, want)
		}
		for p, o := range want {
			if have[p] != o {
				t.Errorf("group %s partition %d at %d, want %d", group, p, have[p], o)
			}
		}
	}
	if groups, err := clusters.Groups(ctx, cl); err != nil || !slices.Equal(groups, []string{"above", "g"}) {
		t.Errorf("Groups = %v, %v; want [above g] (nobody else committed or joined)", groups, err)
	}
	if err := clusters.CommitOffsets(ctx, cl, "", "t", []int64{1, 1}); err == nil {
		t.Error("a commit without a group was accepted")
	}
	for group, want := range map[string][]int64{"g": {3, -1}, "above": {50, 50}, "nobody": {-1, -1}} {
		if got, err := clusters.CommittedOffsets(ctx, cl, group, "t", 2); err != nil || !slices.Equal(got, want) {
			t.Errorf("CommittedOffsets(%s) = %v, %v; want %v", group, got, err, want)
		}
	}
	for _, group := range []string{"g", "nobody"} {
		if err := clusters.DeleteGroup(ctx, cl, group); err != nil {
			t.Errorf("DeleteGroup(%s): %v", group, err)
		}
	}
	if got, err := clusters.CommittedOffsets(ctx, cl, "g", "t", 2); err != nil || !slices.Equal(got, []int64{-1, -1}) {
		t.Errorf("after DeleteGroup(g): %v, %v; want no offsets", got, err)
	}
}
