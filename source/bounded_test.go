package source_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/fastpathlab/fplab/source"
	"github.com/fastpathlab/fplab/source/consume"
	"github.com/fastpathlab/fplab/workloads"
)

// shaped is a topic written by a workloads.Layout: its records at the
// layout's partitions and offsets, tombstones with null values, and
// transactions committed or aborted as the layout says.
type shaped struct {
	*topic
	null uint64 // the row hash of a tombstone's all-null row
}

// loadShaped loads count records of the bid corpus in format f by shape
// into a fresh topic (seed 11; the loader checks every partition's high
// watermark is the layout's End).
func loadShaped(t *testing.T, name string, f workloads.Format, count int, shape workloads.Shape) *shaped {
	t.Helper()
	tp := loadTopic(t, f, fresh(name), withSeed(11), withRecords(count), withShape(shape))
	return &shaped{topic: tp, null: workloads.NullRowHash(tp.codec.Schema())}
}

// appendCommitted produces n more committed records to every partition,
// values of the corpus's first records.
func (sh *shaped) appendCommitted(t *testing.T, n int) {
	t.Helper()
	values := make(map[int32][][]byte, testParts)
	for p := range int32(testParts) {
		for i := range n {
			values[p] = append(values[p], sh.corpus.Message(nil, i))
		}
	}
	sh.append(t, values)
}

// want lists, per partition, the offsets a read_committed read of
// [start, stop) must deliver: the committed records', in offset order.
func (sh *shaped) want(start, stop []int64) [][]int64 {
	out := make([][]int64, testParts)
	for p := range testParts {
		for seq := range sh.layout.Records(p) {
			i, _ := sh.layout.Index(int32(p), seq)
			off := sh.layout.Offset(seq)
			if off >= start[p] && off < stop[p] && sh.layout.Committed(i) {
				out[p] = append(out[p], off)
			}
		}
	}
	return out
}

// read is what one reader delivered.
type read struct {
	stats   consume.Stats
	offsets [][]int64 // per partition, the emitted rows' offsets in order
	nulls   int64     // rows the layout says are tombstones
	splits  [][]int64
}

