package source_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/fastpathlab/fplab/clusters"
	"github.com/fastpathlab/fplab/source"
	"github.com/fastpathlab/fplab/source/consume"
	"github.com/fastpathlab/fplab/workloads"
)

// keyedTopic is a topic of a corpus loaded by its layout, with keys and
// headers when the corpus is keyed, and odd records after the layout's
// in partition 1 (extra).
type keyedTopic struct {
	*topic
	extra []extraRecord
}

// extraRecord is an odd record appended after the corpus: its value (nil:
// a tombstone), key (nil: none) and headers.
type extraRecord struct {
	value []byte
	key   []byte
	hdrs  []kgo.RecordHeader
}

// extras are the odd records: one that does not decode (JSON), one with
// an empty key, a null and an empty header value, and a tombstone without
// key or headers.
func extras(c *workloads.Corpus) []extraRecord {
	return []extraRecord{
		{value: []byte("not json"), key: []byte("bad")},
		{value: c.Message(nil, 0), key: []byte{}, hdrs: []kgo.RecordHeader{{Key: "n", Value: nil}, {Key: "e", Value: []byte{}}}},
		{},
	}
}

// loadKeyed loads count records of the bid corpus in format f, keyed or
// not, by shape into a fresh topic (seed 13), then the extras.
func loadKeyed(t *testing.T, name string, f workloads.Format, keyed bool, count int, shape workloads.Shape) *keyedTopic {
	t.Helper()
	opts := []topicOpt{fresh(name), withSeed(13), withRecords(count), withShape(shape)}
	if keyed {
		opts = append(opts, withKeys())
	}
	kt := &keyedTopic{topic: loadTopic(t, f, opts...)}
	kt.extra = extras(kt.corpus)
	values := map[int32][][]byte{1: nil}
	for _, e := range kt.extra {
		values[1] = append(values[1], e.value)
	}
	meta := func(j int, r *kgo.Record) { r.Key, r.Headers = kt.extra[j].key, kt.extra[j].hdrs }
	kt.append(t, values, clusters.WithRecordMeta(meta))
	return kt
}

// stop is the offsets after the extras.
func (kt *keyedTopic) stop() []int64 {
	s := kt.ends()
	s[1] += int64(len(kt.extra))
	return s
}

// extraHashes builds the extras' rows as a keyed path does (value columns
// by the codec, key columns from the record; a record that does not
// decode has no row) and returns their row hashes, ok false for no row.
func (kt *keyedTopic) extraHashes(t *testing.T, keys bool) (hashes []uint64, ok []bool) {
	t.Helper()
	mem := memory.NewGoAllocator()
	col := kt.codec.NewColumnar(mem)
	defer col.Release()
	kc := workloads.NewKeyColumns(mem)
	defer kc.Release()
	for _, e := range kt.extra {
		if e.value == nil {
			col.AppendNull()
		} else if err := col.Append(e.value); err != nil {
			ok = append(ok, false)
			continue
		}
		ok = append(ok, true)
		kc.Append(e.key)
		for _, h := range e.hdrs {
			kc.AppendHeader(h.Key, h.Value)
		}
	}
	rec := col.NewRecordBatch()
	if keys {
		rec = kc.Attach(rec)
	}
	defer rec.Release()
	r := 0
	for _, o := range ok {
		if !o {
			hashes = append(hashes, 0)
			continue
		}
		hashes = append(hashes, workloads.RowHash(rec, r))
		r++
	}
	return hashes, ok
}

// keyedRead is what readKeyed found.
type keyedRead struct {
	stats      consume.Stats
	rows       int
	nullValues int // rows whose value columns are null
	nullKeys   int // rows whose key is null
	schema     *arrow.Schema
}

