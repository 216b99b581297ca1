package workloads

import (
	"bytes"
	"encoding/binary"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fastpathlab/fplab/cell"
)

// appendKeys appends record i's key and headers as a consume path does.
func appendKeys(k *KeyColumns, c *Corpus, i int) {
	k.Append(c.Key(nil, i))
	for _, h := range c.Headers(nil, i) {
		k.AppendHeader(h.Key, h.Value)
	}
}

// TestKeyedCorpus: a keyed corpus's records carry the key of their bidder
// and the two headers (source, seq), their values are those of the same
// corpus without keys, and its ID says so; a corpus without keys has a
// null key and no header.
func TestKeyedCorpus(t *testing.T) {
	c := mustCodec(t, FormatAvro, "bid")
	plain := NewCorpus(c.Schema(), c, 9, 300)
	keyed := NewCorpus(c.Schema(), c, 9, 300, Keys())
	if !keyed.Keyed() || plain.Keyed() {
		t.Fatalf("Keyed: %v and %v", keyed.Keyed(), plain.Keyed())
	}
	if keyed.ID() != plain.ID()+"-keys" {
		t.Errorf("keyed ID %q, plain %q", keyed.ID(), plain.ID())
	}
	if big := NewCorpus(c.Schema(), c, 9, 300, Keys(), ValueSize(1024)); big.ID() != plain.ID()+"-v1024-keys" {
		t.Errorf("keyed 1 KiB ID %q", big.ID())
	}
	for i := range keyed.Count() {
		var r Row
		keyed.Row(i, &r)
		if got, want := string(keyed.Key([]byte("x"), i)), "xbidder-"+strconv.FormatInt(r.Bidder, 10); got != want {
			t.Fatalf("record %d: key %q, want %q", i, got, want)
		}
		hs := keyed.Headers(nil, i)
		if len(hs) != HeaderCount || hs[0].Key != "source" || string(hs[0].Value) != "fplab" ||
			hs[1].Key != "seq" || binary.BigEndian.Uint64(hs[1].Value) != uint64(i) || len(hs[1].Value) != 8 {
			t.Fatalf("record %d: headers %q", i, hs)
		}
		if !bytes.Equal(keyed.Message(nil, i), plain.Message(nil, i)) {
			t.Fatalf("record %d: a keyed value differs from the plain one", i)
		}
		if plain.Key([]byte("x"), i) != nil || len(plain.Headers(nil, i)) != 0 {
			t.Fatalf("record %d of a plain corpus has a key or headers", i)
		}
		if keyed.Hash(i) == plain.Hash(i) || keyed.NullHash(i) == plain.NullHash(i) {
			t.Fatalf("record %d: keys leave the hash unchanged", i)
		}
	}
	if plain.NullHash(3) != NullRowHash(c.Schema()) {
		t.Error("a plain corpus's NullHash is not NullRowHash")
	}
	if keyed.NullHash(3) == keyed.NullHash(4) {
		t.Error("two keyed tombstones hash alike: their key and headers are not hashed")
	}
	on := cell.Cell{Keys: true, Size: 1024}
	if cp := NewCorpus(c.Schema(), c, 9, 300, CorpusOptsOf(on)...); !cp.Keyed() || cp.ValueSize() != 1024 {
		t.Errorf("CorpusOptsOf(keys=on size=1024): keyed %v size %d", cp.Keyed(), cp.ValueSize())
	}
	if cp := NewCorpus(c.Schema(), c, 9, 300, CorpusOptsOf(cell.Cell{})...); cp.Keyed() {
		t.Error("CorpusOptsOf(keys=off) keys the corpus")
	}
}

