package source

import (
	"fmt"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fastpathlab/fplab/workloads"
)

// TestFastDirectCrossing hands the fast reader what a crossing aimed at a
// raw column's data tail leaves (drain.Run with a destination), without a
// broker: payloads in the tail up to the split, the overflow and the
// messages after it in the drain's buffer. Among them a record past the
// stop and one before the position, which the drain copied into the tail
// but which are no rows, and a tombstone. The crossing holds more than a
// batch: the first batch is emitted and released mid-crossing, and the
// rest still reads from the same tail. The batches hold exactly the rows
// in range, in order, with their payloads, and every buffer is returned.
func TestFastDirectCrossing(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	s, err := workloads.SchemaByName("bid")
	if err != nil {
		t.Fatal(err)
	}
	codec, err := workloads.NewCodec(workloads.FormatRaw, s)
	if err != nil {
		t.Fatal(err)
	}
	col := codec.NewColumnar(mem)
	defer col.Release()
	direct, ok := col.(workloads.Direct)
	if !ok {
		t.Fatal("the raw columnar is not Direct")
	}
	// p0 reads [2, 5), p1 [0, 4); batches of 4 rows
	r := &fastReader{col: col, direct: direct, a: newAssembler(4, []int64{2, 0}, []int64{5, 4})}
	type msg struct {
		p   int32
		off int64
		val string // "" with null: a tombstone
		nul bool
	}
	crossing := []msg{
		{0, 2, "a0", false}, {0, 3, "bb1", false}, {0, 5, "past-stop", false}, // p0 ends at its stop
		{1, 0, "c", false}, {1, 1, "", true}, {1, 0, "again", false}, // p1: a tombstone, a record read already
		{1, 2, "dd", false}, // the split: in the drain's buffer from here on
		{1, 3, "eee", false}, {0, 4, "late", false},
	}
	const split = 7
	tail := direct.Tail(64)
	var dst, buf []byte
	for i, m := range crossing {
		r.nulls = append(r.nulls, m.nul)
		if i < split {
			dst = append(tail[:len(dst)], m.val...)
			r.ends = append(r.ends, uint32(len(dst)))
		} else {
			buf = append(buf, m.val...)
			r.ends = append(r.ends, uint32(len(buf)))
		}
		r.parts = append(r.parts, m.p)
		r.offs = append(r.offs, m.off)
	}
	if &dst[0] != &tail[0] {
		t.Fatal("the test's payloads outgrew the tail")
	}
	r.dst, r.split, r.buf = dst, split, buf
	var got []string
	for r.i < len(r.ends) {
		for r.i < len(r.ends) && !r.a.full() {
			if err := r.decodeRun(); err != nil {
				t.Fatal(err)
			}
		}
		parts, offs := fmt.Sprint(r.a.parts), fmt.Sprint(r.a.offs)
		rec := r.a.emit(col.NewRecordBatch()).Rec
		got = append(got, fmt.Sprintf("%v %s %s", rec.Column(0), parts, offs))
		rec.Release() // before the rest of the tail is read
	}
	want := []string{
		`["a0" "bb1" "c" (null)] [0 0 1 1] [2 3 0 1]`,
		`["dd" "eee"] [1 1] [2 3]`,
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("batches\n%s\nwant\n%s", got, want)
	}
	if !r.a.done() {
		t.Errorf("positions %v, stops %v: not done", r.a.pos, r.a.stop)
	}
}