// readKeyed drains a reader of kt and checks every batch's checksum
// against want(partition, offset), the row hash the row at that position
// must have.
func readKeyed(t *testing.T, cfg source.Config, want func(p int32, off int64) (uint64, bool)) keyedRead {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	r, err := source.Open(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var out keyedRead
	for {
		b, err := r.Next(ctx)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		var sum uint64
		for k, p := range b.Partitions {
			h, ok := want(p, b.Offsets[k])
			if !ok {
				b.Rec.Release()
				t.Fatalf("a row at partition %d offset %d, where no record decodes", p, b.Offsets[k])
			}
			sum += h
		}
		if got := workloads.BatchChecksum(b.Rec); got != sum {
			for k, p := range b.Partitions {
				if h, _ := want(p, b.Offsets[k]); workloads.RowHash(b.Rec, k) != h {
					t.Errorf("row %d (partition %d offset %d) differs from the corpus", k, p, b.Offsets[k])
					break
				}
			}
			b.Rec.Release()
			t.Fatalf("checksum %x, want %x", got, sum)
		}
		if out.schema == nil {
			out.schema = b.Rec.Schema()
		} else if !out.schema.Equal(b.Rec.Schema()) {
			b.Rec.Release()
			t.Fatalf("schema changed between batches: %v", b.Rec.Schema())
		}
		out.rows += int(b.Rec.NumRows())
		out.nullValues += b.Rec.Column(0).NullN()
		if cfg.Keys {
			out.nullKeys += b.Rec.Column(int(b.Rec.NumCols()) - 2).NullN()
			if n := b.Rec.Column(int(b.Rec.NumCols()) - 1).NullN(); n != 0 {
				t.Errorf("%d null header lists: a record without headers has an empty list", n)
			}
		}
		b.Rec.Release()
	}
	out.stats = r.Stats()
	return out
}

// TestKeysOnEveryPath: with Config.Keys every path delivers the key and
// headers columns after the value columns (workloads.KeyedSchema), their
// values the records' own: the corpus's (tombstones keep theirs), a null
// key, an empty key, null and empty header values; a record that does not
// decode has no row, key columns included. Without Keys a path delivers
// today's schema and ignores the keys; on a topic without keys a keyed
// read has null keys and empty header lists. JSON decodes per message,
// raw in bulk on the fast path.
func TestKeysOnEveryPath(t *testing.T) {
	type topicCase struct {
		name  string
		f     workloads.Format
		keyed bool
		shape workloads.Shape
	}
	topics := []topicCase{
		{"keys-json", workloads.FormatJSON, true, workloads.Shape{}},
		{"keys-json-nulls", workloads.FormatJSON, true, workloads.Shape{Nulls: 0.1}},
		{"keys-raw-nulls", workloads.FormatRaw, true, workloads.Shape{Nulls: 0.1}},
		{"nokeys-json-nulls", workloads.FormatJSON, false, workloads.Shape{Nulls: 0.1}},
	}
	for _, tc := range topics {
		kt := loadKeyed(t, tc.name, tc.f, tc.keyed, 1500, tc.shape)
		tally := kt.layout.Tally()
		stop := kt.stop()
		for _, keys := range []bool{true, false} {
			// the hashes a read with or without key columns must give
			var (
				plain  = workloads.NewCorpus(kt.codec.Schema().Base(), kt.codec, 13, kt.corpus.Count())
				unkeys = kt.corpus
			)
			if !keys {
				unkeys = plain
			}
			var nokeyRow func(i int) uint64 // a plain topic read with keys
			if keys && !tc.keyed {
				nokeyRow = rowsWithoutKeys(t, kt)
			}
			extra, extraOK := kt.extraHashes(t, keys)
			want := func(p int32, off int64) (uint64, bool) {
				if i, ok := kt.layout.At(p, off); ok {
					switch {
					case keys && !tc.keyed:
						return nokeyRow(i), true
					case kt.layout.Null(i):
						return unkeys.NullHash(i), true
					}
					return unkeys.Hash(i), true
				}
				if j := off - kt.layout.End(int(p)); p == 1 && j >= 0 && int(j) < len(extra) && extraOK[j] {
					return extra[j], true
				}
				return 0, false
			}
			for _, p := range consume.Paths() {
				t.Run(fmt.Sprintf("%s/keys=%v/%s", tc.name, keys, p), func(t *testing.T) {
					mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
					defer mem.AssertSize(t, 0)
					cfg := kt.config(p, 97, mem)
					cfg.Stop, cfg.Keys = stop, keys
					got := readKeyed(t, cfg, want)
					wantSchema := kt.codec.Schema().Arrow
					if keys {
						wantSchema = workloads.KeyedSchema(wantSchema)
					}
					if !got.schema.Equal(wantSchema) {
						t.Errorf("schema %v, want %v", got.schema, wantSchema)
					}
					rows, nulls := tally.Records, tally.Nulls
					for j, ok := range extraOK {
						if ok {
							rows++
							if kt.extra[j].value == nil {
								nulls++
							}
						}
					}
					st := got.stats
					if got.rows != rows || st.Records != int64(rows) || st.Nulls != int64(nulls) || got.nullValues != nulls {
						t.Errorf("%d rows (stats %d), %d null values (stats %d); want %d rows, %d nulls", got.rows, st.Records, got.nullValues, st.Nulls, rows, nulls)
					}
					wantFailures := int64(len(extraOK) - (rows - tally.Records))
					if st.ParseFailures != wantFailures {
						t.Errorf("%d parse failures, want %d", st.ParseFailures, wantFailures)
					}
					if keys {
						nullKeys := 1 // the last extra
						if !tc.keyed {
							nullKeys = tally.Records + 1
						}
						if got.nullKeys != nullKeys {
							t.Errorf("%d null keys, want %d", got.nullKeys, nullKeys)
						}
					}
				})
			}
		}
	}
}

// rowsWithoutKeys returns the row hash a keyed read gives record i of a
// topic without keys: its value columns, a null key and no header.
func rowsWithoutKeys(t *testing.T, kt *keyedTopic) func(i int) uint64 {
	t.Helper()
	mem := memory.NewGoAllocator()
	col := kt.codec.NewColumnar(mem)
	kc := workloads.NewKeyColumns(mem)
	for i := range kt.corpus.Count() {
		if kt.layout.Null(i) {
			col.AppendNull()
		} else if err := col.Append(kt.corpus.Message(nil, i)); err != nil {
			t.Fatal(err)
		}
		kc.Append(nil)
	}
	rec := kc.Attach(col.NewRecordBatch())
	col.Release()
	kc.Release()
	hashes := make([]uint64, rec.NumRows())
	for i := range hashes {
		hashes[i] = workloads.RowHash(rec, i)
	}
	rec.Release()
	return func(i int) uint64 { return hashes[i] }
}

// TestKeyedSchemaColumns: a keyed batch's key and headers columns are
// binary and list<struct<key: utf8, value: binary>>, after the value
// columns, on every path.
func TestKeyedSchemaColumns(t *testing.T) {
	kt := loadKeyed(t, "keys-schema", workloads.FormatAvro, true, 300, workloads.Shape{})
	for _, p := range consume.Paths() {
		t.Run(string(p), func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			cfg := kt.config(p, 1000, mem)
			cfg.Stop, cfg.Keys = kt.stop(), true
			r, err := source.Open(ctx, cfg)
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			b, err := r.Next(ctx)
			if err != nil {
				t.Fatal(err)
			}
			defer b.Rec.Release()
			n := int(b.Rec.NumCols())
			key, ok1 := b.Rec.Column(n - 2).(*array.Binary)
			hdrs, ok2 := b.Rec.Column(n - 1).(*array.List)
			if !ok1 || !ok2 || b.Rec.ColumnName(n-2) != "key" || b.Rec.ColumnName(n-1) != "headers" || n != kt.codec.Schema().NumColumns()+2 {
				t.Fatalf("columns %v", b.Rec.Schema())
			}
			i, _ := kt.layout.At(b.Partitions[0], b.Offsets[0])
			if string(key.Value(0)) != string(kt.corpus.Key(nil, i)) {
				t.Errorf("row 0 key %q, want %q", key.Value(0), kt.corpus.Key(nil, i))
			}
			from, to := hdrs.ValueOffsets(0)
			st := hdrs.ListValues().(*array.Struct)
			if to-from != workloads.HeaderCount || st.Field(0).(*array.String).Value(int(from)) != "source" {
				t.Errorf("row 0 headers %v", hdrs)
			}
		})
	}
}
