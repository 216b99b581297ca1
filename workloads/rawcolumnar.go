package workloads

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// rawColumnar is the raw format's Columnar: it writes the binary column's
// offsets, data and (once a tombstone arrives) validity buffers itself
// instead of going through a BinaryBuilder. Its Bulk side is the point:
// payloads that arrive back to back (a drain buffer) are copied with one
// copy per run and their offsets shifted, where a builder takes a call, an
// offset append and a copy per message and zeroes its growth again after
// the allocator did. The batch it emits is the binary array a
// BinaryBuilder would build from the same appends.
type rawColumnar struct {
	schema *Schema
	mem    memory.Allocator

	offs  *memory.Buffer // int32 offsets: n+1 of them once n > 0
	data  *memory.Buffer
	valid *memory.Buffer // nil while every row is valid
	n     int
	nulls int
	used  int // bytes of data written

	// the previous batch's shape, reserved up front for the next
	lastRows, lastData int
}

var (
	_ Columnar = (*rawColumnar)(nil)
	_ Bulk     = (*rawColumnar)(nil)
)

func newRawColumnar(s *Schema, mem memory.Allocator) *rawColumnar {
	return &rawColumnar{schema: s, mem: mem}
}

func (c *rawColumnar) Len() int { return c.n }

// start allocates an empty batch's buffers, sized like the previous batch
// (its data an eighth more: payloads vary, and outgrowing the reservation
// by a byte copies the whole buffer).
func (c *rawColumnar) start() {
	rows := max(c.lastRows, 64)
	c.offs = memory.NewResizableBuffer(c.mem)
	c.offs.Reserve((rows + 1) * arrow.Int32SizeBytes)
	c.data = memory.NewResizableBuffer(c.mem)
	c.data.Reserve(max(c.lastData+c.lastData/8, 1024))
	c.offsets()[0] = 0
}

// offsets is the offsets buffer's capacity as int32s.
func (c *rawColumnar) offsets() []int32 {
	return arrow.Int32Traits.CastFromBytes(c.offs.Buf())
}

// grow makes room for rows more rows and bytes more data.
func (c *rawColumnar) grow(rows, bytes int) {
	if c.offs == nil {
		c.start()
	}
	if need := (c.n + rows + 1) * arrow.Int32SizeBytes; need > c.offs.Cap() {
		c.offs.Reserve(max(need, 2*c.offs.Cap()))
	}
	if need := c.used + bytes; need > c.data.Cap() {
		c.data.Reserve(max(need, 2*c.data.Cap()))
	}
	if c.valid != nil {
		if need := int(bitutil.BytesForBits(int64(c.n + rows))); need > c.valid.Cap() {
			c.valid.Reserve(max(need, 2*c.valid.Cap()))
		}
	}
}

func (c *rawColumnar) Append(msg []byte) error {
	c.grow(1, len(msg))
	copy(c.data.Buf()[c.used:], msg)
	c.used += len(msg)
	c.n++
	c.offsets()[c.n] = int32(c.used)
	if c.valid != nil {
		bitutil.SetBit(c.valid.Buf(), c.n-1)
	}
	return nil
}

// AppendBulk appends the payloads buf[start:ends[0]], buf[ends[0]:ends[1]],
// ... with one copy.
func (c *rawColumnar) AppendBulk(buf []byte, start uint32, ends []uint32) (int, error) {
	n := len(ends)
	if n == 0 {
		return 0, nil
	}
	size := int(ends[n-1] - start)
	c.grow(n, size)
	copy(c.data.Buf()[c.used:], buf[start:ends[n-1]])
	offs := c.offsets()[c.n+1 : c.n+1+n]
	shift := int32(c.used) - int32(start)
	for i, e := range ends {
		offs[i] = int32(e) + shift
	}
	if c.valid != nil {
		bitutil.SetBitsTo(c.valid.Buf(), int64(c.n), int64(n), true)
	}
	c.used += size
	c.n += n
	return n, nil
}

// AppendNull appends a tombstone's null row; the first one brings in the
// validity bitmap, every earlier row valid.
func (c *rawColumnar) AppendNull() {
	c.grow(1, 0)
	if c.valid == nil {
		c.valid = memory.NewResizableBuffer(c.mem)
		c.valid.Reserve(int(bitutil.BytesForBits(int64(max(c.offs.Cap()/arrow.Int32SizeBytes, c.n+1)))))
		bitutil.SetBitsTo(c.valid.Buf(), 0, int64(c.n), true)
	}
	bitutil.ClearBit(c.valid.Buf(), c.n)
	c.n++
	c.offsets()[c.n] = int32(c.used)
	c.nulls++
}

// NewRecordBatch hands the buffers to a record batch and starts afresh.
func (c *rawColumnar) NewRecordBatch() arrow.RecordBatch {
	if c.offs == nil {
		c.start()
	}
	c.offs.ResizeNoShrink((c.n + 1) * arrow.Int32SizeBytes)
	c.data.ResizeNoShrink(c.used)
	if c.valid != nil {
		c.valid.ResizeNoShrink(int(bitutil.BytesForBits(int64(c.n))))
	}
	data := array.NewData(arrow.BinaryTypes.Binary, c.n, []*memory.Buffer{c.valid, c.offs, c.data}, nil, c.nulls, 0)
	col := array.NewBinaryData(data)
	data.Release()
	rec := array.NewRecordBatch(c.schema.Arrow, []arrow.Array{col}, int64(c.n))
	col.Release()
	c.lastRows, c.lastData = c.n, c.used
	c.release()
	return rec
}

// release drops the batch's buffers (a record batch holds its own
// references) and empties the columnar.
func (c *rawColumnar) release() {
	for _, b := range []*memory.Buffer{c.offs, c.data, c.valid} {
		if b != nil {
			b.Release()
		}
	}
	c.offs, c.data, c.valid = nil, nil, nil
	c.n, c.nulls, c.used = 0, 0, 0
}

func (c *rawColumnar) Release() { c.release() }
