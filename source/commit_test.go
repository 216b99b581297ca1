package source_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fastpathlab/fplab/clusters"
	"github.com/fastpathlab/fplab/source"
	"github.com/fastpathlab/fplab/source/consume"
	"github.com/fastpathlab/fplab/workloads"
)

// TestCommitOffsetsIsTheGroupsPositions: on every path, a reader with a
// group commits a batch's split state as the group's offsets, every
// partition, and a later commit replaces it (the last split, where the
// read ended). A reader without a group, or a split of the wrong length,
// is refused with a line that says so.
func TestCommitOffsetsIsTheGroupsPositions(t *testing.T) {
	for _, p := range consume.Paths() {
		t.Run(fmt.Sprintf("path=%s", p), func(t *testing.T) {
			tp := loadTopic(t, workloads.FormatJSON)
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			cfg := tp.config(p, 512, memory.NewGoAllocator())
			cfg.Group = fmt.Sprintf("fplab-commit-test-%s-%d", p, time.Now().UnixNano())
			r, err := source.Open(ctx, cfg)
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			cm := r.(consume.Committer)
			committed := func() []int64 {
				got, err := clusters.CommittedOffsets(ctx, tp.cluster, cfg.Group, tp.name, testParts)
				if err != nil {
					t.Fatal(err)
				}
				return got
			}
			var last []int64
			for n := 0; ; n++ {
				b, err := r.Next(ctx)
				if err != nil {
					break // io.EOF; drain's tests check the read itself
				}
				last = slices.Clone(b.Split)
				b.Rec.Release()
				if n == 1 {
					if err := cm.CommitOffsets(ctx, last); err != nil {
						t.Fatal(err)
					}
					if got := committed(); !slices.Equal(got, last) {
						t.Fatalf("after the second batch the group holds %v, want its split %v", got, last)
					}
				}
			}
			if err := cm.CommitOffsets(ctx, last); err != nil {
				t.Fatal(err)
			}
			if got := committed(); !slices.Equal(got, tp.ends()) {
				t.Fatalf("at the end the group holds %v, want the ends %v", got, tp.ends())
			}
			if err := cm.CommitOffsets(ctx, last[:1]); err == nil || !strings.Contains(err.Error(), "1 positions for 3 partitions") {
				t.Errorf("short split: %v", err)
			}

			anon := tp.config(p, 512, memory.NewGoAllocator())
			r2, err := source.Open(ctx, anon)
			if err != nil {
				t.Fatal(err)
			}
			defer r2.Close()
			if err := r2.(consume.Committer).CommitOffsets(ctx, last); err == nil || err.Error() != "commit offsets: the reader has no group (Config.Group)" {
				t.Errorf("commit without a group: %v", err)
			}
		})
	}
}