// readShaped drains a reader of the shaped topic and checks every batch:
// no empty or oversized batch, a short batch only last, every row a
// committed record of the layout at its position (a tombstone's row the
// all-null row), the checksum right, per partition offsets rising, and a
// split that never moves back, never passes the stop and is past every
// emitted row.
func readShaped(t *testing.T, sh *shaped, cfg source.Config, stop []int64, opened ...func()) read {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	r, err := source.Open(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for _, f := range opened {
		f()
	}
	return drainShaped(ctx, t, sh, r, cfg.Batch, stop, 1)
}

// drainShaped is readShaped's read and checks on an open reader that may
// hand over up to shorts batches that are not full (one per subtask), none
// after the last of them.
func drainShaped(ctx context.Context, t *testing.T, sh *shaped, r consume.Reader, batch int, stop []int64, shorts int) read {
	t.Helper()
	out := read{offsets: make([][]int64, testParts)}
	prev := make([]int64, testParts)
	short := 0
	for {
		b, err := r.Next(ctx)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		n := int(b.Rec.NumRows())
		if short == shorts || n == 0 || n > batch || n != len(b.Partitions) || n != len(b.Offsets) {
			t.Fatalf("batch of %d rows (%d positions), batch size %d, after %d short batches of %d", n, len(b.Partitions), batch, short, shorts)
		}
		if n < batch {
			short++
		}
		var sum uint64
		for k, p := range b.Partitions {
			off := b.Offsets[k]
			i, ok := sh.layout.At(p, off)
			if !ok || !sh.layout.Committed(i) {
				t.Fatalf("row at partition %d offset %d: no committed record there (record %d, %v)", p, off, i, ok)
			}
			if got := out.offsets[p]; len(got) > 0 && got[len(got)-1] >= off {
				t.Fatalf("partition %d: offset %d after %d", p, off, got[len(got)-1])
			}
			out.offsets[p] = append(out.offsets[p], off)
			if sh.layout.Null(i) {
				sum += sh.null
				out.nulls++
			} else {
				sum += sh.corpus.Hash(i)
			}
		}
		if got := workloads.BatchChecksum(b.Rec); got != sum {
			t.Fatalf("checksum %x, layout %x", got, sum)
		}
		for p, s := range b.Split {
			last := int64(-1)
			if o := out.offsets[p]; len(o) > 0 {
				last = o[len(o)-1]
			}
			if s < prev[p] || s > stop[p] || s <= last {
				t.Fatalf("split %v after %v: partition %d at %d (stop %d, last row %d)", b.Split, prev, p, s, stop[p], last)
			}
		}
		copy(prev, b.Split)
		out.splits = append(out.splits, append([]int64(nil), b.Split...))
		b.Rec.Release()
	}
	out.stats = r.Stats()
	return out
}

// batchFor picks a batch size that leaves the last batch short, so the
// final split is the one after the whole range.
func batchFor(t *testing.T, rows int) int {
	for _, b := range []int{97, 89, 83} {
		if rows%b != 0 {
			return b
		}
	}
	t.Fatalf("no batch size leaves %d rows a short last batch", rows)
	return 0
}

func equalOffsets(got, want [][]int64) bool {
	for p := range want {
		if len(got[p]) != len(want[p]) {
			return false
		}
		for k := range want[p] {
			if got[p][k] != want[p][k] {
				return false
			}
		}
	}
	return true
}

// TestAbortedTailsEndAtTheStop (a): the partitions' tails are aborted
// transactions and their markers, which read_committed never delivers, and
// one partition is empty. Every path ends at the stop captured at open
// (not at its stall timeout), delivers exactly the committed records in
// offset order, and its final split is the stop. The librdkafka paths run
// twice: with the position query on idle polls, and with EOF events alone.
func TestAbortedTailsEndAtTheStop(t *testing.T) {
	sh := loadShaped(t, "aborted", workloads.FormatJSON, 2400, workloads.Shape{Txn: true, Uneven: true, Empty: 1, Nulls: 0.05})
	tally := sh.layout.Tally()
	stop := sh.ends()
	want := sh.want(make([]int64, testParts), stop)
	type run struct {
		path     consume.Path
		position bool
	}
	var runs []run
	for _, p := range consume.Paths() {
		runs = append(runs, run{p, true})
		if p != consume.PathFranz {
			runs = append(runs, run{p, false})
		}
	}
	for _, rn := range runs {
		p := rn.path
		name := string(p)
		if !rn.position {
			name += "-eof-only"
		}
		t.Run(name, func(t *testing.T) {
			*source.PositionShortcut = rn.position
			defer func() { *source.PositionShortcut = true }()
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			cfg := sh.config(p, batchFor(t, tally.Records), mem)
			// Far above the read itself: a reader that waited for a record
			// at stop-1 would end in this error instead.
			cfg.Timeout = time.Minute
			start := time.Now()
			got := readShaped(t, sh, cfg, stop)
			if d := time.Since(start); d > 30*time.Second {
				t.Errorf("took %v", d)
			}
			if !equalOffsets(got.offsets, want) {
				t.Errorf("delivered other offsets than the committed records'")
			}
			st := got.stats
			if st.Records != int64(tally.Records) || st.Nulls != int64(tally.Nulls) || got.nulls != st.Nulls || st.ParseFailures != 0 {
				t.Errorf("records %d nulls %d (rows %d) parse failures %d; want %d records, %d nulls", st.Records, st.Nulls, got.nulls, st.ParseFailures, tally.Records, tally.Nulls)
			}
			if last := got.splits[len(got.splits)-1]; fmt.Sprint(last) != fmt.Sprint(stop) {
				t.Errorf("final split %v, want the stop %v", last, stop)
			}
		})
	}
}

// TestRecordsAppendedAfterOpen (b): records produced after the reader
// opened lie past its stop: none is delivered, and the read ends (the
// range's tail is an aborted transaction, so the first visible record of
// a partition may be an appended one). In raw, the fast path's drain
// copies the appended records into the batch's data buffer among the
// delivered ones (workloads.Direct), where they must leave no trace: every
// batch's checksum is its rows'.
func TestRecordsAppendedAfterOpen(t *testing.T) {
	for _, f := range []workloads.Format{workloads.FormatJSON, workloads.FormatRaw} {
		for _, p := range consume.Paths() {
			t.Run(fmt.Sprintf("path=%s/format=%s", p, f), func(t *testing.T) {
				// a topic per path: the appended records move the next stop
				sh := loadShaped(t, "appended", f, 2100, workloads.Shape{Txn: true})
				tally := sh.layout.Tally()
				stop := sh.ends()
				want := sh.want(make([]int64, testParts), stop)
				mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
				defer mem.AssertSize(t, 0)
				cfg := sh.config(p, batchFor(t, tally.Records), mem)
				got := readShaped(t, sh, cfg, stop, func() { sh.appendCommitted(t, 20) })
				if !equalOffsets(got.offsets, want) || got.stats.Records != int64(tally.Records) {
					t.Errorf("%d rows, want the %d committed records before the stop", got.stats.Records, tally.Records)
				}
			})
		}
	}
}

// TestTombstonesAreNullRows (c): null values mid-partition and as the
// last record of a partition are all-null rows at their offsets, counted
// in Stats.Nulls and in Records; an empty value (not null) appended to a
// partition is decoded as a value: for JSON a parse failure at its offset.
func TestTombstonesAreNullRows(t *testing.T) {
	sh := loadShaped(t, "nulls", workloads.FormatJSON, 900, workloads.Shape{Nulls: 0.2})
	tally := sh.layout.Tally()
	// one empty, non-null value after partition 1's records
	sh.append(t, map[int32][][]byte{1: {{}}})
	stop := sh.ends()
	stop[1]++
	for p := range testParts {
		i, _ := sh.layout.Index(int32(p), sh.layout.Records(p)-1)
		if last := sh.layout.Null(i); last != (p%2 == 0) {
			t.Fatalf("partition %d's last record a tombstone: %v", p, last)
		}
	}
	want := sh.want(make([]int64, testParts), stop)
	for _, p := range consume.Paths() {
		t.Run(string(p), func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			got := readShaped(t, sh, sh.config(p, batchFor(t, tally.Records), mem), stop)
			if !equalOffsets(got.offsets, want) {
				t.Errorf("delivered other offsets than the records'")
			}
			st := got.stats
			if st.Records != int64(tally.Records) || st.Nulls != int64(tally.Nulls) || got.nulls != st.Nulls {
				t.Errorf("records %d nulls %d (rows %d); want %d records, %d nulls", st.Records, st.Nulls, got.nulls, tally.Records, tally.Nulls)
			}
			f := st.FirstParseFailure
			if st.ParseFailures != 1 || f == nil || f.Partition != 1 || f.Offset != stop[1]-1 || !errors.Is(f, workloads.ErrParse) {
				t.Errorf("parse failures %d, first %v; want the empty value at partition 1 offset %d", st.ParseFailures, f, stop[1]-1)
			}
			if last := got.splits[len(got.splits)-1]; fmt.Sprint(last) != fmt.Sprint(stop) {
				t.Errorf("final split %v, want the stop %v", last, stop)
			}
		})
	}
}

