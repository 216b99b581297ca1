package source_test

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/fastpathlab/fplab/clusters"
	"github.com/fastpathlab/fplab/source"
	"github.com/fastpathlab/fplab/source/consume"
	"github.com/fastpathlab/fplab/workloads"
)

// The start modes (Config.StartAt) against the package's embedded cluster,
// on every path: each read must deliver exactly the range [start, end) of
// every partition that Flink's KafkaSource would start at.

// started is what a read delivered, per partition: its rows and the
// offset of its first row (-1: none).
type started struct {
	rows  int64
	count []int64
	first []int64
}

// readStarted opens a reader of cfg and drains it to io.EOF: what it
// delivered, or the first error (of Open or Next). Every batch's rows
// have positions, and per partition the offsets run without a gap: the
// test topics hold plain records only, so a range is read whole.
func readStarted(t *testing.T, cfg source.Config) (started, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	out := started{count: make([]int64, cfg.Partitions), first: make([]int64, cfg.Partitions)}
	for p := range out.first {
		out.first[p] = -1
	}
	r, err := source.Open(ctx, cfg)
	if err != nil {
		return out, err
	}
	defer r.Close()
	for {
		b, err := r.Next(ctx)
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		n := b.Rec.NumRows()
		if int(n) != len(b.Partitions) || int(n) != len(b.Offsets) {
			t.Fatalf("batch of %d rows with %d partitions and %d offsets", n, len(b.Partitions), len(b.Offsets))
		}
		for k, p := range b.Partitions {
			off := b.Offsets[k]
			if out.count[p] == 0 {
				out.first[p] = off
			} else if want := out.first[p] + out.count[p]; off != want {
				t.Fatalf("partition %d: offset %d, want %d", p, off, want)
			}
			out.count[p]++
		}
		out.rows += n
		b.Rec.Release()
	}
}

// wantRange checks that got is exactly [start[p], end[p]) of every
// partition p.
func wantRange(t *testing.T, name string, got started, err error, start, end []int64) {
	t.Helper()
	if err != nil {
		t.Errorf("%s: %v", name, err)
		return
	}
	for p := range start {
		n := max(end[p]-start[p], 0)
		first := int64(-1)
		if n > 0 {
			first = start[p]
		}
		if got.count[p] != n || got.first[p] != first {
			t.Errorf("%s: partition %d: %d rows from %d, want %d from %d (range [%d, %d))",
				name, p, got.count[p], got.first[p], n, first, start[p], end[p])
		}
	}
}

// wantFail checks that a read failed with one error line holding every
// one of subs, and that it failed rather than hung: the bound is the
// reader's timeout plus room for a loaded machine's clients to start and
// close, a bound on a hang, not a duration measured.
func wantFail(t *testing.T, name string, got started, err error, d, timeout time.Duration, subs ...string) {
	t.Helper()
	if err == nil {
		t.Errorf("%s: %d rows and no error, want one with %q", name, got.rows, subs)
		return
	}
	if strings.Contains(err.Error(), "\n") {
		t.Errorf("%s: error of several lines: %q", name, err)
	}
	for _, s := range subs {
		if !strings.Contains(err.Error(), s) {
			t.Errorf("%s: %v, want %q in it", name, err, s)
		}
	}
	if d > timeout+20*time.Second {
		t.Errorf("%s: failed after %v (timeout %v)", name, d, timeout)
	}
	t.Logf("%s after %v: %v", name, d.Round(time.Millisecond), err)
}

// groupOf is a group name of the test's own.
func groupOf(t *testing.T, name string) string {
	return strings.NewReplacer("/", ".", " ", "_").Replace(t.Name()) + "." + name
}

// commit commits offs[p] of every partition p with offs[p] >= 0 for group,
// as an admin does for a group with no members (generation -1, no
// member id: clusters.CommitOffsets).
func commit(t *testing.T, tp *topic, group string, offs []int64) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := clusters.CommitOffsets(ctx, tp.cluster, group, tp.name, offs); err != nil {
		t.Fatalf("commit %v for group %s: %v", offs, group, err)
	}
}

// TestStartLatest: every path started at the high watermarks captured at
// open reads nothing and ends with io.EOF.
func TestStartLatest(t *testing.T) {
	tp := loadTopic(t, workloads.FormatJSON)
	for _, p := range consume.Paths() {
		t.Run(string(p), func(t *testing.T) {
			cfg := tp.config(p, 64, memory.NewGoAllocator())
			cfg.StartAt = source.StartLatest
			got, err := readStarted(t, cfg)
			if err != nil || got.rows != 0 {
				t.Errorf("%d rows, %v; want none and io.EOF", got.rows, err)
			}
		})
	}
}

