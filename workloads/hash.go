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

// hashBytes hashes a string or binary value: 8-byte words folded in, the
// last one loaded overlapping the previous (the length is in the seed, so
// that stays unambiguous). The row hash avalanches the result.
func hashBytes(b []byte) uint64 {
	n := len(b)
	h := hp5 ^ uint64(n)*hp1
	switch {
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

// hashString hashes s exactly as hashBytes hashes its bytes, without a copy.
func hashString(s string) uint64 {
	return hashBytes(unsafe.Slice(unsafe.StringData(s), len(s)))
}

// HashRow is the hash of a Go row under schema s; it equals RowHash of the
// same row in Arrow. For a raw schema it hashes r.Payload only.
func HashRow(s *Schema, r *Row) uint64 {
	h := rowSeed(len(s.cols))
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
	return avalanche(h)
}

// NullRowHash is RowHash of a tombstone's all-null row under schema s.
func NullRowHash(s *Schema) uint64 {
	h := rowSeed(len(s.cols))
	for range s.cols {
		h = fold(h, hashNull)
	}
	return avalanche(h)
}

// RowHash is the hash of row i of rec. Columns of types the schemas do not
// use hash as a constant.
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
	}
	return 0
}

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
		for i := range st {
			st[i] = fold(st[i], hashString(a.Value(i)))
		}
	case *array.Binary:
		for i := range st {
			st[i] = fold(st[i], hashBytes(a.Value(i)))
		}
	default:
		for i := range st {
			st[i] = fold(st[i], 0)
		}
	}
}