// TestEmptyRanges (d): a partition whose start is its stop, one with no
// records, and one whose start is past its stop are finished at once; a
// read of only such partitions returns io.EOF at the first Next.
func TestEmptyRanges(t *testing.T) {
	sh := loadShaped(t, "empty", workloads.FormatRaw, 300, workloads.Shape{Empty: 1})
	stop := sh.ends() // [150 150 0]
	for _, p := range consume.Paths() {
		t.Run(string(p), func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			// partition 0 from 40, partition 1 start == stop, partition 2 empty
			cfg := sh.config(p, 64, mem)
			cfg.Start = []int64{40, stop[1], 0}
			got := readShaped(t, sh, cfg, stop)
			want := sh.want(cfg.Start, stop)
			if !equalOffsets(got.offsets, want) || got.stats.Records != stop[0]-40 {
				t.Errorf("%d records, want partition 0's %d from offset 40", got.stats.Records, stop[0]-40)
			}
			if last := got.splits[len(got.splits)-1]; fmt.Sprint(last) != fmt.Sprint(stop) {
				t.Errorf("final split %v, want %v", last, stop)
			}

			// nothing to read at all, one start past its stop
			cfg.Start = []int64{stop[0] + 10, stop[1], 0}
			cfg.Stop = stop
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			r, err := source.Open(ctx, cfg)
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			begin := time.Now()
			if b, err := r.Next(ctx); !errors.Is(err, io.EOF) {
				t.Fatalf("empty read: batch %v, error %v; want io.EOF", b, err)
			}
			// it ends at once, not at the stall timeout (a loaded machine
			// stretches "at once", so the bound is half the stall timeout)
			if d := time.Since(begin); d >= cfg.Timeout/2 {
				t.Errorf("empty read took %v to end (stall timeout %v)", d, cfg.Timeout)
			}
		})
	}
}

// TestStartBelowLogStart (e): records before offset 50 of partition 0 are
// deleted and the read starts at 0: every path fails with one line naming
// the partition, the offset and the cause, well within its timeout,
// instead of skipping ahead to the log start.
func TestStartBelowLogStart(t *testing.T) {
	sh := loadShaped(t, "deleted", workloads.FormatRaw, 600, workloads.Shape{})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cl, err := kgo.NewClient(kgo.SeedBrokers(bootstrap(t)...))
	if err != nil {
		t.Fatal(err)
	}
	var del kadm.Offsets
	del.Add(kadm.Offset{Topic: sh.name, Partition: 0, At: 50})
	res, err := kadm.NewClient(cl).DeleteRecords(ctx, del)
	cl.Close()
	if err == nil {
		err = res.Error()
	}
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range consume.Paths() {
		t.Run(string(p), func(t *testing.T) {
			cfg := sh.config(p, 32, memory.NewGoAllocator())
			cfg.Start = []int64{0, 0, 0}
			r, err := source.Open(ctx, cfg)
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			begin := time.Now()
			var rows int64
			for {
				var b *consume.Batch
				b, err = r.Next(ctx)
				if err != nil {
					break
				}
				for _, q := range b.Partitions {
					if q == 0 {
						t.Errorf("a row of partition 0: the read skipped to the log start")
					}
				}
				rows += b.Rec.NumRows()
				b.Rec.Release()
			}
			want := fmt.Sprintf("%s: partition 0: offset 0 is out of range (records deleted?): ", p)
			if errors.Is(err, io.EOF) || !strings.HasPrefix(err.Error(), want) || strings.Contains(err.Error(), "\n") {
				t.Fatalf("after %d rows: %v; want one line starting %q", rows, err, want)
			}
			// it fails on the broker's answer, not at the stall timeout
			if d := time.Since(begin); d >= cfg.Timeout/2 {
				t.Errorf("failed after %v (stall timeout %v)", d, cfg.Timeout)
			}
			t.Logf("%v", err)
		})
	}
}