// TestStartTimestamp: every path started at a timestamp reads exactly the
// records at or after it. The records carry explicit timestamps (the
// producer's CreateTime): round one base1+i and round two base2+i for the
// i-th record of a partition in the round, base2 an hour after base1, so
// where each timestamp lands is known without asking the broker.
// Partition 1 has no record in round two, partition 2 none in round one:
// a partition without a record at or after the time starts at its end.
func TestStartTimestamp(t *testing.T) {
	const base1 = int64(1_600_000_000_000)
	const base2 = base1 + int64(time.Hour/time.Millisecond)
	round1 := []int{40, 25, 0}
	round2 := []int{30, 0, 20}
	tp := stampedTopic(t, round1, round2, base1, base2)
	end := []int64{70, 25, 20}
	cases := []struct {
		name  string
		at    int64
		start []int64
	}{
		{"before all", base1 - 1, []int64{0, 0, 0}},
		{"first record", base1, []int64{0, 0, 0}},
		{"inside round one", base1 + 10, []int64{10, 10, 0}},
		{"between rounds", base1 + 100, []int64{40, 25, 0}},
		{"round two", base2, []int64{40, 25, 0}},
		{"inside round two", base2 + 5, []int64{45, 25, 5}},
		{"after all", base2 + 1000, end},
	}
	for _, p := range consume.Paths() {
		t.Run(string(p), func(t *testing.T) {
			for _, tc := range cases {
				cfg := tp.config(p, 16, memory.NewGoAllocator())
				cfg.StartAt, cfg.StartTime = source.StartTimestamp, time.UnixMilli(tc.at)
				got, err := readStarted(t, cfg)
				wantRange(t, tc.name, got, err, tc.start, end)
			}
		})
	}
}

// stampedTopic is a fresh topic of testParts partitions whose partition p
// holds round1[p] records stamped base1+i, then round2[p] stamped base2+i.
func stampedTopic(t *testing.T, round1, round2 []int, base1, base2 int64) *topic {
	t.Helper()
	s, codec := bidCodec(t, workloads.FormatJSON)
	tp := &topic{
		name:    "start-ts-" + strings.ReplaceAll(t.Name(), "/", "."),
		cluster: clusters.Cluster{Bootstrap: bootstrap(t)},
		corpus:  workloads.NewCorpus(s, codec, 3, 100),
		codec:   codec,
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := clusters.CreateTopic(ctx, tp.cluster, tp.name, testParts); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tp.delete(t) })
	for _, round := range []struct {
		n    []int
		base int64
	}{{round1, base1}, {round2, base2}} {
		values := make(map[int32][][]byte)
		for p, n := range round.n {
			for i := range n {
				values[int32(p)] = append(values[int32(p)], tp.corpus.Message(nil, i))
			}
		}
		base := round.base
		tp.append(t, values, clusters.WithRecordMeta(func(i int, r *kgo.Record) { r.Timestamp = time.UnixMilli(base + int64(i)) }))
	}
	return tp
}

// TestStartCommitted: every path started at a group's committed offsets
// (committed beforehand as an admin does, generation -1) reads exactly
// [committed, end) per partition; a committed offset past the end (the
// bounded read's stop) reads nothing whatever the reset, as Flink's
// KafkaSource does (source.resolveStart); where a partition has no
// committed offset, or one below its log start, the reset decides:
// earliest reads from the log start, latest reads nothing, none fails
// the open with one line ("no committed offset", "out of range") within
// the reader's timeout. Partition 0's log start is 20 (records deleted),
// so "below" is a real log start, not offset 0.
func TestStartCommitted(t *testing.T) {
	tp := loadTopic(t, workloads.FormatJSON, fresh("start-committed"), withRecords(600))
	lo := []int64{20, 0, 0}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := clusters.DeleteRecords(ctx, tp.cluster, tp.name, lo); err != nil {
		t.Fatal(err)
	}
	end := tp.ends() // 200 each
	above := []int64{end[0] + 50, end[1] + 1, end[2] + 1000}
	cases := []struct {
		name    string
		commits []int64 // -1: none committed; nil: the group never committed
		reset   source.Reset
		start   []int64 // nil: the open fails with fail
		fail    string
	}{
		{name: "present", commits: []int64{50, 120, end[2]}, start: []int64{50, 120, end[2]}},
		{name: "at log start", commits: []int64{20, 0, 199}, reset: source.ResetLatest, start: []int64{20, 0, 199}},
		{name: "partly absent earliest", commits: []int64{60, -1, 100}, reset: source.ResetEarliest, start: []int64{60, 0, 100}},
		{name: "partly absent latest", commits: []int64{60, -1, 100}, reset: source.ResetLatest, start: []int64{60, end[1], 100}},
		{name: "partly absent none", commits: []int64{60, -1, 100}, fail: "no committed offset"},
		{name: "absent earliest", reset: source.ResetEarliest, start: lo},
		{name: "absent latest", reset: source.ResetLatest, start: end},
		{name: "absent none", fail: "no committed offset"},
		{name: "above earliest", commits: above, reset: source.ResetEarliest, start: end},
		{name: "above latest", commits: above, reset: source.ResetLatest, start: end},
		{name: "above none", commits: above, start: end},
		{name: "below earliest", commits: []int64{5, 10, 10}, reset: source.ResetEarliest, start: []int64{20, 10, 10}},
		{name: "below latest", commits: []int64{5, 10, 10}, reset: source.ResetLatest, start: []int64{end[0], 10, 10}},
		{name: "below none", commits: []int64{5, 10, 10}, fail: "out of range"},
	}
	for _, p := range consume.Paths() {
		t.Run(string(p), func(t *testing.T) {
			for _, tc := range cases {
				group := groupOf(t, strings.ReplaceAll(tc.name, " ", "-"))
				if tc.commits != nil {
					commit(t, tp, group, tc.commits)
				}
				cfg := tp.config(p, 32, memory.NewGoAllocator())
				cfg.StartAt, cfg.Group, cfg.Reset = source.StartCommitted, group, tc.reset
				if tc.start != nil {
					got, err := readStarted(t, cfg)
					wantRange(t, tc.name, got, err, tc.start, end)
					continue
				}
				cfg.Timeout = 5 * time.Second
				begin := time.Now()
				got, err := readStarted(t, cfg)
				wantFail(t, tc.name, got, err, time.Since(begin), cfg.Timeout, tc.fail, group)
			}
		})
	}
}

