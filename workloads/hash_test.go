package workloads

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

func sampleRows(t *testing.T, schema string, n int) (*Schema, []Row) {
	t.Helper()
	c := mustCodec(t, FormatJSON, schema)
	cp := NewCorpus(c.Schema(), c, 5, n)
	rows := make([]Row, n)
	for i := range rows {
		cp.Row(i, &rows[i])
	}
	return c.Schema(), rows
}

func buildBatch(s *Schema, mem memory.Allocator, rows []Row) arrow.RecordBatch {
	b := NewRowBuilder(s, mem)
	defer b.Release()
	for i := range rows {
		b.Add(&rows[i])
	}
	return b.NewRecordBatch()
}

func sumRowHash(rec arrow.RecordBatch) uint64 {
	var sum uint64
	for i := 0; i < int(rec.NumRows()); i++ {
		sum += RowHash(rec, i)
	}
	return sum
}

// TestHashSensitivity: any changed, swapped or moved value changes the hash.
func TestHashSensitivity(t *testing.T) {
	s, rows := sampleRows(t, "bid-wide", 2)
	base := HashRow(s, &rows[0])
	mutations := map[string]func(r *Row){
		"price+1":             func(r *Row) { r.Price++ },
		"swap auction/bidder": func(r *Row) { r.Auction, r.Bidder = r.Bidder, r.Auction },
		"swap channel/url":    func(r *Row) { r.Channel, r.URL = r.URL, r.Channel },
		"move a char":         func(r *Row) { r.Channel, r.URL = r.Channel+r.URL[:1], r.URL[1:] },
		"email last byte":     func(r *Row) { r.Email = r.Email[:len(r.Email)-1] + "x" },
		"date_time-1":         func(r *Row) { r.DateTime-- },
		"empty extra":         func(r *Row) { r.Extra = "" },
		"extra nul":           func(r *Row) { r.Extra += "\x00" },
	}
	for name, mutate := range mutations {
		r := rows[0]
		mutate(&r)
		if HashRow(s, &r) == base {
			t.Errorf("%s: hash unchanged", name)
		}
	}
	// Payload is not part of a logical row, only of a raw one.
	r := rows[0]
	r.Payload = []byte("x")
	if HashRow(s, &r) != base {
		t.Error("Payload changes a logical row's hash")
	}
	if HashRow(s.Raw(), &r) == HashRow(s.Raw(), &rows[0]) {
		t.Error("Payload does not change a raw row's hash")
	}
	// Swapping a value between two rows changes the batch checksum.
	a, b := rows[0], rows[1]
	a.Price, b.Price = b.Price, a.Price
	if HashRow(s, &a)+HashRow(s, &b) == HashRow(s, &rows[0])+HashRow(s, &rows[1]) {
		t.Error("swapping prices between rows leaves the checksum unchanged")
	}
}

// TestHashBytesLengths covers every tail length of hashBytes.
func TestHashBytesLengths(t *testing.T) {
	seen := map[uint64]int{}
	buf := []byte("abcdefghijklmnopqrstuvwxyz0123456789")
	for n := 0; n <= len(buf); n++ {
		h := hashBytes(buf[:n])
		if m, dup := seen[h]; dup {
			t.Errorf("prefixes of length %d and %d collide", m, n)
		}
		seen[h] = n
		if hashString(string(buf[:n])) != h {
			t.Errorf("hashString != hashBytes at length %d", n)
		}
	}
}

// TestBatchChecksum: the columnwise checksum equals the sum of RowHash, for
// slices, nulls and any row order.
func TestBatchChecksum(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	for _, name := range SchemaNames() {
		s, rows := sampleRows(t, name, 300)
		rec := buildBatch(s, mem, rows)
		rev := make([]Row, len(rows))
		for i := range rows {
			rev[len(rows)-1-i] = rows[i]
		}
		recRev := buildBatch(s, mem, rev)
		sum := sumRowHash(rec)
		if got := BatchChecksum(rec); got != sum {
			t.Errorf("%s: BatchChecksum %x, sum of RowHash %x", name, got, sum)
		}
		if got := BatchChecksum(recRev); got != sum {
			t.Errorf("%s: reversed batch checksum %x, want %x", name, got, sum)
		}
		var goSum uint64
		for i := range rows[10:50] {
			goSum += HashRow(s, &rows[10+i])
		}
		slice := rec.NewSlice(10, 50)
		if got := BatchChecksum(slice); got != goSum || sumRowHash(slice) != goSum {
			t.Errorf("%s: slice checksum %x, want %x", name, got, goSum)
		}
		slice.Release()
		rec.Release()
		recRev.Release()
	}
	if got := BatchChecksum(array.NewRecordBatch(builtin.bid.Arrow, nil, 0)); got != 0 {
		t.Errorf("empty batch checksum = %x", got)
	}
}

func TestBatchChecksumNulls(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "i", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "f", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
	}, nil)
	b := array.NewRecordBuilder(mem, schema)
	defer b.Release()
	b.Field(0).(*array.Int64Builder).AppendValues([]int64{1, 0, 3}, []bool{true, false, true})
	b.Field(1).(*array.StringBuilder).AppendValues([]string{"a", "", "c"}, []bool{true, true, false})
	b.Field(2).(*array.Float64Builder).AppendValues([]float64{1, 2, 3}, nil)
	rec := b.NewRecordBatch()
	defer rec.Release()
	if got, want := BatchChecksum(rec), sumRowHash(rec); got != want {
		t.Errorf("BatchChecksum with nulls %x, sum of RowHash %x", got, want)
	}
	if RowHash(rec, 1) == RowHash(rec, 0) || RowHash(rec, 2) == RowHash(rec, 0) {
		t.Error("rows with nulls hash like other rows")
	}
}

// TestFoldVarlenPairs: the paired walk over a varlen column (two rows at a
// time, from its two halves) gives every row the hash hashBytes gives it,
// for odd and even row counts, values on either side of the 32-byte split
// between the short and the long hash, and a column that starts at a
// non-zero offset.
func TestFoldVarlenPairs(t *testing.T) {
	lens := []int{0, 1, 7, 8, 9, 16, 17, 31, 32, 33, 34, 47, 48, 49, 64, 65, 130, 200}
	var data []byte
	for i := range 4096 {
		data = append(data, byte(i*131+i>>3))
	}
	for _, n := range []int{0, 1, 2, 3, 4, 5, 8, 9, 17, 1001} {
		for _, pre := range []int{0, 5} {
			offs := make([]int32, n+1)
			offs[0] = int32(pre)
			for i := range n {
				offs[i+1] = offs[i] + int32(lens[(i*7+n)%len(lens)])
			}
			values := data[pre:]
			if int(offs[n]) > len(data) {
				values = append(append([]byte(nil), data...), make([]byte, int(offs[n])-len(data))...)[pre:]
			}
			got := make([]uint64, n)
			foldVarlen(got, offs, values)
			for i := range n {
				want := fold(0, hashBytes(values[offs[i]-offs[0]:offs[i+1]-offs[0]]))
				if got[i] != want {
					t.Fatalf("%d rows (offset %d): row %d (%d bytes) hashed %x, want %x", n, pre, i, offs[i+1]-offs[i], got[i], want)
				}
			}
		}
	}
}
