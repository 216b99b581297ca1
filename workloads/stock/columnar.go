package stock

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fastpathlab/fplab/workloads"
)

// NewColumnar runs route r, a per-message route, as a consume path's
// workloads.Columnar over schema s: a message is decoded by the library
// and appended by the route, a tombstone appends an all-null row.
func NewColumnar(r Route, s *workloads.Schema, mem memory.Allocator) (workloads.Columnar, error) {
	if r.Batch || r.Lib == Lab {
		return nil, fmt.Errorf("route %s/%s is not a per-message stock route", r.Format, r.Lib)
	}
	d, err := r.New(s, mem)
	if err != nil {
		return nil, err
	}
	n, ok := d.(interface{ AppendNull() })
	if !ok {
		d.Release()
		return nil, fmt.Errorf("route %s/%s cannot append a tombstone's row", r.Format, r.Lib)
	}
	return &columnar{d: d, nuller: n}, nil
}

type columnar struct {
	d      Decoder
	nuller interface{ AppendNull() }
	n      int
}

func (c *columnar) Append(msg []byte) error {
	if err := c.d.Append(msg); err != nil {
		return err
	}
	c.n++
	return nil
}

func (c *columnar) AppendNull() { c.nuller.AppendNull(); c.n++ }

func (c *columnar) Len() int { return c.n }

// NewRecordBatch cannot fail for a per-message route (its rows were
// appended as they were decoded); an error here is a programming error.
func (c *columnar) NewRecordBatch() arrow.RecordBatch {
	rec, err := c.d.NewRecordBatch()
	if err != nil {
		panic("stock: a per-message route failed to finish its batch: " + err.Error())
	}
	c.n = 0
	return rec
}

func (c *columnar) Release() { c.d.Release() }