// TestKeyedHashIsDecodedRowHash: in every schema x format, a keyed batch
// (the value columns decoded by the Columnar and by the RowBuilder, the
// key columns built from the corpus's keys and headers, tombstones
// included) has the keyed schema, its rows hash to Corpus.Hash (a
// tombstone to Corpus.NullHash), row by row, summed and in a slice, and
// every buffer goes back to the allocator.
func TestKeyedHashIsDecodedRowHash(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	for _, cb := range combos(t) {
		t.Run(cb.name(), func(t *testing.T) {
			cp := NewCorpus(cb.schema, cb.codec, 6, 120, Keys())
			null := func(i int) bool { return i%7 == 3 }
			col := cb.codec.NewColumnar(mem)
			defer col.Release()
			rb := NewRowBuilder(cb.codec.Schema(), mem)
			defer rb.Release()
			kc, kr := NewKeyColumns(mem), NewKeyColumns(mem)
			defer kc.Release()
			defer kr.Release()
			for batch := range 2 { // the second batch reuses reserved builders
				var want uint64
				for i := batch * 60; i < (batch+1)*60; i++ {
					if null(i) {
						col.AppendNull()
						rb.AddNull()
						want += cp.NullHash(i)
					} else {
						if err := col.Append(cp.Message(nil, i)); err != nil {
							t.Fatal(err)
						}
						var r Row
						cp.Row(i, &r)
						rb.Add(&r)
						want += cp.Hash(i)
					}
					appendKeys(kc, cp, i)
					appendKeys(kr, cp, i)
				}
				a, b := kc.Attach(col.NewRecordBatch()), kr.Attach(rb.NewRecordBatch())
				for _, rec := range []arrow.RecordBatch{a, b} {
					if !rec.Schema().Equal(KeyedSchema(cb.codec.Schema().Arrow)) {
						t.Fatalf("schema %v", rec.Schema())
					}
					if got := BatchChecksum(rec); got != want {
						t.Errorf("batch %d: checksum %x, corpus %x", batch, got, want)
					}
					if got := sumRowHash(rec); got != want {
						t.Errorf("batch %d: row hashes sum to %x, corpus %x", batch, got, want)
					}
					for r := range int(rec.NumRows()) {
						i := batch*60 + r
						h := cp.Hash(i)
						if null(i) {
							h = cp.NullHash(i)
						}
						if RowHash(rec, r) != h {
							t.Fatalf("batch %d row %d: RowHash differs from the corpus's", batch, r)
						}
					}
					// a slice hashes its own rows: nested offsets are honoured
					sl := rec.NewSlice(10, 25)
					var sw uint64
					for r := 10; r < 25; r++ {
						sw += RowHash(rec, r)
					}
					if BatchChecksum(sl) != sw {
						t.Errorf("batch %d: slice checksum differs from its rows'", batch)
					}
					sl.Release()
					if n := rec.Column(0).NullN(); n != countNulls(batch, null) {
						t.Errorf("batch %d: %d null values, want the tombstones only", batch, n)
					}
					if rec.Column(int(rec.NumCols())-2).NullN() != 0 || rec.Column(int(rec.NumCols())-1).NullN() != 0 {
						t.Errorf("batch %d: a tombstone lost its key or headers", batch)
					}
				}
				a.Release()
				b.Release()
			}
		})
	}
}

func countNulls(batch int, null func(int) bool) int {
	n := 0
	for i := batch * 60; i < (batch+1)*60; i++ {
		if null(i) {
			n++
		}
	}
	return n
}

// TestKeyColumnsValues: the key and headers columns hold what was
// appended: a null key, an empty key, no header, a null header value; and
// each of those changes the row hash.
func TestKeyColumnsValues(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	k := NewKeyColumns(mem)
	defer k.Release()
	k.Append([]byte("k1"))
	k.AppendHeader("a", []byte("1"))
	k.AppendHeaderBytes([]byte("b"), nil)
	k.Append(nil)
	k.Append([]byte{})
	k.AppendHeader("a", []byte{})
	k.Append([]byte("k1"))
	k.AppendHeader("b", nil)
	k.AppendHeader("a", []byte("1"))
	k.Append([]byte("k1"))
	k.AppendHeader("a", []byte("1"))
	k.AppendHeader("b", []byte{})
	if k.Len() != 5 {
		t.Fatalf("Len %d", k.Len())
	}
	key, hdrs := k.NewColumns()
	defer key.Release()
	defer hdrs.Release()
	if k.Len() != 0 {
		t.Errorf("Len %d after NewColumns", k.Len())
	}
	ka, ha := key.(*array.Binary), hdrs.(*array.List)
	if string(ka.Value(0)) != "k1" || !ka.IsNull(1) || ka.IsNull(2) || len(ka.Value(2)) != 0 {
		t.Errorf("keys %v", ka)
	}
	st := ha.ListValues().(*array.Struct)
	names, vals := st.Field(0).(*array.String), st.Field(1).(*array.Binary)
	lens := []int{2, 0, 1, 2, 2}
	for r, n := range lens {
		from, to := ha.ValueOffsets(r)
		if ha.IsNull(r) || int(to-from) != n {
			t.Errorf("row %d: %d headers (null %v), want %d", r, to-from, ha.IsNull(r), n)
		}
	}
	if names.Value(0) != "a" || string(vals.Value(0)) != "1" || names.Value(1) != "b" || !vals.IsNull(1) || vals.IsNull(2) {
		t.Errorf("headers %v", st)
	}
	rec := array.NewRecordBatch(arrow.NewSchema(keyFields, nil), []arrow.Array{key, hdrs}, 5)
	defer rec.Release()
	seen := map[uint64]int{}
	for r := range 5 {
		h := RowHash(rec, r)
		if prev, dup := seen[h]; dup {
			t.Errorf("rows %d and %d hash alike", prev, r)
		}
		seen[h] = r
	}
	if BatchChecksum(rec) != sumRowHash(rec) {
		t.Error("BatchChecksum of the key columns differs from their row hashes")
	}
}

