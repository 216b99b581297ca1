package stock

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fastpathlab/fplab/workloads"
)

// TestBestAsColumnar: the route a consume path runs for decoder=stock
// decodes the corpus, tombstones included, to the rows the lab's decoder
// gives, and csv and raw have none.
func TestBestAsColumnar(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	s, _ := workloads.SchemaByName("bid")
	for _, f := range []workloads.Format{workloads.FormatJSON, workloads.FormatAvro, workloads.FormatProtobuf} {
		codec, err := workloads.NewCodec(f, s)
		if err != nil {
			t.Fatal(err)
		}
		r, err := Best(f)
		if err != nil {
			t.Fatal(err)
		}
		col, err := NewColumnar(r, codec.Schema(), mem)
		if err != nil {
			t.Fatal(err)
		}
		c := workloads.NewCorpus(s, codec, 5, 300)
		for i := range c.Count() {
			if err := col.Append(c.Message(nil, i)); err != nil {
				t.Fatalf("%s/%s record %d: %v", f, r.Lib, i, err)
			}
		}
		col.AppendNull()
		if col.Len() != c.Count()+1 {
			t.Fatalf("%s: Len %d", f, col.Len())
		}
		if err := col.Append([]byte("\x00not a record")); err == nil {
			t.Errorf("%s/%s: a bad message appended", f, r.Lib)
		}
		rec := col.NewRecordBatch()
		if got, want := workloads.BatchChecksum(rec), c.Checksum(0, c.Count())+workloads.NullRowHash(codec.Schema()); got != want {
			t.Errorf("%s/%s: checksum %x, want %x", f, r.Lib, got, want)
		}
		rec.Release()
		col.Release()
	}
	for _, f := range []workloads.Format{workloads.FormatCSV, workloads.FormatRaw} {
		if _, err := Best(f); err == nil {
			t.Errorf("%s has a consume-path stock route", f)
		}
	}
	r, _ := Lookup(workloads.FormatCSV, LibArrowCSV)
	if _, err := NewColumnar(r, s, mem); err == nil {
		t.Error("a batch route became a Columnar")
	}
}
