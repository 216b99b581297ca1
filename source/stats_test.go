package source_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fastpathlab/fplab/source"
	"github.com/fastpathlab/fplab/source/consume"
	"github.com/fastpathlab/fplab/workloads"
)

// statsPaths are the librdkafka paths, the ones that sample statistics.
var statsPaths = []consume.Path{consume.PathRowwise, consume.PathShallow, consume.PathFast}

// librdkafkaStats is the part of a statistics document the test reads.
type librdkafkaStats struct {
	Name    *string                    `json:"name"`
	Type    *string                    `json:"type"`
	TS      *int64                     `json:"ts"`
	Brokers map[string]json.RawMessage `json:"brokers"`
	Topics  map[string]json.RawMessage `json:"topics"`
}

// TestStatsSampled reads a small topic with Stats=50ms on every librdkafka
// path. Its stop lies one record past each partition's end, so once the
// records are read the reader goes on polling (on rowwise and shallow the
// documents arrive through Poll, so only while Next runs); the read is
// canceled once its full batches are in and a document named the topic
// under "topics". Every
// document OnStats got parses as librdkafka's statistics of a consumer,
// and the reader's counts agree with the calls.
func TestStatsSampled(t *testing.T) {
	const records, batch = 300, 64
	// the stop is never reached, so the last batch that is not full is
	// never handed over
	const fullRows = records / batch * batch
	tp := loadTopic(t, workloads.FormatJSON, fresh("stats"), withRecords(records))
	for _, p := range statsPaths {
		t.Run(string(p), func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			var (
				mu    sync.Mutex
				docs  [][]byte
				found = make(chan struct{})
				once  sync.Once
			)
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			cfg := tp.config(p, batch, mem)
			cfg.Stop = tp.ends()
			for i := range cfg.Stop {
				cfg.Stop[i]++
			}
			cfg.Stats = 50 * time.Millisecond
			cfg.OnStats = func(doc []byte) {
				mu.Lock()
				docs = append(docs, doc)
				mu.Unlock()
				var st librdkafkaStats
				if json.Unmarshal(doc, &st) == nil && st.Topics[tp.name] != nil {
					once.Do(func() { close(found) })
				}
			}
			r, err := source.Open(ctx, cfg)
			if err != nil {
				t.Fatal(err)
			}
			read, cancelRead := context.WithCancel(ctx)
			defer cancelRead()
			// the read ends once its full batches are read and a document
			// named the topic, whichever comes last
			readAll := make(chan struct{})
			go func() {
				for _, ev := range []chan struct{}{found, readAll} {
					select {
					case <-ev:
					case <-read.Done():
						return
					}
				}
				cancelRead()
			}()
			rows := 0
			for {
				b, err := r.Next(read)
				if err != nil {
					if !errors.Is(err, context.Canceled) {
						r.Close()
						t.Fatalf("read ended with %v after %d rows, before a statistics document named topic %s", err, rows, tp.name)
					}
					break
				}
				rows += int(b.Rec.NumRows())
				b.Rec.Release()
				if rows == fullRows {
					close(readAll)
				}
			}
			if err := r.Close(); err != nil {
				t.Fatal(err)
			}
			st := r.Stats()
			mu.Lock()
			defer mu.Unlock()
			if rows != fullRows || st.Records != int64(rows) {
				t.Errorf("%d rows in batches, Stats.Records %d, want %d", rows, st.Records, fullRows)
			}
			if st.StatsSamples != int64(len(docs)) || st.StatsSamples == 0 {
				t.Errorf("Stats: %d samples (%d dropped), OnStats called %d times", st.StatsSamples, st.StatsDropped, len(docs))
			}
			for i, doc := range docs {
				var s librdkafkaStats
				if err := json.Unmarshal(doc, &s); err != nil {
					t.Fatalf("document %d does not parse: %v: %.200s", i, err, doc)
				}
				if s.Name == nil || *s.Name == "" || s.Type == nil || *s.Type != "consumer" || s.TS == nil || *s.TS <= 0 ||
					s.Brokers == nil || s.Topics == nil {
					t.Errorf("document %d lacks librdkafka's top-level fields: %.300s", i, doc)
				}
			}
			select {
			case <-found:
			default:
				t.Errorf("no document named topic %s under topics", tp.name)
			}
		})
	}
}

