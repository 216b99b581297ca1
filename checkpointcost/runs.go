package checkpointcost

import (
	"encoding/binary"
	"fmt"
)

// run is a stretch of consecutive record ids of one partition: offsets
// First .. First+Count-1. The sink stores record ids as runs so that a
// batch of contiguous offsets costs a few bytes while every id stays exact
// (a duplicate or a gap is still visible to the verifier).
type run struct {
	Part  int32
	First int64
	Count int64
}

// runSize is the encoded size of a run: partition int32, first int64,
// count int64, little endian.
const runSize = 4 + 8 + 8

// appendRuns appends the runs of the rows (parts[i], offs[i]) in row order,
// merging a row into the previous run when it continues it.
func appendRuns(dst []run, parts []int32, offs []int64) []run {
	for i, p := range parts {
		o := offs[i]
		if n := len(dst); n > 0 && dst[n-1].Part == p && dst[n-1].First+dst[n-1].Count == o {
			dst[n-1].Count++
			continue
		}
		dst = append(dst, run{Part: p, First: o, Count: 1})
	}
	return dst
}

func appendEncodedRun(b []byte, r run) []byte {
	b = binary.LittleEndian.AppendUint32(b, uint32(r.Part))
	b = binary.LittleEndian.AppendUint64(b, uint64(r.First))
	return binary.LittleEndian.AppendUint64(b, uint64(r.Count))
}

// decodeRuns parses a runs file; a file cut short is an error.
func decodeRuns(data []byte) ([]run, error) {
	if len(data)%runSize != 0 {
		return nil, fmt.Errorf("runs data of %d bytes is not a whole number of %d-byte runs", len(data), runSize)
	}
	out := make([]run, 0, len(data)/runSize)
	for b := data; len(b) > 0; b = b[runSize:] {
		r := run{
			Part:  int32(binary.LittleEndian.Uint32(b)),
			First: int64(binary.LittleEndian.Uint64(b[4:])),
			Count: int64(binary.LittleEndian.Uint64(b[12:])),
		}
		if r.Count <= 0 || r.First < 0 {
			return nil, fmt.Errorf("malformed run (partition %d, first %d, count %d)", r.Part, r.First, r.Count)
		}
		out = append(out, r)
	}
	return out, nil
}
