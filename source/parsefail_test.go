package source_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync/atomic"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fastpathlab/fplab/clusters"
	"github.com/fastpathlab/fplab/source"
	"github.com/fastpathlab/fplab/source/consume"
	"github.com/fastpathlab/fplab/workloads"
)

var corruptRuns atomic.Int64

// TestCorruptRecordIsLocated loads a corpus whose record 1000 is not JSON:
// every path must report it as a decode failure at its partition and
// offset, and still read the rest.
func TestCorruptRecordIsLocated(t *testing.T) {
	const bad = 1000
	s, _ := workloads.SchemaByName("bid")
	codec, err := workloads.NewCodec(workloads.FormatJSON, s)
	if err != nil {
		t.Fatal(err)
	}
	c := workloads.NewCorpus(s, codec, 7, testRecords)
	// A topic per run: -count reuses the package's cluster.
	topic := fmt.Sprintf("corrupt%d-%s", corruptRuns.Add(1), c.ID())
	msg := func(dst []byte, i int) []byte {
		if i == bad {
			return append(dst, `{"bid": tr`...)
		}
		return c.Message(dst, i)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if _, err := clusters.Load(ctx, clusters.Cluster{Bootstrap: bootstrap(t)}, topic, testParts, testRecords, msg); err != nil {
		t.Fatal(err)
	}
	for _, p := range consume.Paths() {
		t.Run(string(p), func(t *testing.T) {
			r, err := source.Open(ctx, source.Config{
				Path: p, Bootstrap: bootstrap(t), Topic: topic, Partitions: testParts, Batch: 256,
				Codec: codec, Mem: memory.NewGoAllocator(), Timeout: 30 * time.Second,
			})
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			for {
				b, err := r.Next(ctx)
				if errors.Is(err, io.EOF) {
					break
				}
				if err != nil {
					t.Fatal(err)
				}
				b.Rec.Release()
			}
			st := r.Stats()
			f := st.FirstParseFailure
			if st.ParseFailures != 1 || f == nil || st.Records != testRecords-1 {
				t.Fatalf("parse failures %d, first %v, records %d; want 1 failure and %d records", st.ParseFailures, f, st.Records, testRecords-1)
			}
			if f.Partition != bad%testParts || f.Offset != bad/testParts || !errors.Is(f, workloads.ErrParse) {
				t.Errorf("first failure %v, want partition %d offset %d wrapping workloads.ErrParse", f, bad%testParts, bad/testParts)
			}
			want := "source: record at partition 1 offset 333 does not decode: workloads: parse error"
			if got := f.Error(); len(got) < len(want) || got[:len(want)] != want {
				t.Errorf("error %q, want it to start %q", got, want)
			}
		})
	}
}
