package ceiling

import (
	"encoding/binary"
	"fmt"
)

// The v2 record batch header (KIP-98), the only part of a batch Read looks
// at. Offsets are from the batch's first byte; all fields are big-endian.
const (
	offBaseOffset      = 0  // int64
	offBatchLength     = 8  // int32: the bytes after this field
	offMagic           = 16 // int8: 2
	offAttributes      = 21 // int16
	offLastOffsetDelta = 23 // int32
	offRecordCount     = 57 // int32
	batchHeaderLen     = 61
	batchLogOverhead   = 12 // baseOffset and batchLength precede what batchLength counts

	attrCodecMask = 0x07 // bits 0-2: compression codec
	attrControl   = 0x20 // bit 5: a control batch (transaction marker)
)

// codecNames are Kafka's compression codec ids 0..4 by name.
var codecNames = [...]string{"none", "gzip", "snappy", "lz4", "zstd"}

// tally is what one partition's RecordBatches held in the range being read:
// counts of the complete batches in [from, stop) and the offset to fetch
// next.
type tally struct {
	records, control int64 // records in data batches, in control batches
	bytes, batches   int64 // wire bytes (12+batchLength) and count of batches
	codecs           [len(codecNames)]int64
	// next is the fetch offset after the last complete batch in range
	// (from if there was none).
	next int64
	// past is set when a batch at or after stop was seen: nothing in
	// [next, stop) remains, the partition is finished.
	past bool
}

// walk reads the record batch headers in b, the RecordBatches of one
// partition of a Fetch response fetched at offset from, and counts the
// batches in [from, stop). It never decodes a record, decompresses or
// checks a CRC.
//
// A truncated trailing batch (the broker cut the response at a size limit)
// ends the walk uncounted; it is fetched again from next. A batch that
// starts at or after stop ends the walk (past). A batch that straddles from
// or stop cannot be counted without decoding its records and is an error,
// as is anything that is not a v2 batch header.
func walk(b []byte, from, stop int64) (tally, error) {
	t := tally{next: from}
	for len(b) >= batchLogOverhead {
		base := int64(binary.BigEndian.Uint64(b[offBaseOffset:]))
		length := int32(binary.BigEndian.Uint32(b[offBatchLength:]))
		if length < batchHeaderLen-batchLogOverhead {
			return t, fmt.Errorf("batch at offset %d: length %d is shorter than a v2 batch header", base, length)
		}
		size := batchLogOverhead + int64(length)
		if int64(len(b)) < size {
			break // truncated at the response's size limit: fetched again
		}
		batch := b[:size]
		b = b[size:]
		if magic := batch[offMagic]; magic != 2 {
			return t, fmt.Errorf("batch at offset %d: magic %d, only v2 record batches are counted", base, magic)
		}
		attrs := binary.BigEndian.Uint16(batch[offAttributes:])
		delta := int32(binary.BigEndian.Uint32(batch[offLastOffsetDelta:]))
		count := int32(binary.BigEndian.Uint32(batch[offRecordCount:]))
		if delta < 0 || count < 0 {
			return t, fmt.Errorf("batch at offset %d: last offset delta %d, record count %d", base, delta, count)
		}
		last := base + int64(delta)
		switch {
		case last < t.next:
			continue // wholly before the fetch offset: not in range
		case base < t.next:
			return t, fmt.Errorf("batch %d..%d starts before the fetch offset %d (records deleted inside a batch?): it cannot be counted without decoding", base, last, t.next)
		case base >= stop:
			t.past = true // appended after the stop was captured: out of range
			return t, nil
		case last >= stop:
			return t, fmt.Errorf("batch %d..%d extends past the stop %d: the topic grew during the read", base, last, stop)
		}
		codec := attrs & attrCodecMask
		if int(codec) >= len(codecNames) {
			return t, fmt.Errorf("batch at offset %d: unknown compression codec %d", base, codec)
		}
		t.codecs[codec]++
		if attrs&attrControl != 0 {
			t.control += int64(count)
		} else {
			t.records += int64(count)
		}
		t.bytes += size
		t.batches++
		t.next = last + 1
		if t.next >= stop {
			return t, nil
		}
	}
	return t, nil
}
