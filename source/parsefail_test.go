package source_test

import (
	"context"
	"errors"
	"io"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fastpathlab/fplab/source"
	"github.com/fastpathlab/fplab/source/consume"
	"github.com/fastpathlab/fplab/workloads"
)

// TestCorruptRecordIsLocated loads a corpus whose record 1000 is not JSON:
// every path must report it as a decode failure at its partition and
// offset, and still read the rest.
func TestCorruptRecordIsLocated(t *testing.T) {
	const bad = 1000
	corrupt := func(c *workloads.Corpus) func(dst []byte, i int) []byte {
		return func(dst []byte, i int) []byte {
			if i == bad {
				return append(dst, `{"bid": tr`...)
			}
			return c.Message(dst, i)
		}
	}
	tp := loadTopic(t, workloads.FormatJSON, fresh("corrupt"), withMessage(corrupt))
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	for _, p := range consume.Paths() {
		t.Run(string(p), func(t *testing.T) {
			cfg := tp.config(p, 256, memory.NewGoAllocator())
			cfg.Timeout = 30 * time.Second
			r, err := source.Open(ctx, cfg)
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
			want := "record at partition 1 offset 333 does not decode: parse error"
			if got := f.Error(); len(got) < len(want) || got[:len(want)] != want {
				t.Errorf("error %q, want it to start %q", got, want)
			}
		})
	}
}
