package workloads

import (
	"encoding/binary"
	"math/bits"

	"github.com/apache/arrow-go/v18/arrow/bitutil"
)

// protoColumnar is the protobuf Columnar. A message whose fields come as
// the encoder writes them (one-byte tags of the columns' wire types, in
// column order, each at most once, the zero values left out) is written
// straight into the batch's buffers as it is parsed, with no scratch row
// in between: appendDirect. Any other message, and any message that fails
// to parse, is undone and goes through columnar.Append (protoTags.parse
// into the scratch, then colWriter.appendRow), which decides every case
// the direct write leaves to it, errors included.
type protoColumnar struct {
	*columnar
	tags *protoTags
}

func (c *protoColumnar) Append(msg []byte) error {
	if c.appendDirect(msg) {
		return nil
	}
	return c.columnar.Append(msg)
}

// appendDirect writes msg's row into the columns as it parses it and
// reports whether it did; on false nothing is written. A column whose
// field is absent gets its zero value (0, or the empty string), as
// protoTags.parse's reset gives it.
func (c *protoColumnar) appendDirect(msg []byte) bool {
	w := &c.colWriter
	w.room()
	n := w.n
	ncols := len(w.schema.cols)
	next := 0 // the first column not written yet
	for i := 0; i < len(msg); {
		a := c.tags.tag[msg[i]]
		k := int(a&^protoTagString) - 1
		if a == 0 || k < next { // another tag, out of order or repeated
			return w.undo(ncols)
		}
		for ; next < k; next++ {
			w.zeroAt(next, n)
		}
		next = k + 1
		i++
		// The varint and length reads are protoTags.parse's, written out
		// again: as shared functions they do not inline (cost 179 and 108
		// against Go's budget of 80), and a call per field is what this
		// loop exists to avoid.
		if a&protoTagString == 0 {
			if i+8 <= len(msg) {
				word := binary.LittleEndian.Uint64(msg[i:])
				if m := ^word & highs; m != 0 {
					end := bits.TrailingZeros64(m)
					w.ints[k][n] = int64(packVarint(word, end))
					i += end>>3 + 1
					continue
				}
			}
			v, j, ok := readUvarint(msg, i)
			if !ok {
				return w.undo(ncols)
			}
			w.ints[k][n], i = int64(v), j
			continue
		}
		var ln uint64
		if i < len(msg) && msg[i] < 0x80 {
			ln = uint64(msg[i])
			i++
		} else {
			var ok bool
			if ln, i, ok = readUvarint(msg, i); !ok {
				return w.undo(ncols)
			}
		}
		if ln > uint64(len(msg)-i) {
			return w.undo(ncols)
		}
		v := msg[i : i+int(ln)]
		i += int(ln)
		end := w.used[k] + len(v)
		if end > len(w.byts[k]) {
			if err := w.growData(k, end); err != nil {
				return w.undo(ncols)
			}
		}
		if !copyShort(w.byts[k][w.used[k]:end], v) && !validUTF8(v) {
			return w.undo(ncols)
		}
		w.used[k] = end
		w.offs[k][n+1] = int32(end)
	}
	for ; next < ncols; next++ {
		w.zeroAt(next, n)
	}
	if w.valid != nil {
		bitutil.SetBit(w.valid.Buf(), n)
	}
	w.n++
	return true
}
