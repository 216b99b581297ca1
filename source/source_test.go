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

// drain reads a whole topic and checks every batch against the corpus.
func drain(t *testing.T, cfg source.Config, c *workloads.Corpus) (consume.Stats, [][]int64) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	r, err := source.Open(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	seen := make(map[int64]bool)
	var splits [][]int64
	short := false
	for {
		b, err := r.Next(ctx)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		n := int(b.Rec.NumRows())
		if short {
			t.Fatalf("a batch follows a short batch")
		}
		if n > cfg.Batch || n == 0 {
			t.Fatalf("batch of %d rows, batch size %d", n, cfg.Batch)
		}
		short = n < cfg.Batch
		var want uint64
		for i, p := range b.Partitions {
			id := b.Offsets[i]*int64(cfg.Partitions) + int64(p)
			if seen[id] {
				t.Fatalf("record %d emitted twice", id)
			}
			seen[id] = true
			want += c.Hash(int(id))
		}
		if got := workloads.BatchChecksum(b.Rec); got != want {
			t.Fatalf("checksum %x, corpus %x", got, want)
		}
		splits = append(splits, append([]int64(nil), b.Split...))
		b.Rec.Release()
	}
	st := r.Stats()
	return st, splits
}

func TestPathsReadEveryRecordOnce(t *testing.T) {
	for _, f := range workloads.Formats() {
		for _, p := range consume.Paths() {
			for _, crc := range []bool{false, true} {
				if crc && f != workloads.FormatRaw {
					continue // crc is independent of the format
				}
				t.Run(fmt.Sprintf("path=%s/format=%s/crc=%v", p, f, crc), func(t *testing.T) {
					tp := loadTopic(t, f)
					mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
					defer mem.AssertSize(t, 0)
					cfg := tp.config(p, 512, mem)
					cfg.CRC = crc
					st, splits := drain(t, cfg, tp.corpus)
					if st.Records != testRecords || st.ParseFailures != 0 {
						t.Fatalf("records %d (want %d), parse failures %d", st.Records, testRecords, st.ParseFailures)
					}
					if want := int64((testRecords + 511) / 512); st.Batches != want {
						t.Errorf("batches %d, want %d", st.Batches, want)
					}
					last := splits[len(splits)-1]
					var sum int64
					for _, o := range last {
						sum += o
					}
					if sum != testRecords {
						t.Errorf("final split state %v sums to %d, want %d", last, sum, testRecords)
					}
					switch p {
					case consume.PathFast:
						if st.Polls != 0 || st.NonEmpty == 0 || st.Records/st.NonEmpty < 16 {
							t.Errorf("fast path: %d polls, %d non-empty crossings for %d records", st.Polls, st.NonEmpty, st.Records)
						}
					case consume.PathRowwise, consume.PathShallow:
						if st.Polls < st.Records || st.Crossings != 0 {
							t.Errorf("%s: %d polls, %d crossings for %d records", p, st.Polls, st.Crossings, st.Records)
						}
					}
				})
			}
		}
	}
}

func TestCRCReadBack(t *testing.T) {
	tp := loadTopic(t, workloads.FormatRaw)
	for _, p := range consume.Paths() {
		for _, crc := range []bool{false, true} {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			cfg := tp.config(p, 64, memory.NewGoAllocator())
			cfg.CRC, cfg.Timeout = crc, 10*time.Second
			r, err := source.Open(ctx, cfg)
			if err != nil {
				cancel()
				t.Fatal(err)
			}
			as, err := r.Assertions()
			r.Close()
			cancel()
			if err != nil {
				t.Fatal(err)
			}
			if as.CheckCRCs != crc || as.Client != source.ClientOf(p) || as.CheckCRCsSource == "" {
				t.Errorf("path=%s crc=%v: read back %+v", p, crc, as)
			}
		}
	}
}

func TestRestoreFromSplitState(t *testing.T) {
	tp := loadTopic(t, workloads.FormatJSON)
	base := tp.config(consume.PathFast, 1000, memory.NewGoAllocator())
	_, splits := drain(t, base, tp.corpus)
	mid := splits[1] // state after the second batch
	for _, p := range consume.Paths() {
		cfg := base
		cfg.Path = p
		cfg.Start = mid
		st, _ := drain(t, cfg, tp.corpus)
		var want int64 = testRecords
		for _, o := range mid {
			want -= o
		}
		if st.Records != want {
			t.Errorf("path=%s from %v: %d records, want %d", p, mid, st.Records, want)
		}
	}
}

func TestBadInput(t *testing.T) {
	_, codec := bidCodec(t, workloads.FormatJSON)
	ok := source.Config{
		Path: consume.PathFast, Bootstrap: bootstrap(t), Topic: "t", Partitions: testParts,
		Batch: 10, Codec: codec, Mem: memory.NewGoAllocator(), Timeout: 3 * time.Second,
	}
	cases := []struct {
		name string
		mod  func(*source.Config)
		want string
	}{
		{"batch zero", func(c *source.Config) { c.Batch = 0 }, "batch must be"},
		{"unknown path", func(c *source.Config) { c.Path = "slow" }, "unknown path"},
		{"fixed prop", func(c *source.Config) { c.Props = map[string]string{"check.crcs": "true"} }, "cannot be overridden"},
		{"fixed eof", func(c *source.Config) { c.Props = map[string]string{"enable.partition.eof": "false"} }, "cannot be overridden"},
		{"fixed reset", func(c *source.Config) { c.Props = map[string]string{"auto.offset.reset": "earliest"} }, "cannot be overridden"},
		{"fixed isolation", func(c *source.Config) { c.Props = map[string]string{"isolation.level": "read_uncommitted"} }, "cannot be overridden"},
		{"franz prop", func(c *source.Config) {
			c.Path = consume.PathFranz
			c.Props = map[string]string{"fetch.min.bytes": "1"}
		}, `client property "fetch.min.bytes" is not taken`},
		{"missing topic fast", func(c *source.Config) { c.Topic = "no-such-topic" }, "does not exist"},
		{"missing topic rowwise", func(c *source.Config) { c.Path = consume.PathRowwise; c.Topic = "no-such-topic" }, "does not exist"},
		{"missing topic franz", func(c *source.Config) { c.Path = consume.PathFranz; c.Topic = "no-such-topic" }, "does not exist"},
		{"unreachable", func(c *source.Config) { c.Bootstrap = []string{"127.0.0.1:1"} }, "metadata from 127.0.0.1:1: "},
		{"unreachable shallow", func(c *source.Config) { c.Path = consume.PathShallow; c.Bootstrap = []string{"127.0.0.1:1"} }, "metadata from 127.0.0.1:1: "},
		{"unreachable franz", func(c *source.Config) { c.Path = consume.PathFranz; c.Bootstrap = []string{"127.0.0.1:1"} }, `franz: list offsets of "t": `},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			cfg := ok
			tc.mod(&cfg)
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			start := time.Now()
			r, err := source.Open(ctx, cfg)
			if err == nil {
				r.Close()
				t.Fatal("no error")
			}
			if !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
				t.Errorf("error %q, want one line containing %q", err, tc.want)
			}
			// no hang: the failure comes back, client closed, well before
			// the test's own 30 s deadline (a loaded machine stretches
			// librdkafka's close, so this bounds a hang, not a duration)
			if d := time.Since(start); d > cfg.Timeout+20*time.Second {
				t.Errorf("took %v, timeout %v", d, cfg.Timeout)
			}
		})
	}
}
