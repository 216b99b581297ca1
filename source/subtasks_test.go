package source_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fastpathlab/fplab/source"
	"github.com/fastpathlab/fplab/source/consume"
	"github.com/fastpathlab/fplab/workloads"
)

// TestSplitOwnerIsFlinks: the owners of partitions 0..7 with 1, 2, 3, 5
// and 7 subtasks, as Flink's enumerator computes them, printed by Java
// (jshell, ((topic.hashCode() * 31) & 0x7FFFFFFF) % n, then round robin).
func TestSplitOwnerIsFlinks(t *testing.T) {
	for topic, want := range map[string]string{
		"fplab-bid-json":  "00000000 01010101 12012012 40123401 60123456",
		"orders":          "00000000 10101010 01201201 40123401 34560123",
		"":                "00000000 01010101 01201201 01234012 01234560",
		"Ünïcode-topic-𝄞": "00000000 10101010 20120120 01234012 60123456",
		"a-rather-long-topic-name-with-many-characters-0123456789": "00000000 10101010 20120120 34012340 01234560",
	} {
		var b strings.Builder
		for _, n := range []int{1, 2, 3, 5, 7} {
			if b.Len() > 0 {
				b.WriteByte(' ')
			}
			for p := range 8 {
				fmt.Fprint(&b, source.SplitOwner(topic, p, n))
			}
		}
		if b.String() != want {
			t.Errorf("topic %q: owners %s, Flink %s", topic, b.String(), want)
		}
	}
}

// TestSubtasksReadEveryRecordOnce: n subtasks of every path read a
// transactional topic with tombstones and an empty partition, from its
// start and from a split in the middle (a restored checkpoint): together
// they deliver exactly the committed records of the range, each partition
// in offset order, with a split that never moves back; the subtasks'
// counters add up.
func TestSubtasksReadEveryRecordOnce(t *testing.T) {
	sh := loadShaped(t, "subtasks", workloads.FormatJSON, 2400, workloads.Shape{Txn: true, Uneven: true, Empty: 1, Nulls: 0.05})
	stop := sh.ends()
	mid := make([]int64, testParts)
	for p := range mid {
		mid[p] = stop[p] / 2
	}
	for _, p := range consume.Paths() {
		for _, n := range []int{2, 3} {
			for name, start := range map[string][]int64{"start": make([]int64, testParts), "mid": mid} {
				t.Run(fmt.Sprintf("path=%s/subtasks=%d/from=%s", p, n, name), func(t *testing.T) {
					ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
					defer cancel()
					mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
					defer mem.AssertSize(t, 0)
					cfg := sh.config(p, 97, mem)
					cfg.Start, cfg.Stop = start, stop
					r, err := source.OpenSubtasks(ctx, cfg, n)
					if err != nil {
						t.Fatal(err)
					}
					defer r.Close()
					if k := source.SubtasksOf(r); k != n {
						t.Fatalf("reads with %d subtasks, opened with %d", k, n)
					}
					got := drainShaped(ctx, t, sh, r, cfg.Batch, stop, n)
					want := sh.want(start, stop)
					if !equalOffsets(got.offsets, want) {
						t.Errorf("delivered other offsets than the committed records'")
					}
					var rows int64
					for _, o := range want {
						rows += int64(len(o))
					}
					if st := got.stats; st.Records != rows || st.Nulls != got.nulls {
						t.Errorf("stats count %d records, %d nulls; delivered %d rows, %d nulls", st.Records, st.Nulls, rows, got.nulls)
					}
				})
			}
		}
	}
}

// TestOpenSubtasksRefuses: what OpenSubtasks cannot split, in one line.
func TestOpenSubtasksRefuses(t *testing.T) {
	cfg := source.Config{
		Path: consume.PathFranz, Bootstrap: []string{"127.0.0.1:1"}, Topic: "t", Partitions: 3,
		Start: []int64{0, 0, 0}, Stop: []int64{1, 1, 1}, Batch: 8, Mem: memory.NewGoAllocator(), Timeout: time.Second,
	}
	for name, tc := range map[string]struct {
		mod  func(c *source.Config)
		n    int
		want string
	}{
		"none":     {func(*source.Config) {}, 0, "0 subtasks for 3 partitions"},
		"too many": {func(*source.Config) {}, 4, "4 subtasks for 3 partitions"},
		"no range": {func(c *source.Config) { c.Start = nil }, 2, "need start and stop offsets"},
		"live":     {func(c *source.Config) { c.Live = true }, 2, "bounded range"},
		"numbered": {func(c *source.Config) { c.Subtask = 1 }, 2, "numbers the subtasks itself"},
		"stats":    {func(c *source.Config) { c.Stats, c.OnStats = time.Second, func([]byte) {} }, 2, "no librdkafka statistics"},
	} {
		c := cfg
		tc.mod(&c)
		_, err := source.OpenSubtasks(context.Background(), c, tc.n)
		if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %v, want one line with %q", name, err, tc.want)
		}
	}
}