// TestStatsOff reads the topic on every librdkafka path with Stats zero:
// no sample is counted, delivered or dropped (the client runs without
// statistics.interval.ms: TestStatsInterval reads that back).
func TestStatsOff(t *testing.T) {
	tp := loadTopic(t, workloads.FormatJSON)
	for _, p := range statsPaths {
		st, _ := drain(t, tp.config(p, 512, memory.NewGoAllocator()), tp.corpus)
		if st.Records != testRecords || st.StatsSamples != 0 || st.StatsDropped != 0 {
			t.Errorf("path=%s: %d records, %d samples, %d dropped", p, st.Records, st.StatsSamples, st.StatsDropped)
		}
	}
}

// TestStatsValidation covers the checks of Stats and OnStats, made before
// any client starts (the context is already canceled and nothing is
// dialled).
func TestStatsValidation(t *testing.T) {
	_, codec := bidCodec(t, workloads.FormatJSON)
	ok := source.Config{
		Path: consume.PathShallow, Bootstrap: []string{"127.0.0.1:1"}, Topic: "t", Partitions: 2,
		Batch: 8, Codec: codec, Mem: memory.NewGoAllocator(), Timeout: time.Second,
		Stats: 50 * time.Millisecond, OnStats: func([]byte) {},
	}
	cases := []struct {
		name string
		mod  func(*source.Config)
		want string
	}{
		{"no OnStats", func(c *source.Config) { c.OnStats = nil }, "stats needs OnStats to take the documents, got none"},
		{"OnStats without stats", func(c *source.Config) { c.Stats = 0 }, "OnStats needs stats > 0, the interval at which librdkafka emits its statistics"},
		{"too short", func(c *source.Config) { c.Stats = 5 * time.Millisecond }, "stats must be 10ms..1h0m0s, got 5ms"},
		{"negative", func(c *source.Config) { c.Stats = -time.Second }, "stats must be 10ms..1h0m0s, got -1s"},
		{"too long", func(c *source.Config) { c.Stats = 2 * time.Hour }, "stats must be 10ms..1h0m0s, got 2h0m0s"},
		{"fraction", func(c *source.Config) { c.Stats = 10*time.Millisecond + time.Microsecond }, "stats must be whole milliseconds (statistics.interval.ms), got 10.001ms"},
		{"franz", func(c *source.Config) { c.Path = consume.PathFranz }, "stats are librdkafka's statistics: they run on the rowwise, shallow and fast paths, not franz"},
		{"franz without OnStats", func(c *source.Config) { c.Path, c.OnStats = consume.PathFranz, nil }, "stats are librdkafka's statistics: they run on the rowwise, shallow and fast paths, not franz"},
		{"prop", func(c *source.Config) {
			c.Stats, c.OnStats = 0, nil
			c.Props = map[string]string{"statistics.interval.ms": "50"}
		}, `client property "statistics.interval.ms" is set by the lab and cannot be overridden`},
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

// TestStatsOpenFails opens readers that sample statistics every 10 ms on a
// bootstrap no broker answers on: Open fails with its one line, and the
// sampling it had started (on fast, the main-queue poller) is stopped with
// the client; OnStats is not called after Open returned.
func TestStatsOpenFails(t *testing.T) {
	_, codec := bidCodec(t, workloads.FormatJSON)
	for _, p := range []consume.Path{consume.PathShallow, consume.PathFast} {
		var mu sync.Mutex
		closed, late := false, 0
		cfg := source.Config{
			Path: p, Bootstrap: []string{"127.0.0.1:1"}, Topic: "t", Partitions: 2,
			Batch: 8, Codec: codec, Mem: memory.NewGoAllocator(), Timeout: time.Second,
			Stats: 10 * time.Millisecond, OnStats: func([]byte) {
				mu.Lock()
				if closed {
					late++
				}
				mu.Unlock()
			},
		}
		_, err := source.Open(context.Background(), cfg)
		mu.Lock()
		closed = true
		mu.Unlock()
		if err == nil || !strings.HasPrefix(err.Error(), "metadata from 127.0.0.1:1: ") || strings.Contains(err.Error(), "\n") {
			t.Errorf("path=%s: %v", p, err)
		}
		mu.Lock()
		if late != 0 {
			t.Errorf("path=%s: OnStats called %d times after Open returned", p, late)
		}
		mu.Unlock()
	}
}
