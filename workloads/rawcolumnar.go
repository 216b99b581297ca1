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
// the allocator did. Its Direct side goes further: the client copies the
// payloads into the data itself (Tail), and appending them copies nothing.
//
// The data of consecutive batches lies back to back in an arena, a large
// buffer that outlives a batch: each batch's data buffer is a slice of it
// (memory.SliceBuffer), which holds the arena until the batch is released,
// so a tail handed to the client may take payloads for several batches.
// The batch it emits is the binary array a BinaryBuilder would build from
// the same appends.
type rawColumnar struct {
	schema *Schema
	mem    memory.Allocator
	// dataMem allocates the arenas: mem, without zeroing when mem can
	// (every byte of the data that is read was copied in first)
	dataMem memory.Allocator

	offs  *memory.Buffer // int32 offsets: n+1 of them once n > 0
	valid *memory.Buffer // nil while every row is valid
	n     int
	nulls int

	// arena holds the batch's data from base, used bytes of it written;
	// nil until data first arrives
	arena      *memory.Buffer
	base, used int

	// the previous batch's rows, reserved up front for the next
	lastRows int
}

var (
	_ Columnar = (*rawColumnar)(nil)
	_ Direct   = (*rawColumnar)(nil)
)

// arenaMin is the smallest arena: room for one crossing of the fast
// path's drain at its usual backlog (100k messages of ~100 bytes) and a
// few batches, so batches rarely straddle two arenas.
const arenaMin = 16 << 20

func newRawColumnar(s *Schema, mem memory.Allocator) *rawColumnar {
	c := &rawColumnar{schema: s, mem: mem, dataMem: mem}
	if nz, ok := mem.(NoZeroAllocator); ok {
		c.dataMem = noZero{mem, nz}
	}
	return c
}

// noZero is an allocator whose fresh allocations are not zeroed; resizing
// and freeing are its underlying allocator's.
type noZero struct {
	memory.Allocator
	nz NoZeroAllocator
}

func (a noZero) Allocate(size int) []byte { return a.nz.AllocateNoZero(size) }

func (c *rawColumnar) Len() int { return c.n }

// start allocates an empty batch's offsets, sized like the previous batch.
func (c *rawColumnar) start() {
	rows := max(c.lastRows, 64)
	c.offs = memory.NewResizableBuffer(c.mem)
	c.offs.Reserve((rows + 1) * arrow.Int32SizeBytes)
	c.offsets()[0] = 0
}

// offsets is the offsets buffer's capacity as int32s.
func (c *rawColumnar) offsets() []int32 {
	return arrow.Int32Traits.CastFromBytes(c.offs.Buf())
}

// free is the arena's room after the batch's data.
func (c *rawColumnar) free() int {
	if c.arena == nil {
		return 0
	}
	return c.arena.Len() - c.base - c.used
}

// grow makes room for rows more rows and bytes more data. Data that does
// not fit moves the batch to a new arena, twice the size it needs at
// least, its data so far copied over.
func (c *rawColumnar) grow(rows, bytes int) {
	if c.offs == nil {
		c.start()
	}
	if need := (c.n + rows + 1) * arrow.Int32SizeBytes; need > c.offs.Cap() {
		c.offs.Reserve(max(need, 2*c.offs.Cap()))
	}
	if bytes > c.free() {
		a := memory.NewResizableBuffer(c.dataMem)
		a.Resize(max(arenaMin, 2*(c.used+bytes)))
		if c.arena != nil {
			copy(a.Buf(), c.arena.Buf()[c.base:c.base+c.used])
			c.arena.Release()
		}
		c.arena, c.base = a, 0
	}
	if c.valid != nil {
		if need := int(bitutil.BytesForBits(int64(c.n + rows))); need > c.valid.Cap() {
			c.valid.Reserve(max(need, 2*c.valid.Cap()))
		}
	}
}

// data is the arena from where the next row's data goes.
func (c *rawColumnar) data() []byte { return c.arena.Buf()[c.base+c.used:] }

func (c *rawColumnar) Append(msg []byte) error {
	c.grow(1, len(msg))
	if len(msg) > 0 {
		copy(c.data(), msg)
	}
	c.used += len(msg)
	c.n++
	c.offsets()[c.n] = int32(c.used)
	if c.valid != nil {
		bitutil.SetBit(c.valid.Buf(), c.n-1)
	}
	return nil
}

// Tail returns the arena's free room, at least bytes long: the client may
// fill it with payloads for this batch and the next ones.
func (c *rawColumnar) Tail(bytes int) []byte {
	c.grow(0, max(bytes, 1))
	return c.data()
}

// AppendBulk appends the payloads buf[start:ends[0]], buf[ends[0]:ends[1]],
// ... with one copy, or none when they already lie where the data goes (a
// Tail the client wrote to).
func (c *rawColumnar) AppendBulk(buf []byte, start uint32, ends []uint32) (int, error) {
	n := len(ends)
	if n == 0 {
		return 0, nil
	}
	size := int(ends[n-1] - start)
	c.grow(n, size)
	if dst, src := c.data(), buf[start:ends[n-1]]; size > 0 && &dst[0] != &src[0] {
		copy(dst, src) // a memmove: src may lie further on in the tail
	}
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

// NewRecordBatch hands the offsets and validity to a record batch with
// its slice of the arena, and starts the next batch where this one's data
// ends.
func (c *rawColumnar) NewRecordBatch() arrow.RecordBatch {
	if c.offs == nil {
		c.start()
	}
	c.offs.ResizeNoShrink((c.n + 1) * arrow.Int32SizeBytes)
	if c.valid != nil {
		c.valid.ResizeNoShrink(int(bitutil.BytesForBits(int64(c.n))))
	}
	var data *memory.Buffer
	if c.arena != nil {
		data = memory.SliceBuffer(c.arena, c.base, c.used)
	} else {
		data = memory.NewBufferBytes([]byte{})
	}
	d := array.NewData(arrow.BinaryTypes.Binary, c.n, []*memory.Buffer{c.valid, c.offs, data}, nil, c.nulls, 0)
	data.Release()
	col := array.NewBinaryData(d)
	d.Release()
	rec := array.NewRecordBatch(c.schema.Arrow, []arrow.Array{col}, int64(c.n))
	col.Release()
	c.lastRows = c.n
	c.base += c.used
	c.used = 0
	c.releaseBatch()
	return rec
}

// releaseBatch drops the batch's offsets and validity (a record batch holds
// its own references) and empties the columnar; the arena stays.
func (c *rawColumnar) releaseBatch() {
	for _, b := range []*memory.Buffer{c.offs, c.valid} {
		if b != nil {
			b.Release()
		}
	}
	c.offs, c.valid = nil, nil
	c.n, c.nulls = 0, 0
}

// Release drops the batch and the columnar's hold on its arena (batches
// still out keep theirs).
func (c *rawColumnar) Release() {
	c.releaseBatch()
	if c.arena != nil {
		c.arena.Release()
	}
	c.arena, c.base, c.used = nil, 0, 0
}
