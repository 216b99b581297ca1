package source

import (
	"github.com/apache/arrow-go/v18/arrow"

	"github.com/fastpathlab/fplab/workloads"
)

// discard is the decoder of a consume-only twin (Config.Decoder "none"): it
// takes every value the path hands it, in bulk where the path drains in
// bulk, and builds nothing. The path around it is unchanged: the same
// client, crossings, position bookkeeping and batch boundaries, so a twin's
// cell measures the client's share of its path, and the difference to the
// path is the Arrow decode (and the rung's verification). NewRecordBatch
// returns nil: a twin's batches carry positions and no record batch.
type discard struct{ n int }

var (
	_ workloads.Columnar = (*discard)(nil)
	_ workloads.Bulk     = (*discard)(nil)
)

func (d *discard) Append([]byte) error { d.n++; return nil }
func (d *discard) AppendNull()         { d.n++ }
func (d *discard) Len() int            { return d.n }
func (d *discard) Release()            {}

func (d *discard) AppendBulk(_ []byte, _ uint32, ends []uint32) (int, error) {
	d.n += len(ends)
	return len(ends), nil
}

func (d *discard) NewRecordBatch() arrow.RecordBatch {
	d.n = 0
	return nil
}
