package workloads

import (
	"fmt"
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// colWriter writes a decoded format's rows straight into Arrow buffers,
// the write path of every decoded Columnar (columnar). Arrow's builders
// spent a third to a half of a lab decoder's time (docs/optimizations.md,
// "Decoders: where the time goes"): a call per value, a validity bit set
// per value although no row is null, and growth zeroed by the builder after
// the allocator zeroed it. Here a fixed-width value is one store, a string
// one copy and one offset; the validity bitmap, shared by all columns
// (a null row is a tombstone, null in every column), exists only once a
// null row arrives; and a batch's buffers are sized like the previous
// batch's, grown by doubling when a batch outgrows them. The batch it
// emits is the record a RecordBuilder would build from the same appends.
type colWriter struct {
	schema *Schema
	mem    memory.Allocator
	// dataMem allocates the string bytes and fixed-width values: mem,
	// without zeroing when mem can (every byte read was written first)
	dataMem memory.Allocator

	vals [maxColumns]*memory.Buffer // int64 values, or int32 offsets (rows+1)
	data [maxColumns]*memory.Buffer // string and binary bytes
	used [maxColumns]int            // bytes of data written
	ints [maxColumns][]int64        // vals as int64s (fixed-width columns)
	offs [maxColumns][]int32        // vals as int32s (string and binary)
	byts [maxColumns][]byte         // data's capacity as bytes
	wide [maxColumns]bool           // the column holds 8-byte values

	valid *memory.Buffer // every column's validity; nil while no row is null
	n     int            // rows written
	rows  int            // rows the buffers hold; 0 until the batch's buffers are allocated
	nulls int

	// the previous batch's rows and data, reserved up front for the next
	lastRows int
	lastData [maxColumns]int
}

// minRows is a first batch's reservation: it grows by doubling from there.
const minRows = 64

// maxColumnData is the most data a string or binary column takes in one
// batch: its offsets are int32. A variable so a test can lower it.
var maxColumnData = math.MaxInt32

func newColWriter(s *Schema, mem memory.Allocator) colWriter {
	w := colWriter{schema: s, mem: mem, dataMem: mem}
	for i, c := range s.cols {
		w.wide[i] = c.kind == kindInt64 || c.kind == kindTimestamp
	}
	if nz, ok := mem.(NoZeroAllocator); ok {
		w.dataMem = noZero{mem, nz}
	}
	return w
}

func (w *colWriter) Len() int { return w.n }

// start allocates an empty batch's buffers, sized like the previous batch:
// its rows, and its data with an eighth more (values vary in length, and a
// batch that outgrows its data by a byte copies all of it).
func (w *colWriter) start() {
	w.rows = max(w.lastRows, minRows)
	for i := range w.schema.cols {
		w.vals[i] = memory.NewResizableBuffer(w.dataMem)
		if !w.wide[i] {
			w.data[i] = memory.NewResizableBuffer(w.dataMem)
			w.data[i].Reserve(max(w.lastData[i]+w.lastData[i]/8, 64))
			w.byts[i] = w.data[i].Buf()
			w.used[i] = 0
		}
	}
	w.reserveRows()
	for i := range w.schema.cols {
		if !w.wide[i] {
			w.offs[i][0] = 0
		}
	}
}

// reserveRows makes every column's values (and the validity, once there is
// one) hold w.rows rows, copying what is written, and refreshes the views.
func (w *colWriter) reserveRows() {
	for i := range w.schema.cols {
		if w.wide[i] {
			w.vals[i].Reserve(w.rows * arrow.Int64SizeBytes)
			w.ints[i] = arrow.Int64Traits.CastFromBytes(w.vals[i].Buf())
		} else {
			w.vals[i].Reserve((w.rows + 1) * arrow.Int32SizeBytes)
			w.offs[i] = arrow.Int32Traits.CastFromBytes(w.vals[i].Buf())
		}
	}
	if w.valid != nil {
		old := w.valid.Cap()
		w.valid.Reserve(int(bitutil.BytesForBits(int64(w.rows))))
		clear(w.valid.Buf()[old:])
	}
}

// room makes room for one more row.
func (w *colWriter) room() {
	if w.rows == 0 {
		w.start()
	}
	if w.n == w.rows {
		w.rows *= 2
		w.reserveRows()
	}
}

// appendRow appends the row parsed into sc from msg. It fails, writing
// nothing, only when a column's data would pass the 2 GiB its int32
// offsets reach.
func (w *colWriter) appendRow(msg []byte, sc *scratch) error {
	w.room()
	n := w.n
	for i := range w.schema.cols {
		if w.wide[i] {
			w.ints[i][n] = sc.ints[i]
			continue
		}
		v := sc.bytes(msg, sc.strs[i])
		end := w.used[i] + len(v)
		if end > len(w.byts[i]) {
			if err := w.growData(i, end); err != nil {
				w.rollback(i)
				return err
			}
		}
		copyShort(w.byts[i][w.used[i]:end], v)
		w.used[i] = end
		w.offs[i][n+1] = int32(end)
	}
	if w.valid != nil {
		bitutil.SetBit(w.valid.Buf(), n)
	}
	w.n++
	return nil
}

// growData makes column i's data hold need bytes, at least doubling it.
func (w *colWriter) growData(i, need int) error {
	if need > maxColumnData {
		return fmt.Errorf("workloads: column %s passes 2 GiB of data in one batch (int32 offsets); use a smaller batch", w.schema.cols[i].name)
	}
	w.data[i].Reserve(min(max(need, 2*w.data[i].Cap()), maxColumnData))
	w.byts[i] = w.data[i].Buf()
	return nil
}

// rollback undoes the string bytes a failed row wrote to the columns
// before column i: each column's data ends where the row began.
func (w *colWriter) rollback(i int) {
	for j := range i {
		if !w.wide[j] {
			w.used[j] = int(w.offs[j][w.n])
		}
	}
}

// zeroAt writes column i's zero value into row n: 0, or an empty string.
func (w *colWriter) zeroAt(i, n int) {
	if w.wide[i] {
		w.ints[i][n] = 0
		return
	}
	w.offs[i][n+1] = int32(w.used[i])
}

// undo drops what a direct write put in the first ncols columns of the
// row being written, and returns false.
func (w *colWriter) undo(ncols int) bool {
	w.rollback(ncols)
	return false
}

// appendNull appends an all-null row; the first one brings in the
// validity bitmap, every earlier row valid.
func (w *colWriter) appendNull() {
	w.room()
	n := w.n
	if w.valid == nil {
		w.valid = memory.NewResizableBuffer(w.mem)
		w.valid.Reserve(int(bitutil.BytesForBits(int64(w.rows))))
		clear(w.valid.Buf())
		bitutil.SetBitsTo(w.valid.Buf(), 0, int64(n), true)
	}
	bitutil.ClearBit(w.valid.Buf(), n)
	for i := range w.schema.cols {
		if w.wide[i] {
			w.ints[i][n] = 0
		} else {
			w.offs[i][n+1] = int32(w.used[i])
		}
	}
	w.nulls++
	w.n++
}

// NewRecordBatch hands the batch's buffers to a record batch (which holds
// its own references) and empties the writer; the next batch's buffers are
// allocated at its first row.
func (w *colWriter) NewRecordBatch() arrow.RecordBatch {
	if w.rows == 0 {
		w.start()
	}
	if w.valid != nil {
		w.valid.ResizeNoShrink(int(bitutil.BytesForBits(int64(w.n))))
	}
	cols := make([]arrow.Array, len(w.schema.cols))
	for i := range w.schema.cols {
		var bufs []*memory.Buffer
		if w.wide[i] {
			w.vals[i].ResizeNoShrink(w.n * arrow.Int64SizeBytes)
			bufs = []*memory.Buffer{w.valid, w.vals[i]}
		} else {
			w.vals[i].ResizeNoShrink((w.n + 1) * arrow.Int32SizeBytes)
			w.data[i].ResizeNoShrink(w.used[i])
			bufs = []*memory.Buffer{w.valid, w.vals[i], w.data[i]}
			w.lastData[i] = w.used[i]
		}
		d := array.NewData(w.schema.Arrow.Field(i).Type, w.n, bufs, nil, w.nulls, 0)
		cols[i] = array.MakeFromData(d)
		d.Release()
	}
	rec := array.NewRecordBatch(w.schema.Arrow, cols, int64(w.n))
	for _, c := range cols {
		c.Release()
	}
	w.lastRows = w.n
	w.releaseBatch()
	return rec
}

// releaseBatch drops the writer's references to the batch's buffers and
// empties it.
func (w *colWriter) releaseBatch() {
	for i := range w.schema.cols {
		for _, b := range []*memory.Buffer{w.vals[i], w.data[i]} {
			if b != nil {
				b.Release()
			}
		}
		w.vals[i], w.data[i], w.ints[i], w.offs[i], w.byts[i], w.used[i] = nil, nil, nil, nil, nil, 0
	}
	if w.valid != nil {
		w.valid.Release()
	}
	w.valid, w.n, w.nulls, w.rows = nil, 0, 0, 0
}

// Release frees a batch in progress.
func (w *colWriter) Release() { w.releaseBatch() }
