package source_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fastpathlab/fplab/source"
	"github.com/fastpathlab/fplab/source/consume"
	"github.com/fastpathlab/fplab/workloads"
)

// aheadConfig is a fast read of tp that crosses ahead (Tuning.Ahead).
func aheadConfig(tp *topic, batch int, mem memory.Allocator) source.Config {
	cfg := tp.config(consume.PathFast, batch, mem)
	cfg.Tuning.Ahead = true
	return cfg
}

// TestAheadReadsEveryRecordOnce: a fast read that crosses ahead hands
// over every record of the topic once, verified against the corpus, in
// full batches but the last, on every format (raw's column then copies
// from the drain's buffer), keyed or not, and claims its drain; it leaks
// no Arrow memory.
func TestAheadReadsEveryRecordOnce(t *testing.T) {
	for _, f := range workloads.Formats() {
		for _, keyed := range []bool{false, true} {
			if keyed && f != workloads.FormatJSON {
				continue // the keys are independent of the format
			}
			t.Run(fmt.Sprintf("format=%s/keys=%v", f, keyed), func(t *testing.T) {
				var opts []topicOpt
				if keyed {
					opts = append(opts, withKeys())
				}
				tp := loadTopic(t, f, opts...)
				mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
				defer mem.AssertSize(t, 0)
				cfg := aheadConfig(tp, 512, mem)
				cfg.Keys = keyed
				st, splits := drain(t, cfg, tp.corpus)
				if st.Records != testRecords || st.ParseFailures != 0 {
					t.Fatalf("records %d (want %d), parse failures %d", st.Records, testRecords, st.ParseFailures)
				}
				if want := int64((testRecords + 511) / 512); st.Batches != want {
					t.Errorf("batches %d, want %d", st.Batches, want)
				}
				var sum int64
				for _, o := range splits[len(splits)-1] {
					sum += o
				}
				if sum != testRecords {
					t.Errorf("final split state %v sums to %d, want %d", splits[len(splits)-1], sum, testRecords)
				}
				if st.Polls != 0 || st.NonEmpty == 0 {
					t.Errorf("%d polls, %d non-empty crossings for %d records", st.Polls, st.NonEmpty, st.Records)
				}
				ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
				defer cancel()
				if as := openAssertions(ctx, t, cfg); as.Drain != consume.DrainCallbackAhead {
					t.Errorf("drain %q, want %q", as.Drain, consume.DrainCallbackAhead)
				}
			})
		}
	}
}

// TestAheadRestoresFromSplitState: a read that crosses ahead, restored
// from the split state after its second batch, reads exactly the rest:
// the crossing that was ahead when the batch was handed over is not
// counted as read.
func TestAheadRestoresFromSplitState(t *testing.T) {
	tp := loadTopic(t, workloads.FormatJSON)
	cfg := aheadConfig(tp, 1000, memory.NewGoAllocator())
	_, splits := drain(t, cfg, tp.corpus)
	cfg.Start = splits[1]
	st, _ := drain(t, cfg, tp.corpus)
	var want int64 = testRecords
	for _, o := range splits[1] {
		want -= o
	}
	if st.Records != want {
		t.Errorf("from %v: %d records, want %d", splits[1], st.Records, want)
	}
}

// openPastEnd opens a read of tp that crosses ahead, in batches of 10,
// over a range ending 1000 records past each partition's end: once it has
// handed over the topic, it waits for records that never come.
func openPastEnd(ctx context.Context, t *testing.T, tp *topic, mem memory.Allocator) consume.Reader {
	t.Helper()
	cfg := aheadConfig(tp, 10, mem)
	cfg.Stop = tp.ends()
	for p := range cfg.Stop {
		cfg.Stop[p] += 1000
	}
	r, err := source.Open(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// closeWithin closes r, failing the test if Close has not returned by
// ctx's end.
func closeWithin(ctx context.Context, t *testing.T, r consume.Reader) {
	t.Helper()
	closed := make(chan error, 1)
	go func() { closed <- r.Close() }()
	select {
	case err := <-closed:
		if err != nil {
			t.Fatal(err)
		}
	case <-ctx.Done():
		t.Fatal("Close waited out the crossing ahead")
	}
}

// TestAheadCloseMidRead: closing a read that crosses ahead after one
// batch, with records and a crossing perhaps still under way (the wait is
// made longer than the test's own deadline), returns and frees every
// buffer; TestAheadCloseWakesTheCrossing holds the wake-up itself.
func TestAheadCloseMidRead(t *testing.T) {
	tp := loadTopic(t, workloads.FormatAvro, fresh("ahead-close"), withRecords(100))
	source.SetPollWait(t, 10*time.Minute)
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	r := openPastEnd(ctx, t, tp, mem)
	b, err := r.Next(ctx)
	if err != nil {
		r.Close()
		t.Fatal(err)
	}
	b.Rec.Release()
	closeWithin(ctx, t, r)
}

// TestAheadCancelEndsAWait: a read that crosses ahead, having handed over
// every record of a range that ends past the topic's end, waits in Next
// (on the crossing ahead, or on its own) with every wait an hour long; a
// cancel of Next's context ends that wait with context.Canceled, and the
// reader closes at once after it.
func TestAheadCancelEndsAWait(t *testing.T) {
	source.SetPollWait(t, time.Hour)
	tp := loadTopic(t, workloads.FormatProtobuf, fresh("ahead-cancel"), withRecords(100))
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	r := openPastEnd(ctx, t, tp, memory.NewGoAllocator())
	rows := 0
	for rows < 100 {
		b, err := r.Next(ctx)
		if err != nil {
			r.Close()
			t.Fatalf("after %d rows: %v", rows, err)
		}
		rows += int(b.Rec.NumRows())
		b.Rec.Release()
	}
	wctx, wake := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() {
		_, err := r.Next(wctx)
		done <- err
	}()
	go wake()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("Next after its cancel: %v, want context.Canceled", err)
		}
	case <-ctx.Done():
		t.Fatal("the cancel did not end Next's wait")
	}
	closeWithin(ctx, t, r)
}
