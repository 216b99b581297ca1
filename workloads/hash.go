package workloads

import (
	"encoding/binary"
	"math/bits"
	"sync"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// Row hashes for the consume paths' correctness checks. A row hash folds the
// column values in column order (so it detects values moved between columns
// or rows); a batch checksum is the wrapping sum of its row hashes (so it does
// not depend on row order). Everything here is a fixed function of the
// values: hashes agree across processes, machines and runs.

// Mixing constants (64-bit primes in the style of xxHash64).
const (
	hp1 uint64 = 0x9E3779B185EBCA87
	hp2 uint64 = 0xC2B2AE3D27D4EB4F
	hp3 uint64 = 0x165667B19E3779F9
	hp4 uint64 = 0x85EBCA77C2B2AE63
	hp5 uint64 = 0x27D4EB2F165667C5

	hashNull uint64 = 0x6E756C6C6E756C6C // stands for a null value
)

// HashVersion names the row hash function. It changes whenever any value's
// hash does, and whatever stores hashes (the rung's per-run cache) keys
// them by it, so a run resumed by a newer binary recomputes them. 2: long
// binary values through 128-bit multiplies.
const HashVersion = 2

// rowSeed starts a row hash of a schema with n columns.
func rowSeed(n int) uint64 { return hp5 + uint64(n)*hp3 }

// fold adds one column value hash to a row hash state.
func fold(h, v uint64) uint64 {
	h ^= v * hp2
	return bits.RotateLeft64(h, 31) * hp1
}

// avalanche finishes a hash so every input bit affects every output bit.
func avalanche(h uint64) uint64 {
	h ^= h >> 33
	h *= hp2
	h ^= h >> 29
	h *= hp3
	h ^= h >> 32
	return h
}

// hashBytes hashes a string or binary value. Up to 32 bytes, 8-byte words
// are folded in, the last one loaded overlapping the previous (the length
// is in the seed, so that stays unambiguous). A longer value (a raw
// payload) takes 16 bytes per step into one 64x64->128-bit multiply, in the
// style of wyhash, the last 16 loaded overlapping: a third of the steps,
// each shorter, which matters because the rung hashes every byte of every
// row inside the measured window. The row hash avalanches the result.
func hashBytes(b []byte) uint64 {
	n := len(b)
	h := hp5 ^ uint64(n)*hp1
	switch {
	case n > 32:
		last := b[n-16:]
		for len(b) > 16 {
			h = step16(h, b)
			b = b[16:]
		}
		h = last16(h, last)
	case n > 8:
		last := binary.LittleEndian.Uint64(b[n-8:])
		for len(b) > 8 {
			h = fold(h, binary.LittleEndian.Uint64(b))
			b = b[8:]
		}
		h = fold(h, last)
	case n >= 4:
		h = fold(h, uint64(binary.LittleEndian.Uint32(b))|uint64(binary.LittleEndian.Uint32(b[n-4:]))<<32)
	case n > 0:
		h = fold(h, uint64(b[0])|uint64(b[n/2])<<8|uint64(b[n-1])<<16)
	}
	return h ^ h>>29
}

// step16 folds the 16 bytes at the start of b into a long value's hash
// state; last16 folds its last 16 bytes (b, loaded before the steps, as
// they may overlap the last step's) and ends it.
func step16(h uint64, b []byte) uint64 {
	return mum(binary.LittleEndian.Uint64(b)^hp2, binary.LittleEndian.Uint64(b[8:16])^h)
}

func last16(h uint64, b []byte) uint64 {
	return mum(binary.LittleEndian.Uint64(b)^hp3, binary.LittleEndian.Uint64(b[8:16])^h)
}

// hashLong2 is hashBytes of two values longer than 32 bytes at once: the
// two multiply chains are independent, so the core runs them side by side.
func hashLong2(a, b []byte) (uint64, uint64) {
	ha, hb := hp5^uint64(len(a))*hp1, hp5^uint64(len(b))*hp1
	la, lb := a[len(a)-16:], b[len(b)-16:]
	for len(a) > 16 && len(b) > 16 {
		ha, hb = step16(ha, a), step16(hb, b)
		a, b = a[16:], b[16:]
	}
	for ; len(a) > 16; a = a[16:] {
		ha = step16(ha, a)
	}
	for ; len(b) > 16; b = b[16:] {
		hb = step16(hb, b)
	}
	ha, hb = last16(ha, la), last16(hb, lb)
	return ha ^ ha>>29, hb ^ hb>>29
}

// mum multiplies a and b to 128 bits and folds the halves together.
func mum(a, b uint64) uint64 {
	hi, lo := bits.Mul64(a, b)
	return hi ^ lo
}

// hashString hashes s exactly as hashBytes hashes its bytes, without a copy.
func hashString(s string) uint64 {
	return hashBytes(unsafe.Slice(unsafe.StringData(s), len(s)))
}

// HashRow is the hash of a Go row under schema s; it equals RowHash of the
// same row in Arrow. For a raw schema it hashes r.Payload only.
func HashRow(s *Schema, r *Row) uint64 {
	return avalanche(foldRow(rowSeed(len(s.cols)), s, r))
}

// foldRow folds the values of r's columns under s into the row hash
// state h.
func foldRow(h uint64, s *Schema, r *Row) uint64 {
	for _, c := range s.cols {
		switch c.kind {
		case kindInt64, kindTimestamp:
			h = fold(h, uint64(*r.intField(c.field)))
		case kindString:
			h = fold(h, hashString(*r.strField(c.field)))
		case kindBinary:
			h = fold(h, hashBytes(r.Payload))
		}
	}
	return h
}

// NullRowHash is RowHash of a tombstone's all-null row under schema s
// (a keyed corpus's tombstone keeps its key and headers: Corpus.NullHash).
func NullRowHash(s *Schema) uint64 {
	h := rowSeed(len(s.cols))
	for range s.cols {
		h = fold(h, hashNull)
	}
	return avalanche(h)
}

// RowHash is the hash of row i of rec. A list value hashes its items in
// order and a struct value its fields (the headers column of a keyed
// batch, KeyedSchema); columns of types the lab does not use hash as a
// constant.
func RowHash(rec arrow.RecordBatch, i int) uint64 {
	cols := rec.Columns()
	h := rowSeed(len(cols))
	for _, col := range cols {
		h = fold(h, valueHash(col, i))
	}
	return avalanche(h)
}

func valueHash(col arrow.Array, i int) uint64 {
	if col.IsNull(i) {
		return hashNull
	}
	switch a := col.(type) {
	case *array.Int64:
		return uint64(a.Value(i))
	case *array.Timestamp:
		return uint64(a.Value(i))
	case *array.String:
		return hashString(a.Value(i))
	case *array.Binary:
		return hashBytes(a.Value(i))
	case *array.List:
		from, to := a.ValueOffsets(i)
		items := a.ListValues()
		h := listSeed(int(to - from))
		for j := from; j < to; j++ {
			h = fold(h, valueHash(items, int(j)))
		}
		return avalanche(h)
	case *array.Struct:
		h := structSeed(a.NumField())
		for f := range a.NumField() {
			h = fold(h, valueHash(a.Field(f), i))
		}
		return avalanche(h)
	}
	return 0
}

// listSeed starts the hash of a list of n items; structSeed that of a
// struct of n fields.
func listSeed(n int) uint64   { return hp4 ^ uint64(n)*hp1 }
func structSeed(n int) uint64 { return hp3 ^ uint64(n)*hp2 }

// BatchChecksum is the wrapping sum of RowHash over every row of rec. It
// works column by column, which is several times faster than calling
// RowHash per row.
func BatchChecksum(rec arrow.RecordBatch) uint64 {
	n := int(rec.NumRows())
	if n == 0 {
		return 0
	}
	cols := rec.Columns()
	sp := statePool.Get().(*[]uint64)
	defer statePool.Put(sp)
	if cap(*sp) < n {
		*sp = make([]uint64, n)
	}
	st := (*sp)[:n]
	seed := rowSeed(len(cols))
	for i := range st {
		st[i] = seed
	}
	for _, col := range cols {
		foldColumn(st, col)
	}
	var sum uint64
	for _, h := range st {
		sum += avalanche(h)
	}
	return sum
}

var statePool = sync.Pool{New: func() any { return new([]uint64) }}

// foldColumn folds every value of col into the row states st.
func foldColumn(st []uint64, col arrow.Array) {
	if col.NullN() > 0 {
		for i := range st {
			st[i] = fold(st[i], valueHash(col, i))
		}
		return
	}
	switch a := col.(type) {
	case *array.Int64:
		for i, v := range a.Int64Values()[:len(st)] {
			st[i] = fold(st[i], uint64(v))
		}
	case *array.Timestamp:
		for i, v := range a.TimestampValues()[:len(st)] {
			st[i] = fold(st[i], uint64(v))
		}
	case *array.String:
		foldVarlen(st, a.ValueOffsets(), a.ValueBytes())
	case *array.Binary:
		foldVarlen(st, a.ValueOffsets(), a.ValueBytes())
	case *array.List:
		foldList(st, a)
	default: // unknown types hash as 0 (valueHash)
		for i := range st {
			st[i] = fold(st[i], valueHash(col, i))
		}
	}
}

// foldVarlen folds the values of a string or binary column without nulls,
// read straight from its offsets and data (data starting at offs[0], as
// ValueBytes gives it): a Value call per row costs as much as hashing a
// short value. It walks the column's two halves side by side, row i with
// row i+n/2: two independent multiply chains for the core to overlap, and
// two sequential streams for the prefetcher, which matters when the rung
// meets a batch whose payloads have left the caches (BenchmarkChecksum's
// batch-cold: 28 -> 16 ns/row on raw). The hashes are hashBytes's.
func foldVarlen(st []uint64, offs []int32, data []byte) {
	offs = offs[:len(st)+1]
	base := offs[0]
	half := len(st) / 2
	for i := 0; i < half; i++ {
		j := i + half
		f, m := offs[i]-base, offs[i+1]-base
		g, t := offs[j]-base, offs[j+1]-base
		if m-f <= 32 || t-g <= 32 {
			st[i] = fold(st[i], hashBytes(data[f:m]))
			st[j] = fold(st[j], hashBytes(data[g:t]))
			continue
		}
		ha, hb := hashLong2(data[f:m], data[g:t])
		st[i], st[j] = fold(st[i], ha), fold(st[j], hb)
	}
	if i := 2 * half; i < len(st) {
		st[i] = fold(st[i], hashBytes(data[offs[i]-base:offs[i+1]-base]))
	}
}

// foldList folds a list column (a keyed batch's headers) into the row
// states: every row's value is valueHash's, but the items are hashed
// column by column first, not one interface call per item and field.
func foldList(st []uint64, a *array.List) {
	off := a.Data().Offset()
	offs := a.Offsets()[off : off+len(st)+1]
	from, to := int(offs[0]), int(offs[len(st)])
	sp := statePool.Get().(*[]uint64)
	defer statePool.Put(sp)
	if cap(*sp) < to-from {
		*sp = make([]uint64, to-from)
	}
	items := (*sp)[:to-from]
	hashItems(items, a.ListValues(), from)
	for i := range st {
		if a.IsNull(i) {
			st[i] = fold(st[i], hashNull)
			continue
		}
		h := listSeed(int(offs[i+1] - offs[i]))
		for _, ih := range items[int(offs[i])-from : int(offs[i+1])-from] {
			h = fold(h, ih)
		}
		st[i] = fold(st[i], avalanche(h))
	}
}

// hashItems sets dst[j] to valueHash(col, from+j): a struct's fields
// column by column, the lab's value types directly, anything else one by
// one.
func hashItems(dst []uint64, col arrow.Array, from int) {
	nulls := col.NullN() > 0
	switch a := col.(type) {
	case *array.Struct:
		for j := range dst {
			dst[j] = structSeed(a.NumField())
		}
		sp := statePool.Get().(*[]uint64)
		defer statePool.Put(sp)
		if cap(*sp) < len(dst) {
			*sp = make([]uint64, len(dst))
		}
		fh := (*sp)[:len(dst)]
		for f := range a.NumField() {
			hashItems(fh, a.Field(f), from)
			for j := range dst {
				dst[j] = fold(dst[j], fh[j])
			}
		}
		for j := range dst {
			dst[j] = avalanche(dst[j])
			if nulls && a.IsNull(from+j) {
				dst[j] = hashNull
			}
		}
	case *array.String:
		for j := range dst {
			if nulls && a.IsNull(from+j) {
				dst[j] = hashNull
			} else {
				dst[j] = hashString(a.Value(from + j))
			}
		}
	case *array.Binary:
		for j := range dst {
			if nulls && a.IsNull(from+j) {
				dst[j] = hashNull
			} else {
				dst[j] = hashBytes(a.Value(from + j))
			}
		}
	default:
		for j := range dst {
			dst[j] = valueHash(col, from+j)
		}
	}
}