// TestListChecksumWithNulls: BatchChecksum of list<struct> columns with a
// null list, a null struct item and null fields, whole and sliced, is the
// sum of their row hashes.
func TestListChecksumWithNulls(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	lb := array.NewListBuilder(mem, headerType)
	defer lb.Release()
	sb := lb.ValueBuilder().(*array.StructBuilder)
	names, vals := sb.FieldBuilder(0).(*array.StringBuilder), sb.FieldBuilder(1).(*array.BinaryBuilder)
	for r := range 9 {
		if r%4 == 1 {
			lb.AppendNull()
			continue
		}
		lb.Append(true)
		for j := range r % 3 {
			if (r+j)%5 == 2 {
				sb.AppendNull()
				names.AppendNull()
				vals.AppendNull()
				continue
			}
			sb.Append(true)
			names.Append(strconv.Itoa(r*10 + j))
			if j == 1 {
				vals.AppendNull()
			} else {
				vals.Append([]byte{byte(r), byte(j)})
			}
		}
	}
	col := lb.NewArray()
	defer col.Release()
	rec := array.NewRecordBatch(arrow.NewSchema([]arrow.Field{{Name: "h", Type: col.DataType(), Nullable: true}}, nil), []arrow.Array{col}, int64(col.Len()))
	defer rec.Release()
	if BatchChecksum(rec) != sumRowHash(rec) {
		t.Error("BatchChecksum differs from the row hashes")
	}
	sl := rec.NewSlice(2, 8)
	defer sl.Release()
	if BatchChecksum(sl) != sumRowHash(sl) {
		t.Error("BatchChecksum of a slice differs from its row hashes")
	}
}

// TestAttachReleases: Attach takes the value batch over, the keyed batch
// owns every column, and a mismatch of row counts panics without leaking.
func TestAttachReleases(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	c := mustCodec(t, FormatJSON, "bid")
	cp := NewCorpus(c.Schema(), c, 2, 10, Keys())
	col := c.NewColumnar(mem)
	defer col.Release()
	k := NewKeyColumns(mem)
	defer k.Release()
	for i := range 10 {
		if err := col.Append(cp.Message(nil, i)); err != nil {
			t.Fatal(err)
		}
		appendKeys(k, cp, i)
	}
	rec := k.Attach(col.NewRecordBatch())
	if rec.NumCols() != 9 || rec.NumRows() != 10 || rec.Schema().Field(7).Name != "key" || rec.Schema().Field(8).Name != "headers" {
		t.Fatalf("keyed batch %v", rec.Schema())
	}
	if mem.CurrentAlloc() == 0 {
		t.Fatal("no Arrow memory in use while the batch is alive")
	}
	rec.Release()

	col.AppendNull()
	func() {
		defer func() {
			if r := recover(); r == nil || !strings.Contains(r.(string), "0 key rows for 1 value rows") {
				t.Errorf("Attach with missing key rows: panic %v", r)
			}
		}()
		k.Attach(col.NewRecordBatch())
	}()
}

// TestKeyColumnsZeroAllocs: once warm, a row's key and headers append
// without allocating Go memory.
func TestKeyColumnsZeroAllocs(t *testing.T) {
	c := mustCodec(t, FormatRaw, "bid")
	cp := NewCorpus(c.Schema(), c, 2, 64, Keys())
	keys := make([][]byte, cp.Count())
	hdrs := make([][]Header, cp.Count())
	for i := range keys {
		keys[i], hdrs[i] = cp.Key(nil, i), cp.Headers(nil, i)
	}
	k := NewKeyColumns(&slabAllocator{slab: make([]byte, 64<<20)})
	defer k.Release()
	i := 0
	row := func() {
		j := i % len(keys)
		k.Append(keys[j])
		for _, h := range hdrs[j] {
			k.AppendHeader(h.Key, h.Value)
		}
		i++
	}
	const runs = 2000
	for range runs + 1 { // a first batch: the scratch reaches its size
		row()
	}
	key, h := k.NewColumns()
	key.Release()
	h.Release()
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1)) // as testing.AllocsPerRun
	var ms0, ms1 runtime.MemStats
	runtime.ReadMemStats(&ms0)
	for range runs {
		row()
	}
	runtime.ReadMemStats(&ms1)
	if n := ms1.Mallocs - ms0.Mallocs; n != 0 {
		t.Errorf("%d rows of a warm KeyColumns allocate %d times, want 0", runs, n)
	}
}
