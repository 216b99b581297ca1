package workloads

import (
	"errors"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// ErrParse marks a message that a decoder could not parse. Decoders wrap it,
// so callers count parse failures with errors.Is(err, ErrParse).
var ErrParse = errors.New("parse error")

// Codec is one wire format for one schema: how corpus records are encoded,
// and the two decoders the consume paths use.
type Codec interface {
	Format() Format
	Schema() *Schema

	// Encode appends the encoding of r to dst and returns the extended slice.
	Encode(dst []byte, r *Row) []byte

	// NewColumnar returns a columnar decoder whose Arrow buffers come from mem.
	NewColumnar(mem memory.Allocator) Columnar

	// DecodeRow decodes one message into a Go row (the rowwise rung). It may
	// allocate; that per-record cost is what the rowwise rung measures.
	DecodeRow(msg []byte, r *Row) error
}

// Columnar decodes messages straight into Arrow columns. Append must not
// allocate Go memory per message once warm (strings are appended from byte
// views, never converted to Go strings).
type Columnar interface {
	// Append decodes one message and appends exactly one row. A message that
	// does not parse appends nothing and returns an error wrapping ErrParse.
	Append(msg []byte) error
	// AppendNull appends one row whose every column is null: a record whose
	// Kafka value is null (a tombstone). Every column of every format's
	// Arrow schema is nullable, and no corpus record decodes to an all-null
	// row, so a tombstone stays recognisable and is never taken for data.
	AppendNull()
	// Len is the number of rows appended since the last NewRecordBatch.
	Len() int
	// NewRecordBatch returns the rows appended so far and starts an empty batch.
	NewRecordBatch() arrow.RecordBatch
	// Release frees a batch in progress.
	Release()
}

// RowBuilder transposes Go rows into Arrow (the rowwise rung's second half).
type RowBuilder interface {
	Add(r *Row)
	// AddNull adds a tombstone's all-null row (see Columnar.AppendNull).
	AddNull()
	Len() int
	NewRecordBatch() arrow.RecordBatch
	Release()
}

// Bulk is implemented by columnar decoders that can take many messages laid
// out back to back, as the fast path's drain buffer holds them, in one call
// instead of one call per message.
type Bulk interface {
	// AppendBulk appends one row per message: message i is
	// buf[ends[i-1]:ends[i]], and message 0 starts at start. It returns the
	// rows appended; a message that does not parse stops it there, with an
	// error wrapping ErrParse, and appends nothing for that message.
	AppendBulk(buf []byte, start uint32, ends []uint32) (int, error)
}

// Direct is implemented by bulk decoders whose column holds each payload
// as it is (raw): a reader may have the client copy payloads straight into
// the column's data buffer (Tail), then append them with AppendBulk from
// that very buffer, which copies nothing when they lie where the next row's
// data goes.
type Direct interface {
	Bulk
	// Tail makes room for at least bytes more data and returns the data
	// buffer's free tail, from where the next row's data goes. It is valid
	// until the next Tail or NewRecordBatch; AppendBulk of payloads in it
	// never moves it.
	Tail(bytes int) []byte
}

// NoZeroAllocator is implemented by allocators that can hand out memory
// without zeroing it first (a pool of released buffers). A columnar uses
// it only for a buffer whose every byte it reads it has written.
type NoZeroAllocator interface {
	AllocateNoZero(size int) []byte
}
