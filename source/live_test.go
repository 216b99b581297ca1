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

	"github.com/fastpathlab/fplab/source"
	"github.com/fastpathlab/fplab/source/consume"
	"github.com/fastpathlab/fplab/workloads"
)

// livePaths are the paths that read live: the columnar ones.
var livePaths = []consume.Path{consume.PathShallow, consume.PathFast, consume.PathFranz}

// produced is what a test wrote to a topic after its reader opened: the
// corpus index of the record at each (partition, offset), and where the
// next record of each partition lands.
type produced struct {
	tp    *topic
	next  []int64 // per partition, the offset the next appended record gets
	index map[[2]int64]int
	// from is the first corpus index not written yet: far above the
	// topic's own records, so no appended value is one of theirs
	from int
}

func newProduced(tp *topic) *produced {
	return &produced{tp: tp, next: tp.ends(), index: map[[2]int64]int{}, from: 1 << 20}
}

// write appends n records, record k of them to partition k%testParts, and
// records where each lands.
func (pr *produced) write(t *testing.T, n int) {
	t.Helper()
	values := make(map[int32][][]byte, testParts)
	for k := range n {
		p := k % testParts
		i := pr.from + k
		values[int32(p)] = append(values[int32(p)], pr.tp.corpus.Message(nil, i))
		pr.index[[2]int64{int64(p), pr.next[p]}] = i
		pr.next[p]++
	}
	pr.from += n
	pr.tp.append(t, values)
}

// liveRead is a live reader under test and what it has delivered.
type liveRead struct {
	r       consume.Reader
	pr      *produced
	batch   int
	seen    map[int]bool
	last    []int64 // per partition, the last delivered offset (-1: none)
	split   []int64
	batches int
	short   int // batches shorter than a batch
}

