package rung

import (
	"fmt"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fastpathlab/fplab/source/consume"
	"github.com/fastpathlab/fplab/workloads"
)

// handOver gives the checker a copy of b that it owns, as a reader hands
// batches over: the record retained, the positions in slices the test
// overwrites once check returns (the reader reuses its own at Next).
func handOver(t *testing.T, c *checker, b *consume.Batch) error {
	t.Helper()
	b.Rec.Retain()
	cp := &consume.Batch{Rec: b.Rec, Partitions: append([]int32(nil), b.Partitions...), Offsets: append([]int64(nil), b.Offsets...), Split: b.Split}
	err := c.check(cp)
	for i := range cp.Partitions {
		cp.Partitions[i], cp.Offsets[i] = -1, -1
	}
	return err
}

// checkedMem is an allocator that fails the test if anything allocated
// from it is still held once the test's other cleanups (layOut's release of
// its batches) have run.
func checkedMem(t *testing.T) *memory.CheckedAllocator {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	t.Cleanup(func() { mem.AssertSize(t, 0) })
	return mem
}

// TestCheckerPasses: a clean read passes, every record handed over is
// released, and the verifier counted every row.
func TestCheckerPasses(t *testing.T) {
	mem := checkedMem(t)
	lo := layOut(t, workloads.FormatRaw, mem, 6, 256, 64)
	v := lo.verifier(256)
	c := newChecker(v, 2)
	for _, b := range lo.batches {
		if err := handOver(t, c, b); err != nil {
			t.Fatal(err)
		}
	}
	if err := c.wait(); err != nil {
		t.Fatal(err)
	}
	if v.rows != 6*256 || v.batches != 6 {
		t.Errorf("verified %d rows in %d batches, want %d in 6", v.rows, v.batches, 6*256)
	}
}

// TestCheckerNamesCorruptRow: a batch whose decoded values differ from the
// corpus in one row fails the read, naming that row by the position it was
// read from, although the reader overwrote its positions long before the
// checksum ran; the batches after it are released unsummed.
func TestCheckerNamesCorruptRow(t *testing.T) {
	mem := checkedMem(t)
	lo := layOut(t, workloads.FormatRaw, mem, 6, 256, 64)
	// batch 2 row 7 takes the values of another record of the corpus
	bad := lo.batches[2]
	b := lo.codec.NewColumnar(mem)
	for i := range 256 {
		id, _ := lo.layout.At(bad.Partitions[i], bad.Offsets[i])
		if i == 7 {
			id = (id + 1) % lo.corpus.Count()
		}
		if err := b.Append(lo.corpus.Message(nil, id)); err != nil {
			t.Fatal(err)
		}
	}
	bad.Rec.Release()
	bad.Rec = b.NewRecordBatch()
	b.Release()

	c := newChecker(lo.verifier(256), 2)
	var err error
	for _, b := range lo.batches {
		if err = handOver(t, c, b); err != nil {
			break
		}
	}
	if werr := c.wait(); err == nil {
		err = werr
	}
	want := "batch 2 row 7: the record at partition " // the position follows
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Fatalf("err = %v, want it to start %q", err, want)
	}
	if pos := fmt.Sprintf("partition %d offset %d ", bad.Partitions[7], bad.Offsets[7]); !strings.Contains(err.Error(), pos) {
		t.Errorf("err = %v, want the row's position %q", err, pos)
	}
}

// TestCheckerPositionsInLine: a position failure is the reader's own: check
// returns it at once, and releases the record.
func TestCheckerPositionsInLine(t *testing.T) {
	mem := checkedMem(t)
	lo := layOut(t, workloads.FormatRaw, mem, 3, 256, 64)
	c := newChecker(lo.verifier(256), 2)
	if err := handOver(t, c, lo.batches[1]); err != nil {
		t.Fatal(err)
	}
	err := handOver(t, c, lo.batches[0]) // offsets that go back
	if err == nil || !strings.Contains(err.Error(), "out of order or repeated") {
		t.Fatalf("err = %v, want an out-of-order failure", err)
	}
	if err := c.wait(); err != nil {
		t.Errorf("wait = %v after a positions failure, want nil (no checksum failed)", err)
	}
}

// TestCheckerBounded: while the goroutine sums batch 0, batch 1 waits and
// the check of batch 2 does not return before batch 0's sum is done, so at
// most two batches are ever held beyond the reader's.
func TestCheckerBounded(t *testing.T) {
	mem := checkedMem(t)
	lo := layOut(t, workloads.FormatRaw, mem, 3, 64, 32)
	v := lo.verifier(64)
	entered, gate := make(chan int64, 3), make(chan struct{})
	var summed []int64 // the checker goroutine's until wait returns
	c := startChecker(v, 2, func(j *sumJob) error {
		entered <- j.k
		<-gate
		summed = append(summed, j.k)
		return v.sum(j.rec, j.want, j.k, j.parts, j.offs)
	})
	waits := make(chan struct{}, 1)
	c.waiting = func() { waits <- struct{}{} }
	for _, b := range lo.batches[:2] {
		if err := handOver(t, c, b); err != nil {
			t.Fatal(err)
		}
	}
	if k := <-entered; k != 0 {
		t.Fatalf("first sum is of batch %d, want 0", k)
	}
	third := make(chan error)
	go func() { third <- handOver(t, c, lo.batches[2]) }()
	select {
	case <-waits: // batch 2's check waits, as it should
	case err := <-third:
		t.Fatalf("batch 2's check returned (err %v) while batch 0 was still being summed and batch 1 waited", err)
	}
	gate <- struct{}{} // batch 0's sum may finish
	if err := <-third; err != nil {
		t.Fatal(err)
	}
	if k := <-entered; k != 1 {
		t.Fatalf("second sum is of batch %d, want 1", k)
	}
	close(gate)
	if err := c.wait(); err != nil {
		t.Fatal(err)
	}
	if len(summed) != 3 || summed[0] != 0 || summed[1] != 1 || summed[2] != 2 {
		t.Errorf("summed batches %v, want [0 1 2] in order", summed)
	}
}

// TestCheckerTwin: a twin's batches (no record) are checked in line, by
// their positions only.
func TestCheckerTwin(t *testing.T) {
	lo := layOut(t, workloads.FormatRaw, memory.NewGoAllocator(), 3, 64, 32)
	v := lo.verifier(64)
	c := newChecker(v, 2)
	for _, b := range lo.batches {
		tw := &consume.Batch{Partitions: b.Partitions, Offsets: b.Offsets}
		if err := c.check(tw); err != nil {
			t.Fatal(err)
		}
	}
	if err := c.wait(); err != nil {
		t.Fatal(err)
	}
	if !v.twin || v.rows != 192 {
		t.Errorf("twin %v, %d rows, want a twin read of 192", v.twin, v.rows)
	}
}

// TestBehind: the checksum may fall 64Ki rows behind, and never less than
// two batches.
func TestBehind(t *testing.T) {
	for _, c := range []struct{ batch, jobs int }{{1, 65536}, {1000, 66}, {1024, 64}, {8192, 8}, {32768, 2}, {65536, 2}, {1 << 20, 2}} {
		if got := behind(c.batch); got != c.jobs {
			t.Errorf("behind(%d) = %d, want %d", c.batch, got, c.jobs)
		}
	}
}
