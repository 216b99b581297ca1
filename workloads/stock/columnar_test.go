package stock

import (
	"context"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fastpathlab/fplab/workloads"
)

// TestPerMessageAsColumnar: every route decoder=stock may pick (each
// per-message stock route) decodes the corpus, tombstones included, to the
// rows the lab's decoder gives, and refuses a bad message.
func TestPerMessageAsColumnar(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	s, _ := workloads.SchemaByName("bid")
	for _, r := range routes {
		if r.Lib == Lab || r.Batch {
			continue
		}
		f := r.Format
		codec, err := workloads.NewCodec(f, s)
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
	r, _ := Lookup(workloads.FormatCSV, LibArrowCSV)
	if _, err := NewColumnar(r, s, mem); err == nil {
		t.Error("a batch route became a Columnar")
	}
}

// TestBest: the pick is measured among every per-message stock route of the
// format, fastest first, once per process; csv and raw have none.
func TestBest(t *testing.T) {
	ctx := context.Background()
	for _, f := range []workloads.Format{workloads.FormatJSON, workloads.FormatAvro, workloads.FormatProtobuf} {
		p, err := Best(ctx, f, "bid")
		if err != nil {
			t.Fatal(err)
		}
		var want []string
		for _, r := range Routes(f) {
			if r.Lib != Lab && !r.Batch {
				want = append(want, r.Lib)
			}
		}
		if len(p.Candidates) != len(want) {
			t.Fatalf("%s: measured %v, want every one of %v", f, p, want)
		}
		seen := map[string]bool{}
		for i, c := range p.Candidates {
			seen[c.Lib] = true
			if c.NsPerRec <= 0 || c.Records <= 0 {
				t.Errorf("%s/%s: no figure: %+v", f, c.Lib, c)
			}
			if i > 0 && c.NsPerRec < p.Candidates[i-1].NsPerRec {
				t.Errorf("%s: candidates not fastest first: %v", f, p)
			}
		}
		for _, lib := range want {
			if !seen[lib] {
				t.Errorf("%s: %s not measured: %v", f, lib, p)
			}
		}
		if p.Route.Format != f || p.Route.Lib != p.Candidates[0].Lib {
			t.Errorf("%s: picked %s/%s, the fastest is %s", f, p.Route.Format, p.Route.Lib, p.Candidates[0].Lib)
		}
		again, err := Best(ctx, f, "bid")
		if err != nil || again.String() != p.String() {
			t.Errorf("%s: a second call measured again: %v then %v (%v)", f, p, again, err)
		}
		if got, ok := Picked(f, "bid"); !ok || got.Route.Lib != p.Route.Lib {
			t.Errorf("%s: Picked %v %v, want %s", f, got.Route.Lib, ok, p.Route.Lib)
		}
		t.Logf("%s: %v", f, p)
	}
	if _, ok := Picked(workloads.FormatJSON, "bid-wide"); ok {
		t.Error("Picked reports a pick never made")
	}
	for _, f := range []workloads.Format{workloads.FormatCSV, workloads.FormatRaw} {
		if _, err := Best(ctx, f, "bid"); err == nil {
			t.Errorf("%s has a consume-path stock route", f)
		}
	}
}
