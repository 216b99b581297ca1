package clusters_test

import (
	"bytes"
	"context"
	"fmt"
	"testing"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/fastpathlab/fplab/clusters"
	"github.com/fastpathlab/fplab/clusters/clusterstest"
	"github.com/fastpathlab/fplab/workloads"
)

// sameMeta reports how r's key and headers differ from record i of c
// ("" when they are the corpus's).
func sameMeta(c *workloads.Corpus, i int, r *kgo.Record) string {
	want := c.Key(nil, i)
	if (want == nil) != (r.Key == nil) || !bytes.Equal(r.Key, want) {
		return fmt.Sprintf("key %q, want %q", r.Key, want)
	}
	hs := c.Headers(nil, i)
	if len(r.Headers) != len(hs) {
		return fmt.Sprintf("%d headers, want %d", len(r.Headers), len(hs))
	}
	for k, h := range hs {
		if r.Headers[k].Key != h.Key || !bytes.Equal(r.Headers[k].Value, h.Value) {
			return fmt.Sprintf("header %d = %s=%q, want %s=%q", k, r.Headers[k].Key, r.Headers[k].Value, h.Key, h.Value)
		}
	}
	return ""
}

// TestLoadKeyedCorpus: WithKeys writes a keyed corpus's key and headers
// with every record, tombstones included (their value stays null), in
// transactions as without; a corpus without keys gets none; Append with
// WithKeys gives appended records the keys of their index.
func TestLoadKeyedCorpus(t *testing.T) {
	const n, partitions = 1600, 3
	c := clusters.Cluster{Bootstrap: clusterstest.StartSelfT(t, 1, partitions).Bootstrap()}
	ctx, cancel := context.WithTimeout(t.Context(), failSafe)
	defer cancel()
	s, _ := workloads.SchemaByName("bid")
	codec, err := workloads.NewCodec(workloads.FormatJSON, s)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		keyed bool
		shape workloads.Shape
	}{
		{"keyed-nulls", true, workloads.Shape{Nulls: 0.1}},
		{"keyed-txn-nulls", true, workloads.Shape{Nulls: 0.1, Txn: true}},
		{"plain-nulls", false, workloads.Shape{Nulls: 0.1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var opts []workloads.CorpusOpt
			if tc.keyed {
				opts = append(opts, workloads.Keys())
			}
			corpus := workloads.NewCorpus(s, codec, 4, n, opts...)
			l := mustLayout(t, 4, n, partitions, tc.shape)
			topic := tc.name
			if _, err := clusters.Load(ctx, c, topic, partitions, n, corpus.Message,
				clusters.WithLayout(l), clusters.WithKeys(corpus)); err != nil {
				t.Fatal(err)
			}
			want := 0
			for i := range n {
				if l.Committed(i) {
					want++
				}
			}
			nulls, keyedNulls := 0, 0
			poll(t, ctx, c.Bootstrap, topic, fromStart(partitions), true, want, func(r *kgo.Record) {
				i, ok := l.At(r.Partition, r.Offset)
				if !ok {
					t.Fatalf("partition %d offset %d holds no record of the layout", r.Partition, r.Offset)
				}
				if d := sameMeta(corpus, i, r); d != "" {
					t.Fatalf("record %d (partition %d offset %d, tombstone %v): %s", i, r.Partition, r.Offset, l.Null(i), d)
				}
				if l.Null(i) {
					nulls++
					if r.Value != nil {
						t.Fatalf("tombstone %d has value %q", i, r.Value)
					}
					if r.Key != nil {
						keyedNulls++
					}
				} else if !bytes.Equal(r.Value, corpus.Message(nil, i)) {
					t.Fatalf("record %d: value differs from the corpus's", i)
				}
			})
			if nulls == 0 || (tc.keyed && keyedNulls != nulls) || (!tc.keyed && keyedNulls != 0) {
				t.Errorf("%d tombstones read, %d of them with a key", nulls, keyedNulls)
			}
			if !tc.keyed {
				return
			}
			// Append: the record at index j of a partition's list gets
			// record j's key and headers; a nil value stays null.
			appended := map[int32][][]byte{1: {corpus.Message(nil, 0), nil, corpus.Message(nil, 2)}}
			if err := clusters.Append(ctx, c, topic, appended, clusters.WithKeys(corpus)); err != nil {
				t.Fatal(err)
			}
			end := l.End(1)
			j := 0
			readFrom(t, ctx, c.Bootstrap, topic, 1, end, 3, func(r *kgo.Record) {
				if d := sameMeta(corpus, j, r); d != "" || (r.Value == nil) != (j == 1) {
					t.Errorf("appended record %d: %s, value nil %v", j, d, r.Value == nil)
				}
				j++
			})
		})
	}
}