// TestStartValidation: the start settings Open refuses before it starts
// a client, each with its one line.
func TestStartValidation(t *testing.T) {
	_, codec := bidCodec(t, workloads.FormatJSON)
	ok := source.Config{
		Path: consume.PathFast, Bootstrap: []string{"127.0.0.1:1"}, Topic: "t", Partitions: 2,
		Batch: 8, Codec: codec, Mem: memory.NewGoAllocator(), Timeout: time.Second,
	}
	cases := []struct {
		name string
		mod  func(*source.Config)
		want string
	}{
		{"unknown mode", func(c *source.Config) { c.StartAt = "newest" }, `start mode must be earliest (empty), latest, timestamp or committed, got "newest"`},
		{"unknown reset", func(c *source.Config) { c.StartAt, c.Group, c.Reset = source.StartCommitted, "g", "smallest" }, `reset must be none (empty), earliest or latest, got "smallest"`},
		{"committed without group", func(c *source.Config) { c.StartAt = source.StartCommitted }, "start at committed offsets needs a group id"},
		{"timestamp without time", func(c *source.Config) { c.StartAt = source.StartTimestamp }, "start at a timestamp needs a start time"},
		{"time without timestamp", func(c *source.Config) { c.StartTime = time.UnixMilli(5) }, "start time applies to start at a timestamp only"},
		{"time before 1970", func(c *source.Config) { c.StartAt, c.StartTime = source.StartTimestamp, time.UnixMilli(-5) }, "start time must not be before 1970"},
		{"reset without committed", func(c *source.Config) { c.Reset = source.ResetEarliest }, "reset applies to start at committed offsets only"},
		{"reset with latest", func(c *source.Config) { c.StartAt, c.Reset = source.StartLatest, source.ResetLatest }, "reset applies to start at committed offsets only"},
		{"mode and offsets", func(c *source.Config) { c.StartAt, c.Start = source.StartLatest, []int64{0, 0} }, "start mode latest and start offsets are both set"},
		{"live with mode", func(c *source.Config) {
			c.Live, c.Linger, c.StartAt, c.Group = true, time.Second, source.StartCommitted, "g"
		}, "a live read starts at the end of the log: start mode committed must not be set"},
		{"client.id prop", func(c *source.Config) { c.Props = map[string]string{"client.id": "x"} }, `client property "client.id" is set by the lab`},
	}
	canceled, cancel := context.WithCancel(context.Background())
	cancel()
	for _, tc := range cases {
		cfg := ok
		tc.mod(&cfg)
		_, err := source.Open(canceled, cfg)
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
	// each mode's own settings pass validation: Open then fails dialling
	// nothing (the context is canceled) or at the closed port, never on
	// the start settings
	for _, mod := range []func(*source.Config){
		func(c *source.Config) { c.StartAt = source.StartLatest },
		func(c *source.Config) { c.StartAt, c.StartTime = source.StartTimestamp, time.UnixMilli(0) },
		func(c *source.Config) {
			c.StartAt, c.Group, c.Reset, c.ClientID = source.StartCommitted, "g", source.ResetLatest, "job"
		},
	} {
		cfg := ok
		cfg.Timeout = limitsMinTimeout
		mod(&cfg)
		r, err := source.Open(canceled, cfg)
		if err == nil {
			r.Close()
			t.Errorf("%s: opened against a closed port", cfg.StartAt)
			continue
		}
		for _, w := range []string{"start ", "reset ", "group id"} {
			if strings.HasPrefix(err.Error(), w) {
				t.Errorf("%s: refused: %v", cfg.StartAt, err)
			}
		}
	}
}

// limitsMinTimeout is the shortest Timeout Open takes.
const limitsMinTimeout = 100 * time.Millisecond
