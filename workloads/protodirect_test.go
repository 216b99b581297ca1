package workloads

import (
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// TestProtoDirect: the protobuf Columnar (rows written as they are parsed,
// falling back to the scratch row) and a columnar of the general parse
// build the same batch and return the same error for the corpus's messages
// and mutations of them (bytes changed, cut short, fields repeated,
// reordered or unknown, long varints and lengths, null rows between), and
// every corpus message takes the direct write, so the comparison is of
// the direct write and not of the fallback alone.
func TestProtoDirect(t *testing.T) {
	for _, name := range SchemaNames() {
		c := mustCodec(t, FormatProtobuf, name).(*protoCodec)
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		direct := c.NewColumnar(mem).(*protoColumnar)
		general := newColumnar(c.schema, mem, c.parse)
		cp := NewCorpus(c.schema, c, 11, 120)
		r := rand.New(rand.NewPCG(11, 12))
		rows := 0
		check := func(msg []byte) {
			t.Helper()
			errA := direct.Append(msg)
			errB := general.Append(msg)
			if errA != errB {
				t.Fatalf("%s % x: direct error %v, general %v", name, msg, errA, errB)
			}
			if errA == nil {
				rows++
			}
			if direct.Len() != rows || general.Len() != rows {
				t.Fatalf("%s % x: %d and %d rows, want %d", name, msg, direct.Len(), general.Len(), rows)
			}
			if r.IntN(50) == 0 {
				direct.AppendNull()
				general.AppendNull()
				rows++
			}
		}
		for i := range cp.Count() {
			msg := cp.Message(nil, i)
			before := direct.Len()
			if !direct.appendDirect(msg) || direct.Len() != before+1 {
				t.Fatalf("%s record %d (% x) did not take the direct write", name, i, msg)
			}
			if err := general.Append(msg); err != nil {
				t.Fatal(err)
			}
			rows++
			protoMutations(msg, r, 100, check)
			check(nil)
		}
		a, b := direct.NewRecordBatch(), general.NewRecordBatch()
		if a.NumRows() != int64(rows) || !array.RecordEqual(a, b) {
			t.Errorf("%s: the direct write's batch (%d rows) differs from the general parse's (%d rows, want %d)", name, a.NumRows(), b.NumRows(), rows)
		}
		a.Release()
		b.Release()
		direct.Release()
		general.Release()
		mem.AssertSize(t, 0)
	}
}
