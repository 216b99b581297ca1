package workloads

import (
	"encoding/binary"
	"fmt"
	"math"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// Keyed corpora. A keyed corpus's records carry, besides their value, a
// Kafka key and exactly two headers, all of them a function of (seed, i):
//
//   - key: "bidder-<Bidder>", the record's bidder in decimal;
//   - headers: ("source", "fplab") and ("seq", i as 8 bytes big-endian).
//
// A consume path delivers them as two more columns after the value
// columns (KeyedSchema): key (binary, null for a record without key) and
// headers (list<struct<key: utf8, value: binary>>, an empty list for a
// record without headers). A tombstone keeps its key and headers, as
// Kafka compaction tombstones do: only its value columns are null.

// Header is one record header: a name and a value (nil: a null value).
type Header struct {
	Key   string
	Value []byte
}

// HeaderCount is the number of headers every record of a keyed corpus
// carries.
const HeaderCount = 2

// keyPrefix starts every key of a keyed corpus.
const keyPrefix = "bidder-"

// Keys makes a corpus keyed: every record carries a key and HeaderCount
// headers (see Corpus.Key and Corpus.Headers), and the corpus ID ends in
// "-keys". The values are those of the same corpus without keys.
func Keys() CorpusOpt { return func(c *Corpus) { c.keyed = true } }

// Keyed reports whether the corpus's records carry keys and headers.
func (c *Corpus) Keyed() bool { return c.keyed }

// Key appends record i's key to dst and returns the result; for a corpus
// that is not keyed it returns nil (a null key).
func (c *Corpus) Key(dst []byte, i int) []byte {
	if !c.keyed {
		return nil
	}
	dst = append(dst, keyPrefix...)
	return strconv.AppendInt(dst, bidderOf(c.seed, i), 10)
}

// Headers appends record i's headers to dst and returns the result; a
// corpus that is not keyed adds none. Each call allocates the values
// afresh.
func (c *Corpus) Headers(dst []Header, i int) []Header {
	if !c.keyed {
		return dst
	}
	seq := make([]byte, 8)
	binary.BigEndian.PutUint64(seq, uint64(i))
	return append(dst, Header{"source", []byte(headerSource)}, Header{"seq", seq})
}

// headerSource is the value of every keyed record's "source" header.
const headerSource = "fplab"

// keyHashes folds record i's key and headers into a row hash state: the
// two values RowHash folds for the key and headers columns.
func (c *Corpus) keyHashes(h uint64, i int) uint64 {
	var kb [32]byte
	h = fold(h, hashBytes(c.Key(kb[:0], i)))
	var seq [8]byte
	binary.BigEndian.PutUint64(seq[:], uint64(i))
	l := listSeed(HeaderCount)
	l = fold(l, headerHash(hashString("source"), hashString(headerSource)))
	l = fold(l, headerHash(hashString("seq"), hashBytes(seq[:])))
	return fold(h, avalanche(l))
}

// headerHash is the hash of one header struct from its field hashes.
func headerHash(key, value uint64) uint64 {
	h := structSeed(2)
	h = fold(h, key)
	return avalanche(fold(h, value))
}

// NullHash is the row hash of record i delivered as a tombstone: every
// value column null, and for a keyed corpus the record's key and headers
// (for a corpus that is not keyed it is NullRowHash of its schema).
func (c *Corpus) NullHash(i int) uint64 {
	if !c.keyed {
		return NullRowHash(c.schema)
	}
	h := rowSeed(len(c.schema.cols) + 2)
	for range c.schema.cols {
		h = fold(h, hashNull)
	}
	return avalanche(c.keyHashes(h, i))
}

// The Arrow types of the key and headers columns.
var (
	headerType = arrow.StructOf(
		arrow.Field{Name: "key", Type: arrow.BinaryTypes.String},
		arrow.Field{Name: "value", Type: arrow.BinaryTypes.Binary, Nullable: true},
	)
	headersType = arrow.ListOfNonNullable(headerType)
	keyFields   = []arrow.Field{
		{Name: "key", Type: arrow.BinaryTypes.Binary, Nullable: true},
		{Name: "headers", Type: headersType, Nullable: true},
	}
)

// KeyedSchema is the Arrow schema of a keyed batch whose value columns
// are values': those columns, then key (binary, nullable) and headers
// (list<struct<key: utf8 not null, value: binary>>, nullable; its items
// are never null).
func KeyedSchema(values *arrow.Schema) *arrow.Schema {
	fields := append(values.Fields(), keyFields...)
	return arrow.NewSchema(fields, nil)
}

// KeyColumns builds the key and headers columns of keyed batches, one row
// per record, next to the Columnar or RowBuilder that builds the same
// rows' value columns. Rows are appended to Go scratch slices that are
// reused batch after batch, so once warm a row costs no Go allocation;
// NewColumns copies them once into buffers from its allocator.
type KeyColumns struct {
	mem memory.Allocator
	n   int // rows
	m   int // headers

	keyData  []byte
	keyOffs  []int32 // n+1 offsets into keyData
	keyValid []byte  // validity bitmap, one bit per row
	keyNulls int

	hdrOffs []int32 // n+1 offsets into the headers

	nameData []byte
	nameOffs []int32 // m+1
	valData  []byte
	valOffs  []int32 // m+1
	valValid []byte
	valNulls int

	// the last value schema Attach saw and its keyed schema
	values, keyed *arrow.Schema
	cols          []arrow.Array
}

// NewKeyColumns returns an empty KeyColumns whose buffers come from mem.
func NewKeyColumns(mem memory.Allocator) *KeyColumns {
	k := &KeyColumns{mem: mem}
	k.reset()
	return k
}

// reset empties the scratch for the next batch, keeping its capacity.
func (k *KeyColumns) reset() {
	k.n, k.m, k.keyNulls, k.valNulls = 0, 0, 0, 0
	k.keyData, k.nameData, k.valData = k.keyData[:0], k.nameData[:0], k.valData[:0]
	k.keyOffs = append(k.keyOffs[:0], 0)
	k.hdrOffs = append(k.hdrOffs[:0], 0)
	k.nameOffs = append(k.nameOffs[:0], 0)
	k.valOffs = append(k.valOffs[:0], 0)
	k.keyValid, k.valValid = k.keyValid[:0], k.valValid[:0]
}

// setBit appends validity bit i (the i-th value) to a bitmap.
func setBit(bm []byte, i int, valid bool) []byte {
	if i%8 == 0 {
		bm = append(bm, 0)
	}
	if valid {
		bm[i/8] |= 1 << (i % 8)
	}
	return bm
}

// offset converts a data length to an Arrow int32 offset.
func offset(n int) int32 {
	if n > math.MaxInt32 {
		panic("workloads: KeyColumns: a batch's keys or headers pass 2 GiB")
	}
	return int32(n)
}

// Append starts the next row: its key (nil: a null key; an empty key is
// not null) and an empty header list, which AppendHeader then fills.
func (k *KeyColumns) Append(key []byte) {
	k.keyValid = setBit(k.keyValid, k.n, key != nil)
	if key == nil {
		k.keyNulls++
	} else {
		k.keyData = append(k.keyData, key...)
	}
	k.keyOffs = append(k.keyOffs, offset(len(k.keyData)))
	k.hdrOffs = append(k.hdrOffs, int32(k.m))
	k.n++
}

// AppendHeader adds a header to the row Append started last (value nil: a
// null value).
func (k *KeyColumns) AppendHeader(key string, value []byte) {
	k.nameData = append(k.nameData, key...)
	k.appendValue(value)
}

// AppendHeaderBytes is AppendHeader with the name as bytes (copied).
func (k *KeyColumns) AppendHeaderBytes(key, value []byte) {
	k.nameData = append(k.nameData, key...)
	k.appendValue(value)
}

// appendValue ends a header begun by its name.
func (k *KeyColumns) appendValue(v []byte) {
	k.nameOffs = append(k.nameOffs, offset(len(k.nameData)))
	k.valValid = setBit(k.valValid, k.m, v != nil)
	if v == nil {
		k.valNulls++
	} else {
		k.valData = append(k.valData, v...)
	}
	k.valOffs = append(k.valOffs, offset(len(k.valData)))
	k.m++
	k.hdrOffs[k.n] = int32(k.m)
}

// Len is the number of rows appended since the last NewColumns or Attach.
func (k *KeyColumns) Len() int { return k.n }

// buffer copies b into a new buffer from the allocator.
func (k *KeyColumns) buffer(b []byte) *memory.Buffer {
	buf := memory.NewResizableBuffer(k.mem)
	buf.Resize(len(b))
	copy(buf.Bytes(), b)
	return buf
}

// validity is the bitmap buffer of a column with nulls, nil without.
func (k *KeyColumns) validity(bm []byte, nulls int) *memory.Buffer {
	if nulls == 0 {
		return nil
	}
	return k.buffer(bm)
}

// binaryData is the Arrow data of a binary or utf8 column.
func (k *KeyColumns) binaryData(t arrow.DataType, n int, bm []byte, nulls int, offs []int32, data []byte) *array.Data {
	bufs := []*memory.Buffer{k.validity(bm, nulls), k.buffer(arrow.Int32Traits.CastToBytes(offs)), k.buffer(data)}
	d := array.NewData(t, n, bufs, nil, nulls, 0)
	for _, b := range bufs {
		if b != nil {
			b.Release() // d holds them
		}
	}
	return d
}

// NewColumns returns the rows appended so far as the key and headers
// arrays (the caller releases them) and starts the next batch.
func (k *KeyColumns) NewColumns() (key, headers arrow.Array) {
	kd := k.binaryData(arrow.BinaryTypes.Binary, k.n, k.keyValid, k.keyNulls, k.keyOffs, k.keyData)
	names := k.binaryData(arrow.BinaryTypes.String, k.m, nil, 0, k.nameOffs, k.nameData)
	vals := k.binaryData(arrow.BinaryTypes.Binary, k.m, k.valValid, k.valNulls, k.valOffs, k.valData)
	st := array.NewData(headerType, k.m, []*memory.Buffer{nil}, []arrow.ArrayData{names, vals}, 0, 0)
	offs := k.buffer(arrow.Int32Traits.CastToBytes(k.hdrOffs))
	ld := array.NewData(headersType, k.n, []*memory.Buffer{nil, offs}, []arrow.ArrayData{st}, 0, 0)
	key, headers = array.MakeFromData(kd), array.MakeFromData(ld)
	for _, d := range []*array.Data{kd, names, vals, st, ld} {
		d.Release() // the arrays hold what they need
	}
	offs.Release()
	k.reset()
	return key, headers
}

// Release frees the builders' scratch.
func (k *KeyColumns) Release() {
	k.keyData, k.keyOffs, k.keyValid, k.hdrOffs = nil, nil, nil, nil
	k.nameData, k.nameOffs, k.valData, k.valOffs, k.valValid = nil, nil, nil, nil, nil
}

// Attach returns one keyed batch: the columns of values, then the key and
// headers columns of the rows appended since the last batch (which
// starts the next one). It takes values over: the caller releases only
// the batch returned. values must have exactly Len rows (it panics
// otherwise: that is a programming error of the path, not bad data).
func (k *KeyColumns) Attach(values arrow.RecordBatch) arrow.RecordBatch {
	defer values.Release()
	if int64(k.n) != values.NumRows() {
		panic(fmt.Sprintf("workloads: KeyColumns.Attach: %d key rows for %d value rows", k.n, values.NumRows()))
	}
	if vs := values.Schema(); vs != k.values {
		k.values, k.keyed = vs, KeyedSchema(vs)
	}
	key, hdrs := k.NewColumns()
	defer key.Release()
	defer hdrs.Release()
	k.cols = append(append(k.cols[:0], values.Columns()...), key, hdrs)
	rec := array.NewRecordBatch(k.keyed, k.cols, values.NumRows())
	clear(k.cols)
	return rec
}