// openLiveRead opens a live reader of tp on path p (batches of batch
// rows, a 5 ms linger, its allocator checked once the reader is closed at
// the test's end) and the liveRead that checks what it hands over.
func openLiveRead(ctx context.Context, t *testing.T, tp *topic, p consume.Path, batch int) *liveRead {
	t.Helper()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	t.Cleanup(func() { mem.AssertSize(t, 0) })
	cfg := tp.config(p, batch, mem)
	cfg.Live, cfg.Linger = true, 5*time.Millisecond
	r, err := source.Open(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return &liveRead{r: r, pr: newProduced(tp), batch: batch, seen: map[int]bool{}, last: []int64{-1, -1, -1}, split: make([]int64, testParts)}
}

// until calls Next until want more rows have arrived, checking every
// batch: not empty, not over a batch, every row a record written
// after the reader opened, delivered once, in offset order per partition,
// its checksum the records', and its split rising and past its rows.
func (lr *liveRead) until(ctx context.Context, t *testing.T, want int) {
	t.Helper()
	for got := 0; got < want; {
		b, err := lr.r.Next(ctx)
		if err != nil {
			t.Fatalf("after %d of %d rows: %v", got, want, err)
		}
		n := int(b.Rec.NumRows())
		if n == 0 || n > lr.batch || n != len(b.Partitions) || n != len(b.Offsets) {
			t.Fatalf("batch of %d rows (%d positions), batch size %d", n, len(b.Partitions), lr.batch)
		}
		var sum uint64
		for k, p := range b.Partitions {
			off := b.Offsets[k]
			i, ok := lr.pr.index[[2]int64{int64(p), off}]
			if !ok {
				t.Fatalf("row at partition %d offset %d: not a record written after open", p, off)
			}
			if lr.seen[i] {
				t.Fatalf("record %d (partition %d offset %d) delivered twice", i, p, off)
			}
			lr.seen[i] = true
			if off <= lr.last[p] {
				t.Fatalf("partition %d: offset %d after %d", p, off, lr.last[p])
			}
			lr.last[p] = off
			sum += lr.pr.tp.corpus.Hash(i)
		}
		if got := workloads.BatchChecksum(b.Rec); got != sum {
			t.Fatalf("checksum %x, records %x", got, sum)
		}
		for p, s := range b.Split {
			if s < lr.split[p] || s <= lr.last[p] {
				t.Fatalf("split %v after %v: partition %d at %d, last row %d", b.Split, lr.split, p, s, lr.last[p])
			}
		}
		copy(lr.split, b.Split)
		b.Rec.Release()
		got += n
		lr.batches++
		if n < lr.batch {
			lr.short++
		}
	}
}

// TestLiveReadsWhatIsWrittenAfterOpen: a live reader opens on a topic that
// already holds records, which it never delivers (it starts at the end of
// the log); records written after it opened arrive, every record once, in
// offset order per partition. They are written in rounds, each only once
// the last has arrived, of 20 records: no whole number of batches, so the
// last rows of a round come in a batch that is not full, which only the
// linger hands over (with batches of 1000 every batch is such; with 8 the
// full ones are handed over at once). Between rounds the reader is at the
// end of the log (librdkafka's EOF events come) and goes on reading: no
// partition is finished, and with nothing written Next waits until its
// context ends, never io.EOF. A second reader on the quiet topic ends in
// the live stall error naming where every partition stands.
func TestLiveReadsWhatIsWrittenAfterOpen(t *testing.T) {
	const rounds, perRound = 3, 20
	for _, p := range livePaths {
		for _, batch := range []int{1000, 8} {
			t.Run(fmt.Sprintf("%s/batch=%d", p, batch), func(t *testing.T) {
				tp := loadTopic(t, workloads.FormatJSON, fresh("live"), withRecords(37))
				ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
				defer cancel()
				lr := openLiveRead(ctx, t, tp, p, batch)
				r, pr := lr.r, lr.pr
				for round := range rounds {
					short := lr.short
					pr.write(t, perRound)
					lr.until(ctx, t, perRound)
					if lr.short == short {
						t.Fatalf("round %d: no batch shorter than %d rows: the linger handed none over", round, batch)
					}
				}
				st := r.Stats()
				if st.Records != rounds*perRound || int(st.Batches) != lr.batches || lr.batches < rounds {
					t.Errorf("stats: %d records in %d batches; delivered %d batches, want %d records", st.Records, st.Batches, lr.batches, rounds*perRound)
				}
				t.Logf("%d rows in %d batches; %d polls, %d crossings", st.Records, st.Batches, st.Polls, st.Crossings)
				// A poll or crossing waits for a message, the linger's end
				// or 100 ms: a reader spinning on EOF events or on a wait of
				// 0 would make thousands of them while the rows were fetched.
				if calls := st.Polls + st.Crossings; calls > 1000 {
					t.Errorf("%d polls and crossings for %d rows", calls, st.Records)
				}
				if fmt.Sprint(lr.split) != fmt.Sprint(pr.next) {
					t.Errorf("split %v, want the end of the log %v", lr.split, pr.next)
				}

				// nothing more is written: Next waits for rows until its
				// context ends
				short, stop := context.WithTimeout(ctx, 300*time.Millisecond)
				b, err := r.Next(short)
				stop()
				if b != nil || !errors.Is(err, context.DeadlineExceeded) || errors.Is(err, io.EOF) {
					t.Fatalf("Next on a quiet live topic: batch %v, error %v; want the context's deadline", b, err)
				}

				// a live read whose producer stopped: the stall error
				quiet := tp.config(p, batch, memory.NewGoAllocator())
				quiet.Live, quiet.Linger, quiet.Timeout = true, 5*time.Millisecond, time.Second
				r2, err := source.Open(ctx, quiet)
				if err != nil {
					t.Fatal(err)
				}
				defer r2.Close()
				want := fmt.Sprintf("live: no message for 1s (p0 at %d, p1 at %d, p2 at %d)", pr.next[0], pr.next[1], pr.next[2])
				if b, err := r2.Next(ctx); b != nil || err == nil || err.Error() != want {
					t.Fatalf("quiet live read: batch %v, error %v; want %q", b, err, want)
				}
			})
		}
	}
}

// TestLiveValidation covers the checks of Live and Linger, made before any
// client starts (the context is already canceled and nothing is dialled).
func TestLiveValidation(t *testing.T) {
	_, codec := bidCodec(t, workloads.FormatJSON)
	ok := source.Config{
		Path: consume.PathFast, Bootstrap: []string{"127.0.0.1:1"}, Topic: "t", Partitions: 2,
		Batch: 8, Codec: codec, Mem: memory.NewGoAllocator(), Timeout: time.Second,
		Live: true, Linger: 5 * time.Millisecond,
	}
	rowwise := "path rowwise cannot read live: a row path has no linger rule; its batches are emitted only when full"
	startStop := "a live read starts at the end of the log and has no stop: start and stop offsets must not be set"
	cases := []struct {
		name string
		mod  func(*source.Config)
		want string
	}{
		{"negative linger", func(c *source.Config) { c.Linger = -time.Millisecond }, "linger must not be negative, got -1ms"},
		{"bounded negative linger", func(c *source.Config) { c.Live, c.Linger = false, -time.Millisecond }, "linger must not be negative, got -1ms"},
		{"linger without live", func(c *source.Config) { c.Live = false }, "linger applies to live reads only"},
		{"live without linger", func(c *source.Config) { c.Linger = 0 }, "a live read needs a linger > 0: a batch that is not full would wait for rows forever"},
		{"linger too long", func(c *source.Config) { c.Linger = 11 * time.Second }, "linger must be at most 10s, got 11s"},
		{"bounded discovery", func(c *source.Config) { c.Live, c.Linger, c.Discovery = false, 0, time.Second }, "partition discovery applies to live reads only (a bounded read's range is fixed when it opens)"},
		{"discovery too often", func(c *source.Config) { c.Discovery = time.Millisecond }, "discovery interval must be from 10ms to 1h0m0s, got 1ms"},
		{"live rowwise", func(c *source.Config) { c.Path = consume.PathRowwise }, rowwise},
		{"live rowwise without linger", func(c *source.Config) { c.Path, c.Linger = consume.PathRowwise, 0 }, rowwise},
		{"linger rowwise", func(c *source.Config) { c.Path, c.Live = consume.PathRowwise, false }, rowwise},
		{"live start", func(c *source.Config) { c.Start = []int64{0, 0} }, startStop},
		{"live stop", func(c *source.Config) { c.Stop = []int64{9, 9} }, startStop},
		{"live franz start", func(c *source.Config) { c.Path, c.Start = consume.PathFranz, []int64{0, 0} }, startStop},
	}
	canceled, cancel := context.WithCancel(context.Background())
	cancel()
	for _, tc := range cases {
		cfg := ok
		tc.mod(&cfg)
		_, err := source.Open(canceled, cfg)
		if err == nil || err.Error() != tc.want || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
}
